"""The export contract (schema_version 5): what build/export/ holds, in one place.

Stage 7 writes by it; the solver, verify, diff and bench read by it. Files:
- words.parquet, one row per word sorted by `id` (WORDS below; columns
  explained in stages/s07_export.py);
- groups.parquet, one row per group (GROUP_SIZES);
- longest.parquet, one row per group of two or more words: its diameter and first diametral pair (LONGEST);
- ladder.sqlite, the same data for SQL solvers, `ladders solve` among them (sqlite_file: one table
  `words`, every column of words.parquet with the two neighbour lists as JSON
  array text, an index per group column, PRAGMA user_version = SCHEMA_VERSION);
- manifest.json (schema_version, inputs, files with sha256 and rows, config,
  counts) and summary.txt.
A change to any of it is a new SCHEMA_VERSION.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.errors import DamagedState, EnvironmentProblem, NoExport

if TYPE_CHECKING:
    import polars as pl

WORDS_FILE, GROUPS_FILE, LONGEST_FILE, SQLITE_FILE, MANIFEST_FILE, SUMMARY_FILE = (
    "words.parquet",
    "groups.parquet",
    "longest.parquet",
    "ladder.sqlite",
    "manifest.json",
    "summary.txt",
)
FILES = (WORDS_FILE, GROUPS_FILE, LONGEST_FILE, SQLITE_FILE, MANIFEST_FILE, SUMMARY_FILE)

SCHEMA_VERSION = 5  # 2: longest.parquet; 3: ladder.sqlite lists in the words rows, no links table; 4: vulgar_sense;
# 5: lexicons as configured (in_<name>, group_<name>, group_<name>_edit per lexicon; the manifest's lexicons)


class Col:
    """Every column name of the export, spelled here once: code elsewhere writes `Col.word`, never
    "word", so a renamed or added column is one edit and a typo is an AttributeError, not a silent miss.
    Stage tables that carry a column on to the export use the same names."""

    id, word, length, in_csw, in_owl = "id", "word", "length", "in_csw", "in_owl"
    scowl_level, rareness, usa, brit = "scowl_level", "rareness", "usa", "brit"
    definition, definition_source, offensive = "definition", "definition_source", "offensive"
    vulgar_sense = "vulgar_sense"
    group_csw, group_owl, group_csw_edit, group_owl_edit = "group_csw", "group_owl", "group_csw_edit", "group_owl_edit"
    links, edit_links = "links", "edit_links"
    lexicon, mode, group_id, size, diameter, start, end, example = (
        "lexicon",
        "mode",
        "group_id",
        "size",
        "diameter",
        "start",
        "end",
        "example",
    )
    src, dst, kind = "src", "dst", "kind"  # the links of stage 4 and of the MySQL dump


# A lexicon's columns follow one pattern (docs/lexicons.md), so its name is enough to find them:
# in_<name> (bool: the lexicon holds the word), group_<name> (its group by substitution links among the
# lexicon's words, null outside it) and group_<name>_edit (the same with insert/delete links too).
# The lexicons of an export, in column order, are its manifest's `lexicons` (export_lexicons).
MODES = ("sub", "edit")
DEFAULT_LEXICONS = ("csw", "owl")  # the build's two lists before lexicons were configurable


def in_column(lexicon: str) -> str:
    return f"in_{lexicon}"


def group_column(lexicon: str, mode: str) -> str:
    return f"group_{lexicon}" + ("_edit" if mode == "edit" else "")


def group_columns(lexicons) -> dict[tuple[str, str], str]:
    """(lexicon, mode) -> the words.parquet column of that labeling: every lexicon's sub, then its edit."""
    return {(name, mode): group_column(name, mode) for mode in MODES for name in lexicons}


def lexicons_of(columns) -> tuple[str, ...]:
    """The lexicons of a words table, in order, read off its in_<name> columns."""
    return tuple(c.removeprefix("in_") for c in columns if c.startswith("in_"))


