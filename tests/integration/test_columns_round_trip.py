"""The column table's round trip (pipeline/columns.py) through a build: the golden build's words with two columns
added, declared only in a table handed to the writers (a float, `score`, and a nullable integer, `maybe`:
tests/support/columns.py), come back unchanged from Parquet, ladder.sqlite, the MySQL dump's text and the page's
data; the group files as written are their tables. The table itself: tests/unit/pipeline/test_columns.py."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from pathlib import Path

import polars as pl
import pytest

from pipeline.columns import (
    GROUPS_TABLE,
    LONGEST_TABLE,
    WORDS_FILE,
    polars_dtype,
    scalar_columns,
    words_schema,
)
from pipeline.io import parquet_bytes
from pipeline.sqlite import sqlite_bytes

from support.columns import MAYBES, SCORES, TABLE
from support.paths import GOLDEN


def test_the_group_files_as_written_are_their_tables(export):
    """The files a build writes hold the table's columns, in order, with its dtypes, and nulls only where
    it allows them (a build's own writer, stage 6's and 7's, against the declaration)."""
    for file, table in (("groups.parquet", GROUPS_TABLE), ("longest.parquet", LONGEST_TABLE)):
        written = pl.read_parquet(export / file)
        assert written.schema == {c.name: polars_dtype(c.dtype) for c in table}
        nullable = {c.name for c in table if c.nullable}
        assert not [n for n, count in written.null_count().row(0, named=True).items() if count and n not in nullable]


@pytest.fixture(scope="module")
def export(tmp_path_factory) -> Path:
    """The golden build's export with `score` and `maybe` added to words.parquet (its first rows)."""
    from ladders.compose import runner
    from pipeline.config import load_config

    build = tmp_path_factory.mktemp("columns") / "build"
    runner(load_config(GOLDEN / "config.toml", build_dir=build)).build()
    folder = tmp_path_factory.mktemp("extra") / "export"
    shutil.copytree(build / "export", folder)
    words = pl.read_parquet(folder / WORDS_FILE)
    assert words.height >= len(SCORES)
    pad = [None] * (words.height - len(SCORES))
    words = words.with_columns(
        pl.Series("score", SCORES + pad, polars_dtype("f64")), pl.Series("maybe", MAYBES + pad, polars_dtype("u32"))
    )
    (folder / WORDS_FILE).write_bytes(parquet_bytes(words))
    return folder


def _expected(export: Path) -> list[tuple]:
    return pl.read_parquet(export / WORDS_FILE).select("word", "score", "maybe").rows()


def test_parquet_keeps_floats_and_nullable_ints(export):
    words = pl.read_parquet(export / WORDS_FILE)
    assert words.schema["score"] == pl.Float64 and words.schema["maybe"] == pl.UInt32
    assert words["score"].head(len(SCORES)).to_list() == SCORES
    assert words["maybe"].head(len(MAYBES)).to_list() == MAYBES
    assert list(words_schema(("csw", "owl", "everyday"), TABLE))[-2:] == ["score", "maybe"]


def test_sqlite_keeps_floats_and_nullable_ints(export, tmp_path):
    path = tmp_path / "ladder.sqlite"
    path.write_bytes(sqlite_bytes(pl.read_parquet(export / WORDS_FILE), TABLE))
    con = sqlite3.connect(path)
    types = {row[1]: row[2] for row in con.execute("PRAGMA table_info(words)")}
    assert (types["score"], types["maybe"]) == ("REAL", "INTEGER")
    got = con.execute("SELECT word, score, maybe, typeof(score), typeof(maybe) FROM words ORDER BY id").fetchall()
    con.close()
    assert [r[:3] for r in got] == _expected(export)
    assert {r[3] for r in got if r[1] is not None} == {"real"} and {r[4] for r in got if r[2] is not None} == {
        "integer"
    }


LITERAL = re.compile(r"'(?:[^']|'')*'|_utf8mb4 X'[0-9a-f]*'|[^,']+")  # a string, a hex string, a number


def _dump_rows(text: str, table: str) -> list[list[str]]:
    """The literals of each row the dump inserts into `table`, as written."""
    rows = []
    for block in re.findall(rf"INSERT INTO `{table}` VALUES\n(.*?\));\n", text, re.S):
        for row in re.findall(r"^\((.*)\),?$", block, re.M):
            rows.append(LITERAL.findall(row))
    return rows


def test_mysql_dump_keeps_floats_and_nullable_ints(export):
    from ladders.artifact.sqldump import mysql_dump

    text = "".join(mysql_dump(export, TABLE))
    assert "`score` DOUBLE" in text and "`maybe` INT UNSIGNED" in text
    names = scalar_columns(("csw", "owl", "everyday"), TABLE)
    rows = [dict(zip(names, row)) for row in _dump_rows(text, "words")]
    back = [
        (
            row["word"].strip("'"),
            None if row["score"] == "NULL" else float(row["score"]),
            None if row["maybe"] == "NULL" else int(row["maybe"]),
        )
        for row in rows
    ]
    assert back == _expected(export)


def test_mysql_dump_refuses_to_change_a_nonfinite_float(export, tmp_path):
    from ladders.artifact.sqldump import mysql_dump

    folder = tmp_path / "export"
    shutil.copytree(export, folder)
    words = pl.read_parquet(folder / WORDS_FILE)
    words = words.with_columns(pl.when(pl.col("id") == 0).then(float("nan")).otherwise(pl.col("score")).alias("score"))
    (folder / WORDS_FILE).write_bytes(parquet_bytes(words))
    first = _dump_rows("".join(mysql_dump(folder, TABLE)), "words")[0]
    assert first[scalar_columns(("csw", "owl", "everyday"), TABLE).index("score")] == "'not finite'"


def test_web_data_keeps_floats_and_nullable_ints(export):
    from ladders.artifact.webexport import web_files

    files = web_files(export, TABLE)
    got = {}
    for name in json.loads(files["data/manifest.json"])["buckets"]:
        bucket = json.loads(files[name])
        ids, at = [], 0
        for d in bucket["ids"]:
            at += d
            ids.append(at)
        got.update(zip(ids, zip(bucket["words"], bucket["score"], bucket["maybe"])))
    assert [got[i] for i in sorted(got)] == _expected(export)
