"""`ladders release DIR`: every artifact of one export, verified, checksummed and explained, in one folder.

Reads an export folder (the contract's files, built and verified first) and writes DIR, flat so that
each file can be a release asset:
- the export's files as they are: words.parquet, groups.parquet, longest.parquet, ladder.sqlite,
  manifest.json (the export's manifest: inputs, files, config, counts), summary.txt;
- ladder-mysql.sql.gz: `ladders export-sql`'s dump, gzip;
- web.tar.gz: the folder `ladders export-web` writes (the static page and its data);
- NOTICE: for each input, where it came from, its licence and which columns carry its text;
- CHANGES.md: what changed against a previous release (`ladders diff`'s engine, ladders/artifact/diff.py);
- SHA256SUMS: `sha256sum` lines for every other file, so `sha256sum -c SHA256SUMS` checks a download.
Nothing in it holds a time: archives carry fixed times, owners and modes, gzip no name and no time, so
the same export, the same input folders (NOTICE reads their SOURCES.md and licence files, found through the
config's input paths) and the same previous release (CHANGES.md) give the same bytes (with the same zlib:
gzip output may differ across zlib versions).

A folder is a release when it holds SHA256SUMS and exactly the files SHA256SUMS lists besides it. DIR
must be new, empty or a release (which is replaced whole: the new one is written beside it and renamed
into place). The previous release may be a folder or a .tar.gz/.tgz/.zip of one (at its top or in one
folder); it is checked against its SHA256SUMS before it is read.
"""

from __future__ import annotations

import gzip
import hashlib
import io as _io
import os
import shutil
import tarfile
import tempfile
import zipfile
from contextlib import contextmanager
from pathlib import Path

from pipeline.columns import FILES, MANIFEST_FILE, WORDS_FILE
from ladders.artifact.contract import read_manifest
from pipeline.config import LEXICON_FILES
from pipeline.errors import DamagedState, PipelineError, UsageError

SUMS, NOTICE, CHANGES = "SHA256SUMS", "NOTICE", "CHANGES.md"
MYSQL, WEB = "ladder-mysql.sql.gz", "web.tar.gz"
RELEASE_FILES = tuple(sorted((*FILES, MYSQL, WEB, NOTICE, CHANGES)))  # SHA256SUMS lists these
ARCHIVE_TIME = 946_684_800  # 2000-01-01 UTC: a fixed time for every archive member (0 upsets some tools)


class VerifyFailed(PipelineError):
    """The export failed `ladders verify`: no release is written from it."""

    exit_code = 1


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_sums(folder: Path) -> dict[str, str] | None:
    """SHA256SUMS of a folder as {name: sha256}, or None when it has none or it is not one."""
    try:
        text = (folder / SUMS).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    sums = {}
    for line in text.splitlines():
        digest, sep, name = line.partition("  ")
        if not sep or len(digest) != 64 or "/" in name or name in ("", ".", ".."):
            return None
        sums[name] = digest
    return sums


def is_release(folder: Path) -> bool:
    """A folder holding SHA256SUMS and exactly the files it lists besides it (what write_release makes)."""
    sums = read_sums(folder)
    return sums is not None and {p.name for p in folder.iterdir()} == {*sums, SUMS}


def check_release(folder: Path, what: str) -> None:
    """Every file SHA256SUMS lists is there with its sha256, and the export files are among them; else
    DamagedState naming the first file that is not (`what` names the release in the message)."""
    sums = read_sums(folder)
    if sums is None:
        raise DamagedState(f"{what} has no readable {SUMS}: not a release ladders wrote")
    missing = [n for n in (WORDS_FILE, MANIFEST_FILE) if n not in sums]
    if missing:
        raise DamagedState(f"{what}: {SUMS} does not list {missing[0]}: not a ladders release")
    for name, digest in sorted(sums.items()):
        path = folder / name
        if not path.is_file() or path.is_symlink():
            raise DamagedState(f"{what} is damaged: {name} is missing")
        if sha256_of(path) != digest:
            raise DamagedState(f"{what} is damaged: {name} does not match its sha256 in {SUMS}")


