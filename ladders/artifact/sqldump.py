"""`ladders export-sql`: the export as a MySQL/MariaDB dump that `mysql DB < FILE` loads.

Reads words.parquet and groups.parquet of an export (the contract's columns)
and writes, in utf8mb4:
- table `words`: every column of words.parquet but the two lists, `id` the
  primary key, each with the MySQL type of the column table (pipeline/columns.py: booleans as TINYINT(1),
  floats as DOUBLE written in their shortest exact text, free text as MEDIUMTEXT: 16 MiB a value;
  TEXT's 64 KiB is a length a hostile list can pass); a unique index on `word`
  and an index on each group column, so that one group with its links is one query:
  SELECT w.*, l.dst, l.kind FROM words w LEFT JOIN links l ON l.src = w.id
  WHERE w.group_csw = ?;
- table `links (src, dst, kind)`: each link in both directions, primary key
  (src, dst), kind 'sub' or 'indel';
- table `ladder_groups`: groups.parquet (`groups` is a reserved word in MySQL 8);
- table `ladders_settings (name, value)`: every setting a solver needs beside the rows, read from the
  export's manifest: the rareness labels' SCOWL level cut-offs (`label_common`, `label_uncommon`,
  `label_rare`; above all three, obscure) and the common-word rule's cost of a word by its label
  (`cost_common` 1, `cost_uncommon` 5; any other word costs its rareness). The PHP solver reads it: no
  solver spells 35.
- table `ladders_alphabet (ch, letters)`: the typed-word rule, the export's alphabet (manifest["alphabet"]'s
  table; English's for an export written before it carried one: contract.export_alphabet): every character a
  typed word may hold -> the letters it is written as; table `ladders_language (name, value)` its `language`
  (code), `name` and `letters`, for the PHP solver's refusals. No solver spells A-Z.

The dump means the same in every sql_mode. It sets the session's sql_mode
first (strict, as mysqldump does, and puts the session's previous one back at the end), and
it never relies on that: a string is written '...' with only the standard ''
for a quote when it holds no backslash, no control and no invisible formatting
character, which every mode reads alike, and otherwise as a hex literal
(_utf8mb4 X'...'), which no mode reads as anything but bytes (and no terminal
acts on, when the dump is printed).
Rows go in as multi-row INSERTs of at most BATCH rows and BATCH_BYTES (one
statement is one packet: a server's max_allowed_packet is 16 MiB by default),
indexes are made after the load, and the dump ends by checking every table: its
row count, and for each text column the sum of CRC32 and of OCTET_LENGTH (bytes,
in every sql_mode; LENGTH counts characters under ORACLE) over its values and how many are not
NULL. A short or truncated load fails with "Subquery returns more than 1 row",
so `mysql` exits non-zero. Then, only when every check holds, it writes the one row of table
`ladders_complete` (dropped first): a dump cut between two statements loads without an error
(mysql has nothing left to fail on), and a solver that finds no row knows the load is not whole.
Every session setting it changes (sql_mode, autocommit, unique_checks, foreign_key_checks, the
character sets of SET NAMES) is saved first and put back at the end.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from pathlib import Path

import polars as pl

from pipeline import io
from pipeline.columns import (
    GROUPS_FILE,
    GROUPS_TABLE,
    WORDS,
    Col,
    group_columns,
    LADDER_COSTS,
    lexicons_of,
    scalar_columns,
    words_columns,
)
from pipeline.terminal import UNSEEN
from ladders.artifact.contract import export_alphabet, export_file, label_cutoffs, link_pairs

BATCH = 2_000
BATCH_BYTES = 1 << 20


# Written between plain quotes: no backslash (a quote in NO_BACKSLASH_ESCAPES, an escape elsewhere), no
# control or invisible formatting character (the mysql client and terminals act on some, and a dump may be
# read on a terminal: `export-sql --out -`). Everything else goes as hex.
PLAIN_TEXT = r"^[^\\" + UNSEEN.removeprefix("[") + "*$"  # terminal.UNSEEN's categories, and the backslash
SESSION_MODE = "STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION"  # strict: a value that does not fit fails the load
# The session settings the dump changes (SET NAMES sets the three character_set/collation ones), each saved
# into @ladders_old_NAME first and put back last.
SESSION_SETTINGS = (
    "sql_mode",
    "unique_checks",
    "foreign_key_checks",
    "autocommit",
    "character_set_client",
    "character_set_results",
    "collation_connection",
)
COMPLETE_TABLE = "ladders_complete"  # one row, written last when every check holds: the load is whole
SETTINGS_TABLE = "ladders_settings"  # name -> value: the settings the solvers read beside the rows
ALPHABET_TABLE = "ladders_alphabet"  # ch -> letters: every character a typed word may hold, as written
LANGUAGE_TABLE = "ladders_language"  # name -> value: the alphabet's language (code), name and letters


def settings(export: Path) -> pl.DataFrame:
    """The rows of table ladders_settings: each label's highest SCOWL level as the export was built, and the
    common-word rule's cost of a word by its label (`cost_common`, `cost_uncommon`: pipeline/columns.py's
    LADDER_COSTS; a word of another label costs its rareness)."""
    rows = {f"label_{name}": level for name, level in label_cutoffs(export).items()}
    rows |= {f"cost_{label}": cost for label, cost in LADDER_COSTS.items()}
    return pl.DataFrame(
        {"name": list(rows), "value": list(rows.values())}, schema={"name": pl.String, "value": pl.Int64}
    )


def alphabet_tables(export: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The rows of ladders_alphabet (the export's alphabet table: `ch` -> `letters`) and of ladders_language
    (`language`, `name`, `letters`)."""
    letters = export_alphabet(export)
    table = pl.DataFrame(
        {"ch": list(letters.table), "letters": list(letters.table.values())},
        schema={"ch": pl.String, "letters": pl.String},
    )
    about = {"language": letters.code, "name": letters.name, "letters": letters.letters}
    return table, pl.DataFrame(
        {"name": list(about), "value": list(about.values())}, schema={"name": pl.String, "value": pl.String}
    )


