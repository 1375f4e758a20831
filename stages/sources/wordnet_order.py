"""Which of a WordNet lemma's senses leads, per part of speech, and which part of speech leads (stage 2, not a
stage itself): stages/sources/wordnet.py's `glosses` orders its senses by `leading`.

Evidence first (docs/definitions.md, "The main sense first"), each step a sort key, in this order:
1. the reviewed main-sense table's choice (raw/main_senses.tsv: `chosen`), its part of speech first too;
2. a slur or vulgar sense after the others (labelled: wordnet.glosses), and a sense in the usage domain of
   disparagement, archaism or slang (LATER_DOMAINS) after the plain ones;
3. a circular sense after the others: one whose text names the word or its stem (HEAL `heal or recover`,
   PULL `cause to move by pulling`, SAME `same in identity`, GOLD `coins made of gold`);
4. where the corpus's count of the first sense left is thin (fewer than THIN tags, or no more than the
   second's: cntlist.rev), a sense whose synset the word heads before one it only shares (LID: `a movable
   top`, not EYELID's synset);
5. where the corpus tagged none, the sense GCIDE's first current sense agrees with (wordnet.agreeing_senses);
6. WordNet's order.
Parts of speech: by the corpus's total tags of their senses (AID: the verb, 37 tags, before the noun's 25),
then by how many senses it tagged, then n, v, adj, adv.
"""

from __future__ import annotations

import polars as pl

THIN = 5  # tags: below this (or no more than the second sense's) WordNet's first is weak evidence
LATER_DOMAINS = ("disparagement", "archaism", "slang")
ENDINGS = ["", "s", "es", "ed", "d", "ing", "er", "ers", "ings"]


def circular(table: pl.DataFrame) -> pl.Series:
    """For each row of `table` (`lemma`, `gloss`): whether its gloss names the lemma or a form of its stem
    (HEAL `heal or recover`; PULL `... by pulling`; a doubled consonant too: `stopping`)."""
    root = pl.col("lemma").str.replace(r"e$", "")
    word = pl.col("w")
    rest = word.str.slice(root.str.len_chars())
    named = (word == pl.col("lemma")) | (
        word.str.starts_with(root)
        & (rest.is_in(ENDINGS) | ((rest.str.slice(0, 1) == root.str.slice(-1)) & rest.str.slice(1).is_in(ENDINGS)))
    )
    words = (
        table.select(
            pl.int_range(pl.len()).alias("i"),
            "lemma",
            pl.col("gloss").str.to_lowercase().str.extract_all(r"[a-z]+").alias("w"),
        )
        .explode("w")
        .filter(pl.col("lemma").str.len_chars() >= 3)
        .group_by("i")
        .agg(named.any().alias("circular"))
    )
    return (
        pl.int_range(table.height, eager=True)
        .alias("i")
        .to_frame()
        .join(words, on="i", how="left", maintain_order="left")["circular"]
        .fill_null(False)
    )


def leading(kept: pl.DataFrame) -> pl.DataFrame:
    """`kept` (wordnet.glosses' senses: `lemma`, `pos`, `sense`, `count`, `heads`, `labelled`, `later`,
    `chosen`, `agrees`, ...) sorted so that each (lemma, pos)'s leading sense comes first (module docstring)."""
    kept = kept.with_columns(circular(kept).alias("circular"))
    plain = ["lemma", "pos", "labelled", "later", "circular", "sense"]
    by_evidence = kept.sort(plain)
    first = pl.col("count").first().over("lemma", "pos")
    second = pl.col("count").slice(1, 1).first().over("lemma", "pos")
    thin = by_evidence.with_columns(((first < THIN) | (first <= second.fill_null(0))).alias("thin"))
    return thin.with_columns((pl.col("thin") & pl.col("heads")).alias("headed")).sort(
        ["lemma", "pos", "chosen", "labelled", "later", "circular", "headed", "agrees", "sense"],
        descending=[False, False, True, False, False, False, True, True, False],
    )


def pos_order(main: pl.DataFrame, totals: pl.DataFrame) -> pl.DataFrame:
    """`main` (one leading sense per lemma and part of speech, with `chosen`, `tagged`, `rank`) with `rank`
    renumbered: the table's chosen part of speech first, then by the corpus's total tags (`totals`: `lemma`,
    `pos`, `total`), its tagged-sense count, and the part of speech's own order."""
    return (
        main.join(totals, on=["lemma", "pos"], how="left")
        .sort(["lemma", "chosen", "total", "tagged", "rank"], descending=[False, True, True, True, False])
        .with_columns(pl.int_range(pl.len()).over("lemma").alias("rank"))
        .drop("total")
    )
