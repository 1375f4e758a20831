"""The golden build: a dozen defined words (tests/golden/input) built whole, every export file compared
with its approved copy in tests/golden/approved/.

The copies are text, so that a review reads them and a change shows as a diff:
each Parquet table as one JSON object per row, ladder.sqlite as its SQL dump,
manifest.json without the sha256 of the export's own files (Parquet bytes vary
with the writer's version; the content is compared instead), summary.txt as it
is. After a reviewed change, `make approve` rewrites the copies
(LADDERS_APPROVE=1); the test then shows what changed in `git diff`.
"""

from __future__ import annotations

import difflib
import json
import os
import sqlite3
from pathlib import Path

import polars as pl
import pytest

from pipeline.columns import FILES, GROUPS_FILE, LONGEST_FILE, MANIFEST_FILE, SQLITE_FILE, SUMMARY_FILE, WORDS_FILE
from pipeline.config import load_config
from ladders.compose import runner
from support.paths import GOLDEN

APPROVED = GOLDEN / "approved"


def as_text(export: Path) -> dict[str, str]:
    """Each export file as reviewable text."""

    def rows(name: str) -> str:
        return "".join(
            json.dumps(row, ensure_ascii=False) + "\n" for row in pl.read_parquet(export / name).iter_rows(named=True)
        )

    manifest = json.loads((export / MANIFEST_FILE).read_text())
    for entry in manifest["files"].values():
        entry.pop("sha256")
    con = sqlite3.connect(export / SQLITE_FILE)
    dump = "".join(line + "\n" for line in con.iterdump())
    dump += f"-- PRAGMA user_version = {con.execute('PRAGMA user_version').fetchone()[0]}\n"
    con.close()
    assert sorted(p.name for p in export.iterdir()) == sorted(FILES)  # a new export file needs a copy here
    return {
        f"{WORDS_FILE}.jsonl": rows(WORDS_FILE),
        f"{GROUPS_FILE}.jsonl": rows(GROUPS_FILE),
        f"{LONGEST_FILE}.jsonl": rows(LONGEST_FILE),
        f"{SQLITE_FILE}.sql": dump,
        MANIFEST_FILE: json.dumps(manifest, indent=1, sort_keys=True) + "\n",
        SUMMARY_FILE: (export / SUMMARY_FILE).read_text(),
    }


@pytest.fixture(scope="module")
def golden(tmp_path_factory) -> dict[str, str]:
    build = tmp_path_factory.mktemp("golden") / "build"
    runner(load_config(GOLDEN / "config.toml", build_dir=build)).build()
    return as_text(build / "export")


def test_golden_build_matches_the_approved_copies(golden):
    if os.environ.get("LADDERS_APPROVE"):
        APPROVED.mkdir(exist_ok=True)
        for stale in APPROVED.iterdir():
            stale.unlink()
        for name, text in golden.items():
            (APPROVED / name).write_text(text)
        pytest.skip(f"approved copies rewritten in {APPROVED}; review them with git diff")
    assert sorted(p.name for p in APPROVED.iterdir()) == sorted(golden), "make approve after a reviewed change"
    for name, text in golden.items():
        approved = (APPROVED / name).read_text()
        if text != approved:
            diff = "".join(
                difflib.unified_diff(
                    approved.splitlines(True), text.splitlines(True), f"approved/{name}", f"built/{name}", n=1
                )
            )
            pytest.fail(f"{name} differs from its approved copy (make approve, after review):\n{diff[:4000]}")


def test_golden_facts_hold_on_their_own(golden):
    """Facts of the golden lists that do not depend on the approved copies: CARD and COT are CSW only."""
    words = {row["word"]: row for row in map(json.loads, golden[f"{WORDS_FILE}.jsonl"].splitlines())}
    assert not words["CARD"]["in_owl"] and not words["COT"]["in_owl"] and words["CARD"]["in_csw"]
    assert words["COLD"]["group_csw"] == words["WARM"]["group_csw"]  # COLD CORD CARD WARD WARM
    assert words["COLD"]["group_owl"] != words["WARM"]["group_owl"]  # OWL lacks CARD
    assert words["DOTTY"]["definition"] is not None  # the run-on form is a word with its sense