def _literal(column: str, dtype: pl.DataType) -> pl.Expr:
    """The column as SQL literals that mean the same in every sql_mode: NULL, numbers, strings."""
    col = pl.col(column)
    if dtype == pl.String:
        quoted = pl.lit("'") + col.str.replace_all("'", "''", literal=True) + pl.lit("'")
        hexed = pl.lit("_utf8mb4 X'") + col.str.encode("hex") + pl.lit("'")
        value = pl.when(col.str.contains(PLAIN_TEXT)).then(quoted).otherwise(hexed)
    elif dtype == pl.Boolean:
        value = col.cast(pl.Int8).cast(pl.String)
    elif dtype.is_float():
        # polars writes a float in the shortest text that reads back as the same double (1.5, 0.1, 1e-300);
        # MySQL has no NaN or infinity: a non-finite value is written as text, which the strict session
        # refuses, so the load fails rather than store another number.
        value = pl.when(col.is_finite()).then(col.cast(pl.String)).otherwise(pl.lit("'not finite'"))
    else:
        value = col.cast(pl.String)
    return pl.when(col.is_null()).then(pl.lit("NULL")).otherwise(value)


def _tests(table: str, frame: pl.DataFrame) -> list[str]:
    """Conditions true only when `table` holds exactly the rows and text written: its row count, and per
    text column the sum of CRC32 and of OCTET_LENGTH (bytes) and the count of values."""
    tests = [f"(SELECT COUNT(*) FROM `{table}`) = {frame.height}"]
    for column, dtype in frame.schema.items():
        if dtype == pl.String:
            values = [v.encode() for v in frame[column].drop_nulls()]
            tests.append(
                f"(SELECT CONCAT_WS(',', COUNT(`{column}`), COALESCE(SUM(OCTET_LENGTH(`{column}`)), 0), "
                f"COALESCE(SUM(CRC32(`{column}`)), 0)) FROM `{table}`) = "
                f"'{len(values)},{sum(map(len, values))},{sum(map(zlib.crc32, values))}'"
            )
    return tests


def _check(table: str, tests: list[str]) -> str:
    """A statement that fails the load (so `mysql` exits non-zero) unless every test holds."""
    return f"SELECT IF({' AND '.join(tests)}, 'ok', (SELECT 'short' UNION SELECT 'load')) AS `{table}_rows`;\n"


def _create(table: str, types: dict[str, str], key: str) -> str:
    columns = ",\n  ".join(f"`{c}` {t}" + (" NOT NULL" if c in key else "") for c, t in types.items())
    return (
        f"CREATE TABLE `{table}` (\n  {columns},\n  PRIMARY KEY ({key})\n)"
        " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;\n"
    )


def _inserts(table: str, frame: pl.DataFrame) -> Iterator[str]:
    rows = frame.select(
        pl.concat_str(
            [pl.lit("(")]
            + [
                e
                for i, (c, t) in enumerate(frame.schema.items())
                for e in ([pl.lit(",")] if i else []) + [_literal(c, t)]
            ]
            + [pl.lit(")")]
        ).alias("row")
    )["row"]
    # At most BATCH rows and BATCH_BYTES a statement: a statement is one packet to the server, and MariaDB's
    # default max_allowed_packet is 16 MiB (2,000 definitions of 8.4 KB broke the load).
    batch, size = [], 0
    for row in rows:
        if batch and (len(batch) == BATCH or size + len(row) > BATCH_BYTES):
            yield f"INSERT INTO `{table}` VALUES\n" + ",\n".join(batch) + ";\n"
            batch, size = [], 0
        batch.append(row)
        size += len(row) + 2
    if batch:
        yield f"INSERT INTO `{table}` VALUES\n" + ",\n".join(batch) + ";\n"


HEADER = "-- ladders export-sql: a word-ladder dictionary for MySQL/MariaDB (see the README)\n"