def export_lexicons(folder: Path) -> tuple[str, ...]:
    """The lexicons an export holds, in column order, from its manifest."""
    listed = read_manifest(folder).get("lexicons")
    return tuple(entry["name"] for entry in listed) if isinstance(listed, list) else DEFAULT_LEXICONS


def how_made(entry: dict) -> str:
    """The manifest's `made` of a lexicon (its config entry) in words: `from csw, SCOWL main lists <= 35, + names.txt`."""
    parts = [f"file {entry['file']}" if "file" in entry else f"from {entry['from']}"]
    if "max_scowl_level" in entry:
        parts.append(f"SCOWL main lists <= {entry['max_scowl_level']}")
    parts += [f"{sign} {entry[key]}" for key, sign in (("add", "+"), ("remove", "-")) if key in entry]
    return ", ".join(parts)


def lookup_columns(lexicons) -> list[str]:
    """The columns a lookup needs (no lists, no text)."""
    return [Col.word, Col.length, *map(in_column, lexicons), Col.rareness, *group_columns(lexicons).values()]


def sqlite_indexes(lexicons) -> dict[str, str]:
    return {"words_word": "CREATE UNIQUE INDEX words_word ON words (word)"} | {
        f"words_{c}": f"CREATE INDEX words_{c} ON words ({c})" for c in group_columns(lexicons).values()
    }


# The labelings of a build of csw and owl alone: (lexicon, mode) -> the words.parquet column.
GROUP_COLUMNS = group_columns(DEFAULT_LEXICONS)


# Each neighbour-list column and the kind of link it holds; the lists each mode searches; the columns a
# lookup needs (no lists, no text).
LINK_KINDS = {Col.links: "sub", Col.edit_links: "indel"}
LIST_COLUMNS = {"sub": [Col.links], "edit": [Col.links, Col.edit_links]}
LOOKUP_COLUMNS = lookup_columns(DEFAULT_LEXICONS)
SQLITE_INDEXES = sqlite_indexes(DEFAULT_LEXICONS)


# The tables' polars schemas. A solve reads SQLite and never needs them, and importing polars takes 0.2 s
# of a fresh solve's 0.15 s budget, so they are built on first use (PEP 562: `from contract import WORDS`
# calls __getattr__ below once, then finds them in the module).
def words_schema(lexicons) -> dict[str, object]:
    """words.parquet's columns and dtypes for an export of these lexicons (in order)."""
    import polars as pl

    return {
        Col.id: pl.UInt32,
        Col.word: pl.String,
        Col.length: pl.UInt8,
        **{in_column(name): pl.Boolean for name in lexicons},
        Col.scowl_level: pl.UInt8,
        Col.rareness: pl.UInt32,
        Col.usa: pl.Boolean,
        Col.brit: pl.Boolean,
        Col.definition: pl.String,
        Col.definition_source: pl.String,
        **{column: pl.UInt32 for column in group_columns(lexicons).values()},
        Col.links: pl.List(pl.UInt32),
        Col.edit_links: pl.List(pl.UInt32),
        Col.offensive: pl.Boolean,
        Col.vulgar_sense: pl.Boolean,
    }


def scalar_columns(lexicons) -> list[str]:
    """The MySQL dump's words table: every column but the neighbour lists."""
    return [c for c in words_schema(lexicons) if c not in LINK_KINDS]


def _schemas() -> dict[str, object]:
    import polars as pl

    words = words_schema(DEFAULT_LEXICONS)
    return {
        "WORDS": words,
        # longest.parquet: per group of two or more words, its longest shortest ladder and the first pair at it.
        "LONGEST": {
            Col.lexicon: pl.String,
            Col.mode: pl.String,
            Col.group_id: pl.UInt32,
            Col.size: pl.UInt32,
            Col.length: pl.UInt8,
            Col.diameter: pl.UInt16,
            Col.start: pl.String,
            Col.end: pl.String,
        },
        "GROUP_SIZES": {
            Col.lexicon: pl.String,
            Col.mode: pl.String,
            Col.group_id: pl.UInt32,
            Col.size: pl.UInt32,
            Col.length: pl.UInt8,
            Col.example: pl.String,
        },
        "LINKS": {Col.src: pl.UInt32, Col.dst: pl.UInt32, Col.kind: pl.String},  # src < dst
        "SCALAR_COLUMNS": [c for c in words if c not in LINK_KINDS],  # the MySQL dump's words table
    }


