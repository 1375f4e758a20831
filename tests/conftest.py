"""Shared helpers of both tiers (tests/unit/, tests/integration/): the tiny fixture dictionary copied into a
temporary folder, and its config; the one build of raw/ a test session shares (raw_build). The paths of the
repository and of tests/data: tests/support/paths.py; the oracles, the MariaDB server and the browser:
tests/support/."""

from __future__ import annotations

import os
import shutil
import gzip
import subprocess
import sys
from pathlib import Path

import polars as pl
import msgpack
import pytest
from typer.testing import CliRunner

from ladders.cli import app
from pipeline import progress
from pipeline.config import load_config
from ladders.compose import runner, stages as all_stages
from stages.s01_lexicon import build_lexicon
from support.paths import DATA, ROOT

# The MariaDB server and the databases the files of SQL tests share (session-wide: pytest finds a
# conftest's fixtures once, where a test module's own imports would give each module its own server).
from support.mariadb import (  # noqa: F401, E402
    hostile_db,
    hostile_export,
    raw50_db,
    raw50_export,
    raw_db,
    server,
    tiny_db,
    tiny_dump,
)

# The browser and the pages the files of tests of the static page share (tests/support/chromium.py), alike.
from support.chromium import browser, site, tiny_site  # noqa: F401, E402

# No plain progress lines in the tests (their stderr, not a terminal, is compared whole: a line every few
# seconds would come or not with the machine's speed); tests/unit/pipeline/test_progress.py turns them on
# with a fake clock (fake_clock, below).
os.environ["LADDERS_PROGRESS_SECONDS"] = "0"


def snapshot(folder: Path) -> dict[str, str]:
    """sha256 of every file below a folder, by relative path: to prove a folder unchanged."""
    import hashlib

    return {
        p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


# The lexicons of most unit tests: two list files, no derived lexicon (everyday needs SCOWL).
TWO_LISTS = {"csw": {"file": "csw.txt", "format": "plain"}, "owl": {"file": "owl.txt", "format": "plain"}}


def two_lists(
    csw: dict[str, bytes], owl: dict[str, bytes], csw_format: str = "plain", owl_format: str = "plain", lenient=False
) -> dict:
    """Stage 1 on two in-memory files ({name: bytes} each) as the lexicons csw and owl."""
    ((c, c_data),), ((o, o_data),) = csw.items(), owl.items()
    lexicons = {"csw": {"file": c, "format": csw_format}, "owl": {"file": o, "format": owl_format}}
    return build_lexicon({c: c_data, o: o_data}, lexicons, lenient)


def lexicon_of(csw: list[str], owl: list[str]) -> pl.DataFrame:
    """Stage 1's table for two in-memory plain lists."""
    return two_lists({"csw.txt": "\n".join(csw).encode()}, {"owl.txt": "\n".join(owl).encode()})["lexicon"]


def no_rareness(lexicon: pl.DataFrame) -> pl.DataFrame:
    """Stage 3's table as far as stage 5 reads it, for words SCOWL lacks."""
    return lexicon.select("id", pl.lit(None, pl.UInt8).alias("main_level"))


def groups_of(lexicon: pl.DataFrame, links: pl.DataFrame, lexicons: dict | None = None, rareness=None) -> pl.DataFrame:
    """Stage 5's table (membership and groups) for stage 1's and 4's."""
    from stages.s05_groups import build_groups

    rareness = no_rareness(lexicon) if rareness is None else rareness
    return build_groups(lexicon, rareness, links, lexicons or TWO_LISTS)["groups"]


# Every raw-input config key and its file or folder in tests/data/tiny.
TINY_INPUTS = {
    "csw": "csw.txt",
    "owl": "owl.txt",
    "scowl": "scowl",
    "wordnet": "wordnet",
    "supplement": "supplement.txt",
    "gcide": "gcide",
    "offensive": "offensive.txt",
    "cuss": "cuss.js",
    "main_senses": "main_senses.tsv",
}


def tiny_config(folder: Path | None = None, **replace: str) -> str:
    """Config lines naming the tiny inputs: relative names, or paths in `folder`; `replace` names others."""
    import json

    paths = {key: str(folder / name) if folder else name for key, name in TINY_INPUTS.items()} | replace
    return "".join(f"{key} = {json.dumps(path)}\n" for key, path in paths.items())


def copy_tiny(parent: Path) -> Path:
    """A writable copy of tests/data/tiny in `parent`, with a config.toml building into ./build."""
    root = parent / "tiny"
    shutil.copytree(DATA / "tiny", root)
    (root / "config.toml").write_text(tiny_config() + 'build_dir = "build"\n')
    return root


def no_everyday(tiny: Path) -> None:
    """Drop the default lexicon everyday from a tiny copy's config: lists that SCOWL knows no word of would
    leave it empty, an error."""
    with (tiny / "config.toml").open("a") as f:
        f.write("[lexicons]\neveryday = false\n")


# wordfreq's rule off, for the tests of SCOWL's own rules: an empty frequency list and a threshold of 0.
NO_WORDFREQ = {"empty.msgpack.gz": gzip.compress(msgpack.packb([{"format": "cB", "version": 1}]))}


@pytest.fixture
def tiny(tmp_path: Path) -> Path:
    """A writable copy of tests/data/tiny with a config.toml building into ./build."""
    return copy_tiny(tmp_path)


@pytest.fixture
def tiny_runner(tiny: Path):
    def make():
        return runner(load_config(tiny / "config.toml"))

    return make


# The CLI, in process and as a child process, for the tests of the build folder, config files, damaged
# state and verify.
cli = CliRunner()


def invoke(*args: str):
    return cli.invoke(app, list(args))


def build(tiny: Path, *extra: str):
    return invoke("build", "--quiet", "--config", str(tiny / "config.toml"), *extra)


def child(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "pipeline", *args],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


@pytest.fixture(scope="session")
def raw_build(tmp_path_factory) -> Path:
    """One build of raw/ for the whole session (its build folder), shared by every test file that reads it.
    Under pytest-xdist each worker runs this once into the same folder: ladders' build mutex makes a second
    worker wait, and it then finds every stage fresh, so raw/ is built once all the same."""
    root = tmp_path_factory.getbasetemp()
    shared = root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root  # xdist: the workers' common folder
    folder = shared / "raw_build"
    cmd = [sys.executable, "-m", "pipeline", "build", "--quiet", "-j", "2", "--build-dir", str(folder)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return folder


@pytest.fixture(scope="session")
def raw_export(raw_build) -> Path:
    """The export folder of the session's build of raw/, every stage of it fresh."""
    status = subprocess.run(
        [sys.executable, "-m", "pipeline", "status", "--build-dir", str(raw_build)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert status.returncode == 0 and status.stdout.count(" fresh") == len(all_stages()), status.stdout
    return raw_build / "export"


@pytest.fixture(scope="session")
def raw_words(raw_export) -> pl.DataFrame:
    """words.parquet of the session's build of raw/."""
    return pl.read_parquet(raw_export / "words.parquet")


@pytest.fixture(scope="session")
def tiny_export(tmp_path_factory) -> Path:
    """The export of tests/data/tiny, built once a session through the CLI; tests copy it before they damage it."""
    root = copy_tiny(tmp_path_factory.mktemp("tiny"))
    assert build(root).exit_code == 0
    return root / "build/export"


# A clock the progress tests move by hand (no sleeps), with a plain line every 5 s.
@pytest.fixture
def fake_clock(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(progress, "clock", lambda: now[0])
    monkeypatch.setenv(progress.EVERY_ENV, "5")
    yield now
    progress.configure(True)
