"""One full build of raw/ into a temporary folder, through the CLI, checked against facts of the real lists."""
from __future__ import annotations

import json
import subprocess
import sys

import polars as pl
import pytest

from conftest import ROOT


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    build_dir = tmp_path_factory.mktemp("raw_build")
    cmd = [sys.executable, "-m", "pipeline", "build", "--quiet", "--build-dir", str(build_dir)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    status = subprocess.run([sys.executable, "-m", "pipeline", "status", "--build-dir", str(build_dir)],
                            cwd=ROOT, capture_output=True, text=True)
    assert status.returncode == 0 and status.stdout.count(" fresh") == 6, status.stdout
    return build_dir / "export"


@pytest.fixture(scope="module")
def words(export):
    return pl.read_parquet(export / "words.parquet")


def test_word_counts(words):
    assert words["in_csw"].sum() == 267_751
    assert words["in_owl"].sum() == 178_691
    assert words.filter(pl.col("in_owl") & ~pl.col("in_csw")).height == 0
    assert words["id"].to_list() == list(range(words.height))
    assert words["word"].is_sorted()


def test_solver_links(words):
    solver = words.filter(pl.col("word") == "SOLVER")
    neighbours = words[solver["links"][0].to_list()]["word"].to_list()
    assert neighbours == ["SALVER", "SILVER", "SOEVER", "SOLDER", "SOLLER", "SOLVED", "SOLVES", "WOLVER"]


def test_published_rareness(words):
    got = dict(words.filter(pl.col("word").is_in(["SILVER", "SOLVED", "SOLVES", "SOLDER", "SALVER", "SOEVER",
                                                   "WOLVER", "SOLLER"])).select("word", "rareness").rows())
    assert got == {"SILVER": 1, "SOLVED": 1, "SOLVES": 1, "SOLDER": 4, "SALVER": 200, "SOEVER": 20_000,
                   "WOLVER": 200_000, "SOLLER": 2_000_001}


def test_links_symmetric_and_groups_numbered_by_first_word(words):
    pairs = words.select("id", "links").explode("links").drop_nulls()
    reverse = pairs.select(pl.col("links").alias("id"), pl.col("id").alias("links"))
    assert pairs.sort("id", "links").equals(reverse.sort("id", "links"))
    for column in ("group_csw", "group_owl", "group_csw_edit", "group_owl_edit"):
        first_seen = words[column].drop_nulls().unique(maintain_order=True)
        assert first_seen.to_list() == list(range(len(first_seen))), column


def test_manifest_matches_files(export, words):
    import hashlib

    manifest = json.loads((export / "manifest.json").read_text())
    assert manifest["schema_version"] == 1
    for name, entry in manifest["files"].items():
        assert hashlib.sha256((export / name).read_bytes()).hexdigest() == entry["sha256"]
    assert manifest["counts"]["words"] == words.height
    assert manifest["inputs"]["raw/lexicons/sowpods.txt"]["size"] == (ROOT / "raw/lexicons/sowpods.txt").stat().st_size
    groups = pl.read_parquet(export / "groups.parquet")
    assert groups.filter((pl.col("lexicon") == "csw") & (pl.col("mode") == "sub"))["size"].sum() == words.height