def __getattr__(name: str) -> object:  # also called by name in this module, where globals skip it
    if name in ("WORDS", "LONGEST", "GROUP_SIZES", "LINKS", "SCALAR_COLUMNS"):
        globals().update(_schemas())
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def sqlite_words(words: pl.DataFrame) -> pl.DataFrame:
    """The rows of ladder.sqlite's table words: WORDS with booleans as 0/1 and each neighbour list as
    JSON array text (`[12,4077]`, `[]` for none), which SQLite's json_each() unnests when a query wants
    one row per link. A solver loads a group, links and all, with one indexed query:
    `SELECT * FROM words WHERE group_csw = ?`."""
    import polars as pl

    return words.select(list(words_schema(lexicons_of(words.columns)))).with_columns(
        pl.col(pl.Boolean).cast(pl.Int64),
        *[pl.format("[{}]", pl.col(c).cast(pl.List(pl.String)).list.join(",")).alias(c) for c in LINK_KINDS],
    )


def sqlite_file(words: pl.DataFrame, path: Path) -> None:
    """Write ladder.sqlite to `path` (a new file), from words (WORDS); the same frame gives the same
    bytes. The rows go in as Arrow batches through ADBC's bulk ingest (C++, not a Python call per row),
    with no journal and no syncs: the file is a scratch file until its writer moves it into place.
    (Lists in the rows rather than a links table of both directions: 1.0 s instead of 2.3 s for raw/,
    55 MB instead of 63 MB, and one query per group instead of a join.)"""
    import adbc_driver_sqlite.dbapi as adbc

    try:
        _fill_sqlite(adbc, path, words)
    except adbc.Error as err:
        # ADBC's SQLite driver reports most failures as INTERNAL: a full disk or a size limit shows in
        # the text ("database or disk is full", "disk I/O error") or, as often, only in a failed
        # rollback; a constraint failure is our own bug and goes on as itself.
        text = " ".join(str(err).split())
        if not re.search(r"disk|full|I/O|rollback", text):
            raise
        from pipeline.errors import write_failure_hint

        raise EnvironmentProblem(
            f"cannot write {path.name} in {path.parent}: {text[:120]}; {write_failure_hint(path.parent)}"
        ) from None


