"""Stage 7's words and group tables: the same rows whatever the order of the stage tables they join."""

from __future__ import annotations

import polars as pl

from conftest import groups_of, lexicon_of
from pipeline.schemas import DEFINITIONS, RARENESS
from stages.s04_links import build_links
from stages.s07_export import build_group_table, build_words

WORDS = ["CAT", "COT", "COAT", "DOG", "DOGS", "ZEBRA"]  # a sub pair, an indel chain, a word alone


def tables():
    lex = lexicon_of(WORDS, WORDS[:4])
    links = build_links(lex)["links"]
    groups = groups_of(lex, links)
    rareness = lex.select(
        "id",
        "word",
        pl.col("id").cast(pl.UInt8).alias("scowl_level"),
        pl.col("id").cast(pl.UInt8).alias("main_level"),
        (pl.col("id") * 10).alias("rareness"),
        (pl.col("id") % 2 == 0).alias("usa"),
        (pl.col("id") % 3 == 0).alias("brit"),
    ).cast(RARENESS)
    definitions = lex.select(
        "id",
        "word",
        pl.concat_str(pl.lit("a word: "), "word").alias("definition"),
        pl.lit("csw").alias("definition_source"),
        pl.lit(False).alias("offensive"),
        pl.lit(False).alias("vulgar_sense"),
    ).cast(DEFINITIONS)
    return lex, definitions, rareness, links, groups


def test_words_and_groups_do_not_depend_on_the_order_of_the_tables():
    """Tables whose ids are the lexicon's, in order, are put side by side; others are joined by id."""
    lex, definitions, rareness, links, groups = tables()
    ordered = build_words(lex, definitions, rareness, links, groups)
    shuffled = build_words(lex, definitions.reverse(), rareness.sample(fraction=1.0, shuffle=True, seed=7),
                           links.reverse(), groups.reverse())  # fmt: skip
    assert shuffled.equals(ordered)
    assert build_group_table(shuffled).equals(build_group_table(ordered))
    row = ordered.filter(pl.col("word") == "COAT").row(0, named=True)
    assert (row["rareness"], row["definition"]) == (row["id"] * 10, "a word: COAT")
    cat, cot = (ordered.filter(pl.col("word") == w).row(0, named=True) for w in ("CAT", "COT"))
    assert row["edit_links"] == sorted([cat["id"], cot["id"]]) and cat["links"] == [cot["id"]]
    assert ordered.filter(pl.col("word") == "ZEBRA")["links"].to_list() == [[]]


def test_a_table_without_a_word_leaves_its_columns_null():
    """As the left join did: a word missing from a stage table keeps its row, with nulls there."""
    lex, definitions, rareness, links, groups = tables()
    for table in ("definitions", "rareness"):
        partial = {"definitions": definitions, "rareness": rareness}
        partial[table] = partial[table].filter(pl.col("word") != "DOG")
        words = build_words(lex, partial["definitions"], partial["rareness"], links, groups)
        dog = words.filter(pl.col("word") == "DOG").row(0, named=True)
        assert (dog["definition"] is None, dog["rareness"] is None) == (table == "definitions", table == "rareness")
        assert words["word"].to_list() == sorted(WORDS)
