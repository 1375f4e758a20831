"""Stage 4, links: every pair of words one letter apart, by wildcard joins.

Reads build/01_lexicon.parquet (`id`, `word`).

A word of length n has n wildcard keys, one per position: the letters before
it (`pre`) and after it (`post`); CAT has (""/"AT"), ("C"/"T"), ("CA"/"").
- sub: two words of one length differ in exactly one letter iff they share a
  key (C*T joins CAT and COT), and then they share exactly one.
- indel: deleting the letter at a key's position leaves `pre + post`; a word
  equal to that is one deletion away (CORED minus E = CORD).
Both are polars joins over the n keys of each word; no loop over words. The
joins run one word length at a time (sub within length n, indel between n-1
and n): each then fits in cache, which keeps the time linear and the memory a
third of one global join on a lexicon 16 times the CSW size.

Writes build/04_links.parquet, each undirected link once, key (`src`, `dst`):
- src u32, dst u32: word ids, src < dst
- kind str: `sub` (same length, one letter changed) or `indel` (dst or src
  is the other with one letter inserted)
Sorted by src, dst.
"""

from __future__ import annotations

import polars as pl

from pipeline.artifact.contract import Col
from pipeline.progress import track
from pipeline.schemas import LINKS
from pipeline.stage import Output, Stage


def wildcard_keys(words: pl.DataFrame, n: int) -> pl.LazyFrame:
    """One row per word of length n and position: `id`, `pre`, `post`."""
    return pl.concat(
        [
            words.lazy().select(
                Col.id, pl.col(Col.word).str.slice(0, i).alias("pre"), pl.col(Col.word).str.slice(i + 1).alias("post")
            )
            for i in range(n)
        ]
    )


def links_of_length(words: pl.DataFrame, n: int, shorter: pl.DataFrame | None) -> list[pl.DataFrame]:
    """Sub links among `words` (all of length n), and indel links from them to `shorter` (length n-1)."""
    keys = wildcard_keys(words, n).cache()  # built once for both joins
    found = [
        keys.join(keys, on=["pre", "post"], suffix="_b")
        .filter(pl.col(Col.id) < pl.col("id_b"))
        .select(pl.col(Col.id).alias(Col.src), pl.col("id_b").alias(Col.dst), pl.lit("sub").alias(Col.kind))
    ]
    if shorter is not None:
        found.append(
            keys.select(Col.id, pl.concat_str("pre", "post").alias("deleted"))
            .join(shorter.lazy().select(pl.col(Col.id).alias("short"), pl.col(Col.word).alias("deleted")), on="deleted")
            .select(pl.col("short").alias(Col.src), pl.col(Col.id).alias(Col.dst), pl.lit("indel").alias(Col.kind))
            .unique()  # HELLO loses either L to give HELO: one link
        )
    return pl.collect_all(found)


def build_links(lexicon: pl.DataFrame) -> dict:
    words = lexicon.select(Col.id, Col.word, pl.col(Col.word).str.len_bytes().alias("n"))
    by_length = {key[0]: frame.drop("n") for key, frame in words.partition_by("n", as_dict=True).items()}
    parts = [pl.DataFrame(schema=LINKS)]
    for n in track(sorted(by_length), "links by word length", total=len(by_length)):
        parts += links_of_length(by_length[n], n, by_length.get(n - 1))
    links = (
        pl.concat(parts)
        .select(
            pl.min_horizontal(Col.src, Col.dst).alias(Col.src),
            pl.max_horizontal(Col.src, Col.dst).alias(Col.dst),
            Col.kind,
        )
        .sort(Col.src, Col.dst)
    )
    counts = links[Col.kind].value_counts().sort(Col.kind).rows()
    return {"links": links, "notes": [", ".join(f"{n:,} {kind} links" for kind, n in counts)]}  # not a column: outputs


STAGE = Stage(
    number=4,
    name="links",  # not a column: the stage's name
    transform=build_links,
    reads=("lexicon",),  # not a column: stage 1's output
    writes={"links": Output("04_links.parquet", LINKS)},  # not a column: an output name
)
