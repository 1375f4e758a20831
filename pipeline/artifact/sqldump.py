"""`ladders export-sql`: the export as a MySQL/MariaDB dump that `mysql DB < FILE` loads.

Reads words.parquet and groups.parquet of an export (the contract's columns)
and writes, in utf8mb4:
- table `words`: every column of words.parquet but the two lists, `id` the
  primary key, booleans as TINYINT(1); a unique index on `word` and an index
  on each group column, so that one group with its links is one query:
  SELECT w.*, l.dst, l.kind FROM words w LEFT JOIN links l ON l.src = w.id
  WHERE w.group_csw = ?;
- table `links (src, dst, kind)`: each link in both directions, primary key
  (src, dst), kind 'sub' or 'indel';
- table `ladder_groups`: groups.parquet (`groups` is a reserved word in MySQL 8).
Rows go in as multi-row INSERTs of BATCH rows, indexes are made after the load,
and the dump ends by checking every table's row count: a short load fails with
"Subquery returns more than 1 row", so `mysql` exits non-zero.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import polars as pl

from pipeline.artifact.contract import (GROUP_COLUMNS, GROUPS_FILE, SCALAR_COLUMNS, WORDS, Col, export_file,
                                       link_pairs)

BATCH = 2_000
MYSQL_TYPES = {pl.UInt32: "INT UNSIGNED", pl.UInt8: "TINYINT UNSIGNED", pl.Boolean: "TINYINT(1)",
               pl.String: "TEXT"}
SHORT_TEXT = {Col.word: "VARCHAR(64)", Col.definition_source: "VARCHAR(32)", Col.lexicon: "VARCHAR(8)",
              Col.mode: "VARCHAR(8)", Col.example: "VARCHAR(64)"}


def _literal(column: str, dtype: pl.DataType) -> pl.Expr:
    """The column as SQL literals: NULL, numbers, and strings quoted with MySQL's backslash escapes."""
    col = pl.col(column)
    if dtype == pl.String:
        escaped = col
        for raw, written in (("\\", "\\\\"), ("'", "\\'"), ("\n", "\\n"), ("\r", "\\r"), ("\x00", "\\0"),
                             ("\x1a", "\\Z")):
            escaped = escaped.str.replace_all(raw, written, literal=True)
        value = pl.lit("'") + escaped + pl.lit("'")
    else:
        value = col.cast(pl.Int64).cast(pl.String)
    return pl.when(col.is_null()).then(pl.lit("NULL")).otherwise(value)


def _create(table: str, schema: dict[str, pl.DataType], key: str) -> str:
    columns = ",\n  ".join(f"`{c}` {SHORT_TEXT.get(c, MYSQL_TYPES[t])}" + (" NOT NULL" if c in key else "")
                           for c, t in schema.items())
    return (f"CREATE TABLE `{table}` (\n  {columns},\n  PRIMARY KEY ({key})\n)"
            " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;\n")


def _inserts(table: str, frame: pl.DataFrame) -> Iterator[str]:
    rows = frame.select(pl.concat_str([pl.lit("(")] + [
        e for i, (c, t) in enumerate(frame.schema.items()) for e in ([pl.lit(",")] if i else []) + [_literal(c, t)]
    ] + [pl.lit(")")]).alias("row"))["row"]
    for start in range(0, len(rows), BATCH):
        yield f"INSERT INTO `{table}` VALUES\n" + ",\n".join(rows.slice(start, BATCH).to_list()) + ";\n"


def mysql_dump(export: Path) -> Iterator[str]:
    """The dump, a statement (or a batch of rows) at a time."""
    words = pl.read_parquet(export_file(export))
    groups = pl.read_parquet(Path(export) / GROUPS_FILE)
    scalar = words.select(SCALAR_COLUMNS)
    links = link_pairs(words).sort(Col.src, Col.dst)
    yield ("-- ladders export-sql: a word-ladder dictionary for MySQL/MariaDB (see the README)\n"
           "SET NAMES utf8mb4;\nSET unique_checks = 0;\nSET foreign_key_checks = 0;\nSET autocommit = 0;\n"
           "DROP TABLE IF EXISTS `links`, `words`, `ladder_groups`;\n")
    yield _create("words", {c: WORDS[c] for c in SCALAR_COLUMNS}, "`id`")
    yield ("CREATE TABLE `links` (\n  `src` INT UNSIGNED NOT NULL,\n  `dst` INT UNSIGNED NOT NULL,\n"
           "  `kind` ENUM('sub','indel') NOT NULL,\n  PRIMARY KEY (`src`, `dst`)\n)"
           " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;\n")
    yield _create("ladder_groups", dict(groups.schema), "`lexicon`, `mode`, `group_id`")
    yield from _inserts("words", scalar)
    yield from _inserts("links", links)  # not a column: the links table
    yield from _inserts("ladder_groups", groups)
    yield "COMMIT;\n"
    yield "CREATE UNIQUE INDEX `words_word` ON `words` (`word`);\n"
    for column in GROUP_COLUMNS.values():
        yield f"CREATE INDEX `words_{column}` ON `words` (`{column}`);\n"
    for table, rows in (("words", scalar.height), ("links", links.height),  # not a column: the links table
                        ("ladder_groups", groups.height)):
        # Fails the load (and `mysql`'s exit code) unless the table holds exactly the rows written.
        yield (f"SELECT IF((SELECT COUNT(*) FROM `{table}`) = {rows}, 'ok', "
               f"(SELECT 'short' UNION SELECT 'load')) AS `{table}_rows`;\n")