def check_target(target: Path) -> None:
    """A dump replaces only a file that is a dump (its first line is HEADER), or writes a new file: an
    existing file of any other kind (pyproject.toml, a word list, notes) is the user's and is refused, a
    link's target included. A device or FIFO (`--out /dev/null`) is written into, never replaced."""
    from pipeline.errors import UsageError

    if target.is_symlink() or target.is_file():
        real = target.resolve()
        if real.is_file():
            with open(real, "rb") as f:
                head = f.read(len(HEADER.encode()))
            if head != HEADER.encode():
                raise UsageError(
                    f"--out {target} exists and is not a dump ladders wrote; name a new file, or remove it first"
                )


def mysql_dump(export: Path, table=WORDS) -> Iterator[str]:
    """The dump, a statement (or a batch of rows) at a time; words' columns are those of `table`."""
    words = io.read_export_table(export_file(export))
    groups = io.read_export_table(Path(export) / GROUPS_FILE)
    lexicons = lexicons_of(words.columns)  # every lexicon the export holds: in_<name>, group_<name>...
    scalar = words.select(scalar_columns(lexicons, table))
    links = link_pairs(words).sort(Col.src, Col.dst)
    setting = settings(export)
    alphabet, language = alphabet_tables(export)
    yield HEADER + (
        # Every session setting changed here is saved first and put back at the end: a session that
        # sources the dump keeps its own (autocommit=0 left behind rolled its later writes back).
        f"SET {', '.join(f'@ladders_old_{v} = @@SESSION.{v}' for v in SESSION_SETTINGS)};\n"
        "SET NAMES utf8mb4;\n"
        f"SET SESSION sql_mode = '{SESSION_MODE}', unique_checks = 0, foreign_key_checks = 0, autocommit = 0;\n"
        f"DROP TABLE IF EXISTS `{COMPLETE_TABLE}`, `{SETTINGS_TABLE}`, `{ALPHABET_TABLE}`, `{LANGUAGE_TABLE}`, "
        "`links`, `words`, `ladder_groups`;\n"
    )
    yield _create("words", {name: c.mysql for name, c in words_columns(lexicons, table) if c.mysql}, "`id`")
    yield (
        "CREATE TABLE `links` (\n  `src` INT UNSIGNED NOT NULL,\n  `dst` INT UNSIGNED NOT NULL,\n"
        "  `kind` ENUM('sub','indel') NOT NULL,\n  PRIMARY KEY (`src`, `dst`)\n)"
        " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;\n"
    )
    yield _create("ladder_groups", {c.name: c.mysql for c in GROUPS_TABLE}, "`lexicon`, `mode`, `group_id`")
    yield _create(SETTINGS_TABLE, {"name": "VARCHAR(64)", "value": "BIGINT NOT NULL"}, "`name`")
    # utf8mb4_bin: ñ and Ñ, a and á are distinct keys (a case- or accent-blind collation would merge them).
    yield _create(ALPHABET_TABLE, {"ch": "VARCHAR(1)", "letters": "VARCHAR(255) NOT NULL"}, "`ch`")
    yield _create(LANGUAGE_TABLE, {"name": "VARCHAR(64)", "value": "MEDIUMTEXT NOT NULL"}, "`name`")
    yield from _inserts("words", scalar)
    yield from _inserts("links", links)  # not a column: the links table
    yield from _inserts("ladder_groups", groups)
    yield from _inserts(SETTINGS_TABLE, setting)
    yield from _inserts(ALPHABET_TABLE, alphabet)
    yield from _inserts(LANGUAGE_TABLE, language)
    yield "COMMIT;\n"
    yield "CREATE UNIQUE INDEX `words_word` ON `words` (`word`);\n"
    for column in group_columns(lexicons).values():
        yield f"CREATE INDEX `words_{column}` ON `words` (`{column}`);\n"
    tables = (("words", scalar), ("links", links))  # not a column: the tables
    tables += (("ladder_groups", groups), (SETTINGS_TABLE, setting))
    tables += ((ALPHABET_TABLE, alphabet), (LANGUAGE_TABLE, language))
    tests = {table: _tests(table, frame) for table, frame in tables}
    for table, table_tests in tests.items():
        yield _check(table, table_tests)
    # Last, the mark of a complete load, made only when every check holds (also under `mysql --force`): a
    # dump cut between two statements loads without an error, and solvers find no mark (PHP: exit 3).
    yield (
        f"CREATE TABLE `{COMPLETE_TABLE}` (`words` INT UNSIGNED NOT NULL, `links` INT UNSIGNED NOT NULL)"
        " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n"
        f"INSERT INTO `{COMPLETE_TABLE}` SELECT {scalar.height}, {links.height} FROM DUAL WHERE "
        + " AND ".join(t for table_tests in tests.values() for t in table_tests)
        + ";\nCOMMIT;\n"
    )
    yield f"SET {', '.join(f'SESSION {v} = @ladders_old_{v}' for v in SESSION_SETTINGS)};\n"