def sqlite_bytes(words: pl.DataFrame) -> bytes:
    """ladder.sqlite as bytes (sqlite_file through a temporary folder), for tests and tools."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="ladders-sqlite-") as scratch:
        sqlite_file(words, Path(scratch) / SQLITE_FILE)
        return (Path(scratch) / SQLITE_FILE).read_bytes()


SQLITE_BATCH = 32_768  # rows converted and ingested at a time: the whole table at once held 55 MiB more


def _fill_sqlite(adbc, path: Path, words: pl.DataFrame) -> None:
    import polars as pl
    import pyarrow as pa

    empty = sqlite_words(words.head(0))
    failed: list[BaseException] = []

    def batches():
        try:
            for start in range(0, words.height, SQLITE_BATCH):
                yield from sqlite_words(words.slice(start, SQLITE_BATCH)).to_arrow().to_batches()
        except BaseException as err:  # ADBC would pass it on as an error of its own: keep the real one
            failed.append(err)
            raise

    with adbc.connect(str(path), autocommit=True) as con, con.cursor() as cur:
        for pragma in (f"user_version = {SCHEMA_VERSION}", "journal_mode = OFF", "synchronous = OFF"):
            cur.execute(f"PRAGMA {pragma}")
        cur.execute(
            "CREATE TABLE words ("
            + ", ".join(
                f"{c} {'TEXT' if empty.schema[c] == pl.String else 'INTEGER'}" + (" PRIMARY KEY" if c == Col.id else "")
                for c in empty.columns
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


def export_file(folder: Path, name: str = WORDS_FILE) -> Path:
    """A file of an export folder this version of ladders can read (words.parquet unless named), or
    DamagedState saying why not.

    The solver and diff read exports that a user names; the manifest's schema_version tells an export
    of another ladders release apart from a damaged one before any column is looked up."""
    from pipeline.swap import wait_for_swap

    folder = Path(folder)
    manifest, wanted = folder / MANIFEST_FILE, folder / name
    if not wait_for_swap(folder, lambda: manifest.is_file() and wanted.is_file()):  # a rebuild mid-swap: wait
        raise NoExport(
            f"{folder} is not an export ({(wanted if manifest.is_file() else manifest).name} "
            "does not exist); build the export first (make build)"
        )
    try:
        version = json.loads(manifest.read_text()).get("schema_version")
    except (ValueError, UnicodeDecodeError, AttributeError):
        raise DamagedState(f"{manifest} is not a manifest ladders wrote; build the export again") from None
    if version != SCHEMA_VERSION:
        raise DamagedState(
            f"{folder} holds schema_version {version!r}; this ladders reads {SCHEMA_VERSION}: "
            "rebuild it with this version (make build)"
        )
    return wanted


def link_pairs(words: pl.DataFrame, columns: tuple[str, ...] = tuple(LINK_KINDS)) -> pl.DataFrame:
    """(`src`, `dst`, `kind`): every entry of the words' neighbour lists as stored, so each link twice."""
    import polars as pl

    return pl.concat(
        [
            words.select(pl.col("id").alias("src"), pl.col(c).alias("dst"))
            .explode("dst")
            .drop_nulls()
            .with_columns(pl.lit(LINK_KINDS[c]).alias("kind"))
            for c in columns
        ]
    )


# Rareness labels by highest SCOWL level, when a manifest names none (the defaults' rareness_labels):
# at most 35 common (everyday), 50 uncommon, 70 rare; beyond, obscure.
DEFAULT_LABELS = {"common": 35, "uncommon": 50, "rare": 70}


def label_cutoffs(folder: Path) -> dict[str, int]:
    """The SCOWL level cut-offs of the rareness labels the export was built with, lowest first."""
    cutoffs = read_manifest(folder).get("config", {}).get("rareness_labels") or DEFAULT_LABELS
    return dict(sorted(cutoffs.items(), key=lambda kv: kv[1]))


def read_manifest(folder: Path) -> dict:
    """manifest.json of an export folder, or {} when it is missing or unreadable (callers fall back)."""
    from pipeline.swap import wait_for_swap

    manifest = Path(folder) / MANIFEST_FILE
    wait_for_swap(Path(folder), manifest.is_file)  # a rebuild mid-swap: read the new one, not nothing
    try:
        return json.loads(manifest.read_text())
    except (OSError, ValueError):
        return {}


# How a definition was made, read off its `definition_source` (stage 2): a list's own text (`csw`,
# `owl`, `supplement`, perhaps through a link: `csw-link`), a dictionary's entry for the word itself
# (`wordnet`, `gcide`), an inflection of a verified base (`wordnet-inflection`: `past tense of HOLD: ...`)
# or a derivation by a judged rule (`gcide-derived`: `un- (not) + BATED: ...`).
DEFINITION_KINDS = ("own list", "headword", "inflection", "derivation")


def definition_kind(source):
    """A polars expression: the DEFINITION_KINDS entry for a `definition_source` expression (null: none)."""
    import polars as pl

    return (
        pl.when(source.is_null())
        .then(None)
        .when(source.str.ends_with("-inflection"))
        .then(pl.lit("inflection"))
        .when(source.str.ends_with("-derived"))
        .then(pl.lit("derivation"))
        .when(source.is_in(["wordnet", "gcide"]))
        .then(pl.lit("headword"))
        .otherwise(pl.lit("own list"))
    )
