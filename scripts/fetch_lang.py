#!/usr/bin/env python3
"""Obtain one language's inputs into raw/<lang>/ and check them against raw/<lang>/SOURCES.md.

`make raw-lang LANG=es` runs this (docs/languages.md). Like scripts/fetch_raw.py, whose helpers it uses, it
needs only `apt-get download`, `dpkg-deb` and the standard library, so it works before the virtual environment
exists. Per language two Debian packages: the word list (wspanish, wdutch, wpolish, wfrench, wngerman) and the
FreeDict dictionary of English glosses (dict-freedict-<xxx>-eng, dictd's .index and .dict.dz). Every file is
checked against the sha256 in raw/<lang>/SOURCES.md (the package's own file, before any compression); a mismatch
is an error and nothing is written. The package's copyright file is copied beside its files: it is the licence
the release's NOTICE carries.

A list is COMMITTED (compressed, raw/<lang>/words.txt.gz, gzip -9 without a time stamp) when it is small and
its licence permissive: es (public domain) and nl (BSD, or CC BY 3.0). The others are FETCHED by this script
and never committed (raw/<lang>/.gitignore): pl (60 MB), fr and de (GPL-2+: the project's repository does not
redistribute copyleft lists; an export built from one says so in its NOTICE), and every FreeDict dictionary
(GPL-2+, GPL-3+ deu-eng, CC BY-SA 3.0 pol-eng).

`--write-sources` (a maintainer moving to a new package version) writes SOURCES.md from the download instead
of checking it; `--check` downloads nothing and says which inputs are missing, and how to fetch them (exit 2).
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from fetch_raw import RAW, Package, collect, sha256, unpack


@dataclass(frozen=True)
class Language:
    words: Package  # its members: (the list's path in the package, "words.txt")
    glosses: Package  # its members: the dictd index and dict.dz
    committed: bool  # the list is committed as words.txt.gz (see the module docstring)


def _list(name: str, version: str, inside: str, licence: str) -> Package:
    return Package("debian", name, version, ((inside, "words.txt"),), licence)


def _freedict(pair: str, version: str, licence: str) -> Package:
    members = tuple((f"usr/share/dictd/freedict-{pair}.{ext}", "") for ext in ("index", "dict.dz"))
    return Package("debian", f"dict-freedict-{pair}", version, members, licence)


LANGUAGES = {
    "es": Language(
        _list(
            "wspanish",
            "1.0.30",
            "usr/share/dict/spanish",
            "public domain (copyright: 'Word list license: Public Domain')",
        ),
        _freedict("spa-eng", "2022.04.21-1", "GPL-2+ (FreeDict spa-eng)"),
        committed=True,
    ),
    "nl": Language(
        _list(
            "wdutch", "1:2.20.19-2", "usr/share/dict/dutch", "BSD (revised) or CC BY 3.0, the user's choice (OpenTaal)"
        ),
        _freedict("nld-eng", "2022.04.21-1", "GPL-2+ (FreeDict nld-eng)"),
        committed=True,
    ),
    "pl": Language(
        _list(
            "wpolish",
            "20220301-1",
            "usr/share/dict/polish",
            "GPL-2, LGPL-2.1, MPL-1.1, Apache-2.0 or CC BY 4.0, the user's choice (sjp.pl)",
        ),
        _freedict("pol-eng", "2022.12.07-2", "CC BY-SA 3.0 (FreeDict pol-eng)"),
        committed=False,
    ),
    "fr": Language(
        _list("wfrench", "1.2.7-2", "usr/share/dict/french", "GPL-2+ (Paul Leyland, Debian)"),
        _freedict("fra-eng", "2022.04.21-1", "GPL-2+ (FreeDict fra-eng)"),
        committed=False,
    ),
    "de": Language(
        _list("wngerman", "20161207-11", "usr/share/dict/ngerman", "GPL-2+ (igerman98, Björn Jacke)"),
        _freedict("deu-eng", "2022.04.21-1", "GPL-3+ (FreeDict deu-eng, Frank Richter)"),
        committed=False,
    ),
}
HEADER = "| path | package | version | path in package | bytes | sha256 | licence |"


def folder(code: str) -> Path:
    return RAW / code


def targets(code: str) -> list[str]:
    """The files raw/<lang>/ holds once fetched, as the language's config names them."""
    lang = LANGUAGES[code]
    words = "words.txt.gz" if lang.committed else "words.txt"
    pair = lang.glosses.name.removeprefix("dict-")
    return [words, f"{pair}.index", f"{pair}.dict.dz"]


def read_sources(code: str) -> dict[str, str]:
    """path in raw/<lang>/ -> sha256 of the package's file, from the second table of raw/<lang>/SOURCES.md."""
    path = folder(code) / "SOURCES.md"
    if not path.exists():
        return {}
    table = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and len(cells[2]) == 64:
            table[cells[0]] = cells[2]
    return table


