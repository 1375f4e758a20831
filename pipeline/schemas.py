"""Table schemas as data, checked whenever a table is written or read.

The stage modules' docstrings explain each column; these dicts are what the
runner enforces. Intermediate tables are keyed by `id`, the row number of the
word in the alphabetical lexicon.
"""

from __future__ import annotations

import polars as pl

# 04_links.parquet is the export's link table and 06_longest.parquet is longest.parquet: one schema each.
from pipeline.artifact.contract import GROUP_COLUMNS, LINKS, LONGEST, Col  # noqa: F401
from pipeline.errors import SchemaError

# One sense of a word's definition in a NASPA- or Collins-style list (parsed in stages/wordlists.py).
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
LEXICON = {
    Col.id: pl.UInt32,
    Col.word: pl.String,
    Col.in_csw: pl.Boolean,
    Col.in_owl: pl.Boolean,
    "csw_senses": pl.List(SENSE),
    "owl_senses": pl.List(SENSE),
}
SKIPPED = {"list": pl.String, "file": pl.String, "line": pl.UInt32, "text": pl.String, "reason": pl.String}
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
    Col.rareness: pl.UInt32,
    Col.usa: pl.Boolean,
    Col.brit: pl.Boolean,
}
GROUPS = {Col.id: pl.UInt32, **{column: pl.UInt32 for column in GROUP_COLUMNS.values()}}  # one per labeling


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
