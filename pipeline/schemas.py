"""Table schemas as data, checked whenever a table is written or read.

The stage modules' docstrings explain each column; these dicts are what the
runner enforces. Stage 0's tables are the dictionaries' own rows (no word list read yet). The per-word
tables (01_lexicon, 02, 03, 05) are keyed by `id`, the word's row number in stage 1's alphabetical union
of every list; 04_links by (src, dst), 06_longest by (lexicon, mode,
group_id); 01_skipped and 01_warnings are line records.
"""

from __future__ import annotations

import polars as pl

# 04_links.parquet's schema is the column table's LINKS (the MySQL dump's links table has the same
# columns), and 06_longest.parquet is the export's longest.parquet: one schema each.
from pipeline.columns import LINKS, LONGEST, Col, group_columns, in_column, lexicons_of  # noqa: F401
from pipeline.errors import SchemaError

# One sense of a word's definition in a NASPA- or Collins-style list (parsed in stages/sources/wordlists.py).
SENSE = pl.Struct(
    {
        "text": pl.String,  # the sense as written, markup kept, bracket removed
        "pos": pl.String,  # part of speech from the bracket
        "inflection": pl.String,  # the rest of the bracket (`-S`, `BET or BETTED, BETTING, BETS`), or null
        "origin": pl.String,  # a leading label such as `Hindi`, or null
        "also": pl.List(pl.String),  # alternative spellings after `also`
        "root": pl.String,  # Collins: the word the text opens with (`ABACUS, ...`), or null
        "link_word": pl.String,  # `<be=v>`: the word (upper case) whose sense this is, or null
        "link_pos": pl.String,
        "synonyms": pl.List(pl.Struct({Col.word: pl.String, "pos": pl.String})),  # `{one=adj}` links
        "runon_of": pl.String,  # for a run-on form: the head word it was listed under, or null
    }
)


def lexicon_schema(lexicons: dict) -> dict[str, pl.DataType]:
    """01_lexicon.parquet for the config's lexicons ({name: entry}, config.resolve_lexicons): which words
    each list file holds (`list_<name>`), each add-list (`add_<name>`) and remove-list (`remove_<name>`);
    then each list's own definitions (`<name>_senses`) and the add-lists' (`added_senses`)."""
    pieces = {}
    for name, entry in lexicons.items():
        for key, prefix in (("file", "list_"), ("add", "add_"), ("remove", "remove_")):
            if key in entry:
                pieces[prefix + name] = pl.Boolean
    senses = {f"{name}_senses": pl.List(SENSE) for name, entry in lexicons.items() if "file" in entry}
    if any("add" in entry for entry in lexicons.values()):
        senses["added_senses"] = pl.List(SENSE)
    return {Col.id: pl.UInt32, Col.word: pl.String, **pieces, **senses}


def groups_schema(lexicons: dict) -> dict[str, pl.DataType]:
    """05_groups.parquet: each lexicon's membership (in_<name>), then its groups (columns.group_columns)."""
    return {
        Col.id: pl.UInt32,
        **{in_column(name): pl.Boolean for name in lexicons},
        **{column: pl.UInt32 for column in group_columns(lexicons).values()},
    }


def made_lexicons(lexicons: dict, columns, defaults=None) -> dict:
    """The lexicons stage 5 made, in config order with their config entries: those of `lexicons` whose in_<name>
    column `columns` (05_groups.parquet's) holds. A default lexicon that ends empty is left out there, so which
    lexicons reach stages 6 and 7 depends on the data. With `defaults` (config `default_lexicons`), only those
    may be missing: the others stay, so that a table lacking their columns fails its schema."""
    held = set(lexicons_of(columns))
    return {
        name: entry
        for name, entry in lexicons.items()
        if name in held or (defaults is not None and name not in defaults)
    }


STRAY = "remove-list word that no list holds"  # the `reason` of such a row of 01_warnings.parquet
SKIPPED = {"list": pl.String, "file": pl.String, "line": pl.UInt32, "text": pl.String, "reason": pl.String}
# Stage 0's tables: the dictionaries as read, before any word list is (stages/s00_dictionaries.py).
WORDNET_SENSES = {
    "lemma": pl.String,
    "pos": pl.String,
    "rank": pl.Int32,
    "tagged": pl.Int64,
    "sense": pl.Int64,
    "gloss": pl.String,
    "domains": pl.List(pl.String),
    "offset": pl.String,
    "key": pl.String,
    "count": pl.Int64,
    "heads": pl.Boolean,
}
WORDNET_DOMAINS = {"lemma": pl.String, "pos": pl.String, "sense": pl.Int64, "domain": pl.String}
WORDNET_NAMES = {"lemma": pl.String}
WORDNET_EXCEPTIONS = {"lower": pl.String, "base": pl.String, "pos": pl.String}
GCIDE_ENTRIES = {"lemma": pl.String, "entry": pl.String, "order": pl.UInt32}
MAIN_SENSES = {Col.word: pl.String, "key": pl.String, "reason": pl.String, "line": pl.Int64}
MAIN_SENSES_READ = {**MAIN_SENSES, "file": pl.String}  # and the file's name, for stage 2's messages
DEFINITIONS = {
    Col.id: pl.UInt32,
    Col.word: pl.String,
    Col.definition: pl.String,
    Col.definition_source: pl.String,
    Col.offensive: pl.Boolean,
    Col.vulgar_sense: pl.Boolean,
}
RARENESS = {
    Col.id: pl.UInt32,
    Col.word: pl.String,
    Col.scowl_level: pl.UInt8,
    "main_level": pl.UInt8,  # not exported: the lowest level among SCOWL's main lists (filters of lexicons)
    Col.rareness: pl.UInt32,
    Col.usa: pl.Boolean,
    Col.brit: pl.Boolean,
}


def check_schema(df: pl.DataFrame, schema: dict[str, pl.DataType], what: str) -> pl.DataFrame:
    """Raise SchemaError unless `df` has exactly `schema`'s columns, in order, with its dtypes."""
    actual = dict(df.schema)
    if actual != schema:
        wrong = [f"{c}: {actual.get(c, 'missing')} (want {t})" for c, t in schema.items() if actual.get(c) != t]
        extra = [c for c in actual if c not in schema]
        detail = "; ".join(wrong + [f"{c}: unexpected column" for c in extra])
        if not detail:
            detail = f"columns in order {list(actual)}, want {list(schema)}"
        raise SchemaError(f"{what}: schema mismatch: {detail}")
    return df
