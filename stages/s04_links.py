"""Stage 4, links: every pair of words one letter apart, by wildcard joins.

Reads build/01_lexicon.parquet (`id`, `word`).

A word of length n has n wildcard keys, one per position: the letters before
it (`pre`) and after it (`post`); CAT has (""/"AT"), ("C"/"T"), ("CA"/"").
- sub: two words of one length differ in exactly one letter iff they share a
  key (C*T joins CAT and COT), and then they share exactly one.
- indel: deleting the letter at a key's position leaves `pre + post`; a word
  equal to that is one deletion away (CORED minus E = CORD).
Both are polars joins over the n keys of each word; no loop over words.

Writes build/04_links.parquet, each undirected link once, key (`src`, `dst`):
- src u32, dst u32: word ids, src < dst
- kind str: `sub` (same length, one letter changed) or `indel` (dst or src
  is the other with one letter inserted)
Sorted by src, dst.
"""
from __future__ import annotations

import polars as pl

from pipeline.progress import track
from pipeline.schemas import LINKS
from pipeline.stage import Output, Stage


def wildcard_keys(lexicon: pl.DataFrame) -> pl.DataFrame:
    """One row per word and position: `id`, `pre`, `post`."""
    words = lexicon.select("id", "word", pl.col("word").str.len_bytes().alias("n"))
    longest = int(words["n"].max() or 0)
    parts = [
        words.filter(pl.col("n") > i).select(
            "id",
            pl.col("word").str.slice(0, i).alias("pre"),
            pl.col("word").str.slice(i + 1).alias("post"),
        )
        for i in track(range(longest), "wildcard keys", total=longest)
    ]
    return pl.concat(parts) if parts else pl.DataFrame(schema={"id": pl.UInt32, "pre": pl.String, "post": pl.String})


def build_links(lexicon: pl.DataFrame) -> dict:
    keys = wildcard_keys(lexicon).lazy()
    # Most keys belong to one word only; dropping them first spares the join every word's match with itself.
    shared = keys.filter(pl.struct("pre", "post").is_duplicated())
    sub = (
        shared.join(shared, on=["pre", "post"], suffix="_b")
        .filter(pl.col("id") < pl.col("id_b"))
        .select(pl.col("id").alias("src"), pl.col("id_b").alias("dst"), pl.lit("sub").alias("kind"))
    )
    shorter = lexicon.lazy().select(pl.col("id").alias("short"), pl.col("word").alias("deleted"))
    indel = (
        keys.select("id", pl.concat_str("pre", "post").alias("deleted"))
        .join(shorter, on="deleted")
        .select(pl.col("short").alias("src"), pl.col("id").alias("dst"), pl.lit("indel").alias("kind"))
        .unique()  # HELLO loses either L to give HELO: one link
    )
    links = (
        pl.concat([sub, indel])
        .select(pl.min_horizontal("src", "dst").alias("src"), pl.max_horizontal("src", "dst").alias("dst"), "kind")
        .sort("src", "dst")
        .collect()
    )
    counts = links["kind"].value_counts().sort("kind").rows()
    return {"links": links, "notes": [", ".join(f"{n:,} {kind} links" for kind, n in counts)]}


STAGE = Stage(
    number=4,
    name="links",
    transform=build_links,
    reads=("lexicon",),
    writes={"links": Output("04_links.parquet", LINKS)},
)