def _unpack(archive: Path, into: Path) -> Path:
    """Unpack a .tar.gz/.tgz/.zip (no links, nothing outside `into`) and return the release folder in it."""
    name = archive.name.lower()
    try:
        if name.endswith((".tar.gz", ".tgz")):
            with tarfile.open(archive, "r:gz") as tar:
                tar.extractall(into, filter="data")
        elif name.endswith(".zip"):
            with zipfile.ZipFile(archive) as z:
                for member in z.namelist():
                    if member.startswith("/") or ".." in Path(member).parts:
                        raise DamagedState(f"previous release {archive} holds a path outside it: {member}")
                z.extractall(into)
        else:
            raise UsageError(f"--previous {archive}: give a release folder or a .tar.gz, .tgz or .zip of one")
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, gzip.BadGzipFile) as err:
        raise DamagedState(f"previous release {archive} is damaged: {err}") from None
    entries = list(into.iterdir())
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else into


@contextmanager
def previous_release(path: Path | None):
    """The previous release as a checked folder (an archive unpacked into a temporary one), or None."""
    if path is None:
        yield None
        return
    path = Path(path)
    if not path.exists():
        raise UsageError(f"--previous {path} does not exist")
    if path.is_dir():
        check_release(path, f"previous release {path}")
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="ladders-previous-") as scratch:
        folder = _unpack(path, Path(scratch))
        check_release(folder, f"previous release {path}")
        yield folder


def _tar_gz(folder: Path) -> bytes:
    """A .tar.gz of a folder's files whose bytes depend on their names and contents alone."""
    buffer = _io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=6, mtime=0) as gz:
        with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for path in sorted(folder.rglob("*")):
                info = tarfile.TarInfo(path.relative_to(folder).as_posix())
                info.mtime, info.uid, info.gid, info.uname, info.gname = ARCHIVE_TIME, 0, 0, "", ""
                if path.is_dir():
                    info.type, info.mode = tarfile.DIRTYPE, 0o755
                    tar.addfile(info)
                else:
                    data = path.read_bytes()
                    info.size, info.mode = len(data), 0o644
                    tar.addfile(info, _io.BytesIO(data))
    return buffer.getvalue()


def _check_target(folder: Path) -> None:
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise UsageError(f"{folder} is not a folder; give a new folder for the release")
    if folder.is_dir() and any(folder.iterdir()) and not is_release(folder):
        raise UsageError(
            f"{folder} exists and is not a release (a release holds {SUMS} and only the files it lists); "
            "give a new or empty folder"
        )


def write_release(export: Path, folder: Path, previous: Path | None, inputs: dict[str, Path]) -> dict[str, str]:
    """Write the release of `export` (verified first) into `folder`, with CHANGES.md against `previous`
    (a release folder or archive, or None); `inputs` are the config's input paths by key, for NOTICE.
    Returns {file: sha256}. The checks, the dump and the page are `verify`'s, `export-sql`'s and
    `export-web`'s own functions."""
    from ladders.artifact.diff import changes_markdown
    from ladders.artifact.sqldump import mysql_dump
    from ladders.artifact.verify import verify
    from ladders.artifact.webfolder import write_web

    folder = Path(folder)
    _check_target(folder)
    failed = verify(export)
    if failed:
        code, message, _ = failed[0]
        more = f" (and {len(failed) - 1} more checks)" if len(failed) > 1 else ""
        raise VerifyFailed(f"the export fails verify: {code} {message}{more}; no release written")
    with previous_release(previous) as before:
        folder.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=f".{folder.name}.new-", dir=folder.parent))
        try:
            for name in FILES:
                shutil.copyfile(export / name, fresh / name)
            dump = "".join(mysql_dump(export)).encode()
            # gzip level 6: for raw/'s 68 MiB dump 2.6 s against 7.8 s at level 9, both 13 MiB
            (fresh / MYSQL).write_bytes(gzip.compress(dump, compresslevel=6, mtime=0))
            with tempfile.TemporaryDirectory(prefix="ladders-web-") as web:
                write_web(export, Path(web) / "web")
                (fresh / WEB).write_bytes(_tar_gz(Path(web) / "web"))
            (fresh / NOTICE).write_text(notice(export, inputs), encoding="utf-8")
            against = None if before is None else f"the release whose {SUMS} has sha256 {sha256_of(before / SUMS)}"
            (fresh / CHANGES).write_text(changes_markdown(before, export, against), encoding="utf-8")
            sums = {name: sha256_of(fresh / name) for name in RELEASE_FILES}
            (fresh / SUMS).write_text("".join(f"{d}  {n}\n" for n, d in sums.items()), encoding="utf-8")
            for path in fresh.iterdir():
                os.chmod(path, 0o644)
            os.chmod(fresh, 0o755)
            _replace(fresh, folder)
        except BaseException:
            shutil.rmtree(fresh, ignore_errors=True)
            raise
    return sums


