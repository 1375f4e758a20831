"""The main-sense table's candidates and its checks, for stage 2 and for the reviewers (not a stage itself).

Reads WordNet's senses (stages/sources/wordnet.py `senses`: `lemma`, `pos`, `key`, `gloss`, ...), the
lexicon's morphology (stages/rules/morphology.py) and the table (stages/sources/main_senses.py `read`).
- `candidates`: every sense a reviewer chooses among for a word: its own lemma's senses (all parts of
  speech), and for a form the senses of each base it is a form of by the rules, in the form's part of
  speech, shown as a player reads them (`plural of TRIO: a group of three`);
- `resolved`: the table's rows whose key is a candidate of their word, as (`word`, `lemma`, `pos`, `key`);
  a key that is not is an InputFormatError naming the file and the line;
- `gcide_resolved`: the rows naming GCIDE's n-th first sense (`gcide:<headword>:<n>`, for a word whose main
  meaning WordNet lacks: SUNNY's weather, HELL's abode), checked against GCIDE's glosses the same way.
"""

from __future__ import annotations

import polars as pl

from pipeline.columns import Col
from pipeline.errors import InputFormatError
from pipeline.terminal import inert
from stages.rules.inflections import readings

COLUMNS = [Col.word, "key", "pos", "gloss", "lemma"]


def candidates(
    words: pl.Series, senses: pl.DataFrame, forms: pl.DataFrame, lexicon: pl.Series, names: pl.Series
) -> pl.DataFrame:
    """(`word`, `key`, `pos`, `gloss`, `lemma`): each of `words`' (upper case) candidate senses (module
    docstring), its own first in WordNet's order, then each base's; `lemma` the lemma the key is a sense of."""
    wanted = words.str.to_lowercase().to_frame("lemma")
    own = senses.join(wanted, on="lemma", maintain_order="left").select(
        pl.col("lemma").str.to_uppercase().alias(Col.word), "key", "pos", "gloss", "lemma", pl.lit(0).alias("order")
    )
    bases = readings(words, senses.select("lemma", "pos", "gloss"), forms, lexicon, names)
    forms_of = bases.join(
        senses.select(pl.col("lemma").alias("base"), "pos", "key", "gloss", "rank", "sense"), on=["base", "pos"]
    ).select(
        Col.word,
        "key",
        "pos",
        pl.format("{} {}: {}", "relation", pl.col("base").str.to_uppercase(), "gloss").alias("gloss"),
        pl.col("base").alias("lemma"),
        pl.lit(1).alias("order"),
    )
    return (
        pl.concat([own, forms_of])
        .unique([Col.word, "key"], keep="first", maintain_order=True)
        .sort(Col.word, "order", maintain_order=True)
        .select(COLUMNS)
    )


def resolved(table: pl.DataFrame, name: str, found: pl.DataFrame, strict: bool = True) -> pl.DataFrame:
    """(`word`, `lemma`, `pos`, `key`): the rows of `table` (main_senses.read) whose key is a WordNet sense among
    `found` (candidates of the table's words). `strict`: a WordNet key that is none is an error naming file
    and line (the committed table against raw/'s WordNet: tests/integration/test_senses_table.py); else such rows are
    left out, for a build of other lists or another WordNet, where the rules decide those words.
    GCIDE keys (`gcide:...`) are left to the GCIDE reader and not returned."""
    wordnet_keys = table.filter(~pl.col("key").str.starts_with("gcide:"))
    matched = wordnet_keys.join(found.select(Col.word, "key", "lemma", "pos"), on=[Col.word, "key"], how="left")
    bad = matched.filter(pl.col("lemma").is_null())
    if bad.height and strict:
        word, key, line = bad.select(Col.word, "key", "line").row(0)
        raise InputFormatError(
            f"{inert(name)} line {line}: {inert(key)} is no sense of {word} nor of a base it is a form of "
            f"({bad.height} such line{'s' if bad.height > 1 else ''}); fix or remove it"
        )
    return matched.filter(pl.col("lemma").is_not_null()).select(Col.word, "lemma", "pos", "key")


def gcide_resolved(table: pl.DataFrame, name: str, gcide: pl.DataFrame, strict: bool = True) -> pl.DataFrame:
    """(`word`, `lemma`, `rank`): the rows of `table` (main_senses.read) whose key is `gcide:<headword>:<n>`,
    the headword the word itself and `rank` (n - 1) one of GCIDE's first senses of it (`gcide`: gcide.glosses'
    `lemma`, `rank`). `strict`: any other such key is an error naming file and line (as `resolved`)."""
    keys = table.filter(pl.col("key").str.starts_with("gcide:")).with_columns(
        pl.col("key").str.split(":").list.get(1).alias("lemma"),
        (pl.col("key").str.split(":").list.get(2).cast(pl.Int64) - 1).alias("rank"),
    )
    known = gcide.select("lemma", pl.col("rank").cast(pl.Int64), pl.lit(True).alias("known"))
    matched = keys.join(known, on=["lemma", "rank"], how="left").with_columns(
        pl.col("known").fill_null(False) & (pl.col("lemma") == pl.col(Col.word).str.to_lowercase())
    )
    bad = matched.filter(~pl.col("known"))
    if bad.height and strict:
        word, key, line = bad.select(Col.word, "key", "line").row(0)
        raise InputFormatError(
            f"{inert(name)} line {line}: {inert(key)} is no first sense of {word}'s own GCIDE entries "
            f"({bad.height} such line{'s' if bad.height > 1 else ''}); fix or remove it"
        )
    return matched.filter("known").select(Col.word, "lemma", "rank")
