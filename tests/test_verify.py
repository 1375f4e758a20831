"""`ladders verify` checks the data, not the manifest's word for it: a tamperer who rehashes the
manifest is still caught."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl

from conftest import build


def _rehash(export: Path) -> None:
    """Make manifest.json agree with the files as they now are: a tamperer's cover-up."""
    import hashlib

    manifest = json.loads((export / "manifest.json").read_text())
    for name, entry in manifest["files"].items():
        if (export / name).is_file():
            entry["sha256"] = hashlib.sha256((export / name).read_bytes()).hexdigest()
    (export / "manifest.json").write_text(json.dumps(manifest))


def _codes(export: Path) -> set[str]:
    from ladders.artifact.verify import verify

    return {code for code, _, _ in verify(export)}


def test_verify_finds_a_link_removed_everywhere_with_the_manifest_rehashed(tiny, tmp_path):
    from pipeline.sqlite import sqlite_bytes

    assert build(tiny).exit_code == 0
    export = tmp_path / "export"
    shutil.copytree(tiny / "build/export", export)
    words = pl.read_parquet(export / "words.parquet")
    cat, cot = (words.filter(pl.col("word") == w)["id"].item() for w in ("CAT", "COT"))
    words = words.with_columns(
        pl.col("links")
        .list.set_difference(
            pl.when(pl.col("id") == cat)
            .then(pl.lit([cot], pl.List(pl.UInt32)))
            .when(pl.col("id") == cot)
            .then(pl.lit([cat], pl.List(pl.UInt32)))
            .otherwise(pl.lit([], pl.List(pl.UInt32)))
        )
        .list.sort()
    )
    words.write_parquet(export / "words.parquet")
    (export / "ladder.sqlite").write_bytes(sqlite_bytes(words))  # the damaged lists, as a tamperer would
    _rehash(export)
    assert "E108" in _codes(export)


def test_verify_finds_a_dropped_index_and_a_manifest_entry_deleted(tiny, tmp_path):
    import sqlite3

    assert build(tiny).exit_code == 0
    export = tmp_path / "export"
    shutil.copytree(tiny / "build/export", export)
    con = sqlite3.connect(export / "ladder.sqlite")
    con.execute("DROP INDEX words_group_csw")
    con.commit()
    con.close()
    _rehash(export)
    assert _codes(export) == {"E401"}
    manifest = json.loads((export / "manifest.json").read_text())
    del manifest["files"]["groups.parquet"]
    (export / "manifest.json").write_text(json.dumps(manifest))
    assert "E004" in _codes(export)


def test_the_docs_list_every_code_as_verify_defines_it():
    from conftest import ROOT

    from ladders.artifact.verify import code_table

    assert code_table() in (ROOT / "docs" / "architecture.md").read_text(), (
        "docs/architecture.md's table of verify codes differs from CHECKS: paste "
        "`python -c 'from ladders.artifact.verify import code_table; print(code_table())'`"
    )