def _replace(fresh: Path, folder: Path) -> None:
    """Put `fresh` at `folder`'s name; an old release (or an empty folder) there is removed after."""
    if not folder.exists():
        os.rename(fresh, folder)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{folder.name}.old-", dir=folder.parent))
    os.rename(folder, old / folder.name)
    os.rename(fresh, folder)
    shutil.rmtree(old)


# NOTICE ---------------------------------------------------------------------------------------------

# What each input is and which columns carry it. The same values are in ladder.sqlite, the MySQL dump and
# the web folder's data.
CARRIED_BY = {
    "csw": "`word` and `in_csw` (and what is computed from the words: `length`, the links, the groups); "
    "`definition` where `definition_source` is `csw` or begins `csw-`",
    "owl": "`in_owl` (and the owl groups); `definition` where `definition_source` is `owl` or begins `owl-`",
    "scowl": "`scowl_level`, `rareness`, `usa`, `brit`: facts read from the lists, none of their text",
    "wordnet": "`definition` where `definition_source` is `wordnet` or begins `wordnet-`; "
    "WordNet's usage labels also set some `offensive` and `vulgar_sense` flags",
    "gcide": "`definition` where `definition_source` is `gcide` or begins `gcide-`; "
    "GCIDE's usage labels also set some `offensive` and `vulgar_sense` flags",
    "supplement": "`definition` where `definition_source` is `supplement` or begins `supplement-`",
    "offensive": "`offensive` and `vulgar_sense` of the words it lists",  # not a column: the config key
    "cuss": "`offensive` of words no dictionary here labels: its ratings, none of its text",
}
SCOWL_NOTICE = (
    "SCOWL (Spell Checker Oriented Word Lists) is Copyright Kevin Atkinson, with parts by the other "
    'authors its Copyright file names. Its notice: "Permission to use, copy, modify, distribute and sell '
    "these word lists, the associated scripts, the output created from the scripts, and its documentation "
    "for any purpose is hereby granted without fee, provided that the above copyright notice appears in all "
    "copies and that both that copyright notice and this permission notice appear in supporting "
    "documentation. Kevin Atkinson makes no representations about the suitability of this array for any "
    'purpose. It is provided "as is" without express or implied warranty." The full notice is SCOWL\'s '
    "Copyright file (in the Debian package scowl: /usr/share/doc/scowl/copyright)."
)
GPL_NOTE = (
    "GCIDE (the GNU Collaborative International Dictionary of English) is under the GNU General Public "
    "License, version 3 or later. The definitions counted above are GCIDE text or made from it, so they, "
    "and every file that holds them, pass on under the GPL-3+ with their source: GCIDE's dictd files "
    "(Debian package dict-gcide). To release without them, leave `gcide` out of `definition_sources`."
)
OWN_LIST = (
    "Not listed in a SOURCES.md beside it: a list of your own, whose licence is yours to honour. Collins "
    "Scrabble Words and the NASPA Word List are licensed; a release built from them may be passed on only "
    "as that licence allows."
)


