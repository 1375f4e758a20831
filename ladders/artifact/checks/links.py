"""Verify's checks of the neighbour lists (E101-E105, E108, E109), recomputed from the word column alone.

Each check takes an `Export` (checks/export.py) and returns the lines of what is wrong (empty: it holds);
verify prints its docstring when it fails, and up to EXAMPLES of the lines. The expected degrees come from wildcard
patterns (a substitution) and deletions (an insertion or deletion), not from stage 4's code.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from pipeline.columns import LINK_KINDS, Col
from ladders.artifact.checks.export import EXAMPLES, Export


def links_symmetric(e: Export) -> list[str]:
    """links are not symmetric (A lists B but B does not list A)"""
    bad = []
    for column in LINK_KINDS:
        pairs = e.pairs(column)
        missing = pairs.join(
            pairs.select(pl.col(Col.dst).alias(Col.src), pl.col(Col.src).alias(Col.dst)),
            on=[Col.src, Col.dst],
            how="anti",
        )
        bad += [f"{column}: {s} -> {d}" for s, d in missing.head(EXAMPLES).rows()]
    return bad


def no_self_links(e: Export) -> list[str]:
    """a word links to itself"""
    return [
        f"{c}: {s}"
        for c in LINK_KINDS
        for s, _ in e.pairs(c).filter(pl.col(Col.src) == pl.col(Col.dst)).head(EXAMPLES).rows()
    ]


def lists_ascending_without_duplicates(e: Export) -> list[str]:
    """a neighbour list is not strictly ascending (duplicates or disorder)"""
    bad = []
    for column in LINK_KINDS:
        rows = e.words.filter(pl.col(column).list.eval(pl.element().diff().drop_nulls() <= 0).list.any())
        bad += [f"{column} of {w}" for w in rows[Col.word].head(EXAMPLES)]
    return bad


def _one_substitution(a: str, b: str) -> bool:
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1


def _one_indel(a: str, b: str) -> bool:
    short, long = sorted((a, b), key=len)
    return len(long) == len(short) + 1 and any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _wrong_links(e: Export, column: str, ok: Callable[[str, str], bool]) -> list[str]:
    words = e.words[Col.word].to_list()
    bad = []
    for s, d in e.pairs(column).filter(pl.col(Col.src) < pl.col(Col.dst)).iter_rows():
        if not ok(words[s], words[d]):
            bad.append(f"{words[s]} - {words[d]}")
            if len(bad) >= EXAMPLES:
                break
    return bad


def links_one_substitution(e: Export) -> list[str]:
    """a `links` pair is not one substitution apart"""
    return _wrong_links(e, Col.links, _one_substitution)


def edit_links_one_indel(e: Export) -> list[str]:
    """an `edit_links` pair is not one insertion or deletion apart"""
    return _wrong_links(e, Col.edit_links, _one_indel)


def _sub_degrees(words: pl.DataFrame) -> pl.DataFrame:
    """(`id`, `expected`): how many words differ from each in exactly one letter. Two words of one
    length share exactly one wildcard pattern (C*T) when they differ in one letter, so a word's
    degree is the sum over its patterns of the other words on that pattern. One position's patterns at
    a time, kept as counts: all of them at once held 2.2 million strings of raw/ (verify's peak)."""
    longest = int(words[Col.word].str.len_chars().max() or 0)
    counts = [
        words.filter(pl.col(Col.word).str.len_chars() > i)
        .select(Col.id, (pl.col(Col.word).str.slice(0, i) + "*" + pl.col(Col.word).str.slice(i + 1)).alias("key"))
        .select(Col.id, (pl.len().over("key") - 1).alias("n"))
        for i in range(longest)
    ]
    return pl.concat(counts).group_by(Col.id).agg(pl.col("n").sum().alias("expected"))


def _indel_degrees(words: pl.DataFrame) -> pl.DataFrame:
    """(`id`, `expected`): how many listed words are this one with a letter deleted or inserted. One
    position's deletions at a time, kept as pairs of ids (see _sub_degrees)."""
    longest = int(words[Col.word].str.len_chars().max() or 0)
    shorter = words.select(pl.col(Col.word), pl.col(Col.id).alias("shorter"))
    pairs = pl.concat(
        [
            words.filter(pl.col(Col.word).str.len_chars() > i)
            .select(Col.id, (pl.col(Col.word).str.slice(0, i) + pl.col(Col.word).str.slice(i + 1)).alias(Col.word))
            .join(shorter, on=Col.word)
            .select(Col.id, "shorter")
            for i in range(longest)
        ]
    ).unique()
    return (
        pl.concat([pairs.select(Col.id), pairs.select(pl.col("shorter").alias(Col.id))])
        .group_by(Col.id)
        .agg(pl.len().alias("expected"))
    )


def _incomplete(e: Export, column: str, expected: pl.DataFrame) -> list[str]:
    found = (
        e.words.select(Col.id, Col.word, pl.col(column).list.len().alias("listed"))
        .join(expected, on=Col.id, how="left")
        .with_columns(pl.col("expected").fill_null(0))
        .filter(pl.col("listed") != pl.col("expected"))
    )
    return [f"{w}: lists {n}, the word list gives {x}" for _, w, n, x in found.head(EXAMPLES).rows()]


def links_complete(e: Export) -> list[str]:
    """a word's links miss a word one letter away (recomputed from the word column)"""
    return _incomplete(e, Col.links, _sub_degrees(e.words.select(Col.id, Col.word)))


def edit_links_complete(e: Export) -> list[str]:
    """a word's edit links miss a word one letter inserted or deleted away (recomputed from the word column)"""
    return _incomplete(e, Col.edit_links, _indel_degrees(e.words.select(Col.id, Col.word)))
