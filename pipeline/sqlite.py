"""ladder.sqlite, written from a words table: the one SQLite writer (stage 7 calls it; tests through
sqlite_bytes). Reads a words.parquet frame; writes one table `words` whose columns and types are those of the
column table (pipeline/columns.py WORDS: booleans 0/1 INTEGER, integers INTEGER, floats REAL, text TEXT,
neighbour lists JSON array text), its indexes, PRAGMA user_version."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.columns import SCHEMA_VERSION, SQLITE_FILE, WORDS, Col, lexicons_of, sqlite_indexes, words_columns
from pipeline.errors import EnvironmentProblem

if TYPE_CHECKING:
    import polars as pl


def sqlite_words(words: pl.DataFrame, table=WORDS) -> pl.DataFrame:
    """The rows of ladder.sqlite's table words: the columns of `table` with booleans as 0/1 and each list as
    JSON array text (`[12,4077]`, `[]` for none), which SQLite's json_each() unnests when a query wants
    one row per link. A solver loads a group, links and all, with one indexed query:
    `SELECT * FROM words WHERE group_csw = ?`."""
    import polars as pl

    columns = words_columns(lexicons_of(words.columns), table)
    return words.select([name for name, _ in columns]).with_columns(
        *[pl.col(name).cast(pl.Int64) for name, column in columns if column.dtype == "bool"],
        *[
            pl.format("[{}]", pl.col(name).cast(pl.List(pl.String)).list.join(",")).alias(name)
            for name, column in columns
            if column.dtype.startswith("list")
        ],
    )


def sqlite_file(words: pl.DataFrame, path: Path, table=WORDS) -> None:
    """Write ladder.sqlite to `path` (a new file), from words (WORDS); the same frame gives the same
    bytes. The rows go in as Arrow batches through ADBC's bulk ingest (C++, not a Python call per row),
    with no journal and no syncs: the file is a scratch file until its writer moves it into place.
    (Lists in the rows rather than a links table of both directions: 1.0 s instead of 2.3 s for raw/,
    55 MB instead of 63 MB, and one query per group instead of a join.)"""
    import adbc_driver_sqlite.dbapi as adbc

    try:
        _fill_sqlite(adbc, path, words, table)
    except adbc.Error as err:
        # ADBC's SQLite driver reports most failures as INTERNAL: a full disk or a size limit shows in
        # the text ("database or disk is full", "disk I/O error") or, as often, only in a failed
        # rollback; a constraint failure is our own bug and goes on as itself.
        text = " ".join(str(err).split())
        if not re.search(r"disk|full|I/O|rollback", text):
            raise
        from pipeline.limits import write_failure_hint

        # The driver's text is shown when it says something of the write; a failed rollback alone ("cannot
        # rollback - no transaction is active") is noise beside the hint, which says what can be measured.
        said = text[:120] if re.search(r"disk|full|I/O", text) else "the SQLite driver could not finish it"
        raise EnvironmentProblem(
            f"cannot write {path.name} in {path.parent}: {said}; {write_failure_hint(path.parent)}"
        ) from None


def sqlite_bytes(words: pl.DataFrame, table=WORDS) -> bytes:
    """ladder.sqlite as bytes (sqlite_file through a temporary folder), for tests and tools."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="ladders-sqlite-") as scratch:
        sqlite_file(words, Path(scratch) / SQLITE_FILE, table)
        return (Path(scratch) / SQLITE_FILE).read_bytes()


SQLITE_BATCH = 32_768  # rows converted and ingested at a time: the whole table at once held 55 MiB more


def _fill_sqlite(adbc, path: Path, words: pl.DataFrame, table) -> None:
    import pyarrow as pa

    empty = sqlite_words(words.head(0), table)
    failed: list[BaseException] = []

    def batches():
        try:
            for start in range(0, words.height, SQLITE_BATCH):
                yield from sqlite_words(words.slice(start, SQLITE_BATCH), table).to_arrow().to_batches()
        except BaseException as err:  # ADBC would pass it on as an error of its own: keep the real one
            failed.append(err)
            raise

    with adbc.connect(str(path), autocommit=True) as con, con.cursor() as cur:
        for pragma in (f"user_version = {SCHEMA_VERSION}", "journal_mode = OFF", "synchronous = OFF"):
            cur.execute(f"PRAGMA {pragma}")
        cur.execute(
            "CREATE TABLE words ("
            + ", ".join(
                f"{name} {column.sqlite}" + (" PRIMARY KEY" if name == Col.id else "")
                for name, column in words_columns(lexicons_of(words.columns), table)
            )
            + ")"
        )
        try:
            cur.adbc_ingest(
                "words", pa.RecordBatchReader.from_batches(empty.to_arrow().schema, batches()), mode="append"
            )
        except adbc.Error:
            if failed:
                raise failed[0] from None
            raise
        for ddl in sqlite_indexes(lexicons_of(words.columns)).values():
            cur.execute(ddl)
