"""The export's column table: every file name, column name, schema and naming pattern, declared once.

A leaf: it imports nothing of the project, so that the stages (which write by it), the engine (which checks
tables against it) and the product (which reads exports by it) all take the one declaration. Stage 7 writes
the export by it; ladders/artifact/contract.py reads an export by it. Files of build/export/:
- words.parquet, one row per word sorted by `id` (WORDS below; columns
  explained in stages/s07_export.py);
- groups.parquet, one row per group (GROUP_SIZES);
- longest.parquet, one row per group of two or more words: its diameter and first diametral pair (LONGEST);
- ladder.sqlite, the same data for SQL solvers, `ladders solve` among them (pipeline/sqlite.py: one table
  `words`, every column of words.parquet with the two neighbour lists as JSON
  array text, an index per group column, PRAGMA user_version = SCHEMA_VERSION);
- manifest.json (schema_version, inputs, files with sha256 and rows, config,
  counts) and summary.txt.
A change to any of it is a new SCHEMA_VERSION.
"""

from __future__ import annotations

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


# Rareness labels by highest SCOWL level, when a manifest names none (the defaults' rareness_labels):
# at most 35 common (everyday), 50 uncommon, 70 rare; beyond, obscure.
DEFAULT_LABELS = {"common": 35, "uncommon": 50, "rare": 70}


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