def write_sources(code: str, rows: list[tuple[str, Package, str, int, str]]) -> None:
    """Two tables: raw/SOURCES.md's (the files as they lie here, by their sha256: what a release's NOTICE
    matches an input by) and the package's files with their size and sha256 (what a fetch is checked on)."""
    lang = LANGUAGES[code]
    how = (
        "The list is committed, gzip-compressed (`words.txt.gz`, `gzip -9 -n` of the package's file): it is small "
        "and its licence permissive."
        if lang.committed
        else f"The list is not committed (`.gitignore`): `make raw-lang LANG={code}` fetches it."
    )
    lines = [
        f"# Sources of raw/{code}/",
        "",
        f"`make raw-lang LANG={code}` (scripts/fetch_lang.py) downloads the Debian packages with `apt-get download`,",
        "unpacks them with `dpkg-deb`, checks each file against the second table and copies it here, with the",
        "package's copyright file (its licence). The FreeDict dictionary is never committed. " + how,
        "",
        "| path | package | version | path in package | sha256 | licence |",
        "|---|---|---|---|---|---|",
    ]
    for target, pkg, inside, _, _ in rows:
        digest = sha256(folder(code) / target)
        lines.append(f"| `{target}` | Debian `{pkg.name}` | {pkg.version} | `{inside}` | `{digest}` | {pkg.licence} |")
    lines += ["", "## The package's files", "", "| path | bytes | sha256 |", "|---|---|---|"]
    lines += [f"| `{target}` | {size:,} | `{digest}` |" for target, _, _, size, digest in rows]
    (folder(code) / "SOURCES.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def check(code: str) -> int:
    """0 when raw/<lang>/ holds every input; else say what is missing and how to fetch it, 2."""
    missing = [t for t in targets(code) if not (folder(code) / t).is_file()]
    if not missing:
        return 0
    print(
        f"error: raw/{code}/ lacks {', '.join(missing)}; fetch them with `make raw-lang LANG={code}` "
        "(apt-get download, checked against raw/" + code + "/SOURCES.md)",
        file=sys.stderr,
    )
    return 2


def _compress(source: Path, committed: Path) -> None:
    """Write the committed .gz, unless the one there already holds the same bytes: another zlib may
    compress them otherwise, and the committed file should not change for that."""
    data = source.read_bytes()
    try:
        if gzip.decompress(committed.read_bytes()) == data:
            return
    except (OSError, EOFError):
        pass  # missing or damaged: written anew
    committed.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))


def fetch(code: str, write: bool) -> None:
    lang = LANGUAGES[code]
    expected = {} if write else read_sources(code)
    if not write and not expected:
        sys.exit(f"fetch_lang: raw/{code}/SOURCES.md has no table; --write-sources writes one")
    rows, bad, copies = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for pkg in (lang.words, lang.glosses):
            work = Path(tmp) / pkg.name
            work.mkdir()
            root = unpack(pkg, work)
            for target, path, inside in collect(pkg, root):
                target = target or path.name  # the dictd files keep their names
                if target == "words.txt" and lang.committed:
                    target = "words.txt.gz"  # its row: the package's file, which is committed compressed
                digest = sha256(path)
                if not write and expected.get(target) != digest:
                    bad.append(f"{target}: sha256 {digest}, SOURCES.md says {expected.get(target, 'nothing')}")
                rows.append((target, pkg, inside, path.stat().st_size, digest))
                copies.append((target, path))
            copies.append((f"copyright-{pkg.name}", root / "usr/share/doc" / pkg.name / "copyright"))
        if bad:
            sys.exit("fetch_lang: checksum mismatch, raw/" + code + "/ left unchanged:\n  " + "\n  ".join(bad))
        folder(code).mkdir(parents=True, exist_ok=True)
        for target, path in copies:
            if target == "words.txt.gz":
                _compress(path, folder(code) / target)
            else:
                shutil.copyfile(path, folder(code) / target)
    # What is fetched, never committed: the FreeDict files and their copyright, and a list not committed.
    ignored = ["freedict-*", f"copyright-{lang.glosses.name}"]
    ignored += [] if lang.committed else ["words.txt", f"copyright-{lang.words.name}"]
    (folder(code) / ".gitignore").write_text("\n".join(ignored) + "\n", encoding="utf-8")
    if write:
        write_sources(code, rows)
    print(f"fetch_lang: raw/{code}/ holds {', '.join(targets(code))}, matching SOURCES.md", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lang", help=f"the language: {', '.join(LANGUAGES)}")
    parser.add_argument("--write-sources", action="store_true", help="write raw/<lang>/SOURCES.md from the download")
    parser.add_argument("--check", action="store_true", help="download nothing: say which inputs are missing")
    args = parser.parse_args()
    if args.lang not in LANGUAGES:
        print(f"error: no language {args.lang!r}; LANG is one of {', '.join(LANGUAGES)}", file=sys.stderr)
        sys.exit(2)
    if args.check:
        sys.exit(check(args.lang))
    try:
        fetch(args.lang, args.write_sources)
    except KeyboardInterrupt:
        print(f"error: interrupted; run make raw-lang LANG={args.lang} again", file=sys.stderr)
        sys.exit(130)


if __name__ == "__main__":
    main()