def _listed_sources(path: Path) -> dict[str, tuple[str, str]]:
    """sha256 -> (origin, licence) from the first SOURCES.md in the input's folder or above it: the table
    rows of raw/SOURCES.md (`| path | package | version | path in package | sha256 | licence |`) and
    its list of files written for the project (`- `path`: what (LICENCE); sha256 `...``)."""
    import re

    for folder in [path, *path.parents] if path.is_dir() else path.parents:
        sources = folder / "SOURCES.md"
        if not sources.is_file():
            continue
        found = {}
        for line in sources.read_text(encoding="utf-8").splitlines():
            cells = [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")]
            if len(cells) == 6 and re.fullmatch(r"[0-9a-f]{64}", cells[4]):
                found[cells[4]] = (f"{cells[1]} {cells[2]}", cells[5])
            hand = re.match(r"- `([^`]+)`: .*\(([^()]+)\); sha256 `([0-9a-f]{64})`", line)
            if hand:
                found[hand[3]] = ("written for this project", hand[2])
        return found
    return {}


def _wordnet_licence(folder: Path) -> str:
    """The licence WordNet's data files carry in their first lines (`  1 This software ...`)."""
    import re

    lines = []
    try:
        with open(folder / "data.noun", encoding="utf-8", errors="replace") as f:
            for line in f:
                numbered = re.match(r"  \d+ ?(.*)", line)
                if not numbered:
                    break
                lines.append(numbered[1].rstrip())
    except OSError:
        return ""
    return "\n".join(lines).strip()


def _licence_file(path: Path) -> str:
    for name in ("license", "LICENSE", "license.txt", "LICENSE.txt"):
        if (path.parent / name).is_file():
            return (path.parent / name).read_text(encoding="utf-8", errors="replace").strip()
    return ""


def notice(export: Path, inputs: dict[str, Path]) -> str:
    """NOTICE: for each input of the export's manifest, its files' origin and licence (from a SOURCES.md
    beside it, matched by sha256), the columns that carry it and, for definitions, how many come from it."""
    import polars as pl

    from pipeline.columns import Col

    manifest = read_manifest(export)
    # The word lists are one input of stage 1 (every file the lexicons name): each is shown under the name
    # of the lexicon it makes (an add or remove list under its file name), with its own path.
    named = {lex["file"]: lex["name"] for lex in manifest.get("lexicons", []) if "file" in lex}
    by_key: dict[str, list[str]] = {}
    lists: set[str] = set()
    for path, entry in manifest.get("inputs", {}).items():
        key = entry["key"]
        if key == LEXICON_FILES:
            key = named.get(path, Path(path).name)
            inputs = {**inputs, key: Path(path)}
            lists.add(key)
        by_key.setdefault(key, []).append(entry["sha256"])
    sources = pl.read_parquet(export / WORDS_FILE, columns=[Col.definition_source])[Col.definition_source]
    made = sources.drop_nulls().value_counts(sort=True, name="n").rows()
    out = [
        "NOTICE: what this release is made from, under which licence, and where each input's text is.",
        "",
        "Columns are those of words.parquet; ladder.sqlite, ladder-mysql.sql.gz and web.tar.gz (data/) hold "
        "the same values, so the same licences apply to them.",
    ]
    for key in sorted(by_key):
        path = inputs.get(key)
        listed = _listed_sources(path) if path else {}
        found = {listed[d] for d in by_key[key] if d in listed}
        carried = CARRIED_BY.get(key) or (
            f"`in_{key}` and its groups" if key in named.values() else "the words of the lexicons it is added to"
        )
        out += [
            "",
            f"## {key}",
            "",
            f"Carried by: {carried if key in lists else CARRIED_BY.get(key, 'no column of the export')}.",
        ]
        defined = [(s, n) for s, n in made if s.split("-")[0] == key]
        if defined:
            out.append("Definitions from it: " + ", ".join(f"{n:,} ({s})" for s, n in defined) + ".")
        if found and len(found) == 1 and all(d in listed for d in by_key[key]):
            origin, licence = found.pop()
            out.append(f"From: {origin}. Licence: {licence}.")
        elif found:
            out.append("Some of its files are listed in SOURCES.md, not all: check the licence of the others.")
        else:
            out.append(OWN_LIST if key in lists else "Not listed in a SOURCES.md: check its licence.")
        if key == "gcide" and defined:
            out.append(GPL_NOTE)
        if key == "scowl":
            out.append(SCOWL_NOTICE)
        text = (
            _wordnet_licence(path)
            if key == "wordnet" and path
            else _licence_file(path)
            if key == "cuss" and path
            else ""
        )
        if text:
            out += ["", *("    " + line if line else "" for line in text.splitlines())]
    return "\n".join(out) + "\n"


def input_paths(config, export: Path) -> dict[str, Path]:
    """The config's path of each input key the export's manifest names."""
    keys = {entry["key"] for entry in read_manifest(export).get("inputs", {}).values()} - {LEXICON_FILES}
    return {key: config.path(key) for key in sorted(keys) if key in config.values}
