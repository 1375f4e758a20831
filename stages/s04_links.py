"""Stage 4, links: every pair of words one letter apart, by wildcard joins.

Reads build/01_lexicon.parquet (`id`, `word`).

A word of length n has n wildcard keys, one per position: the letters before
it (`pre`) and after it (`post`); CAT has (""/"AT"), ("C"/"T"), ("CA"/"").
- sub: two words of one length differ in exactly one letter iff they share a
  key (C*T joins CAT and COT), and then they share exactly one.
- indel: deleting the letter at a key's position leaves `pre + post`; a word
  equal to that is one deletion away (CORED minus E = CORD).
Both are polars joins over the n keys of each word; no loop over words. A key
is integers, not strings: the word's letters as digits of base len(letters) + 1 (config `language`'s
alphabet, pipeline/alphabet.py: a letter's index + 1, English A=1 ... Z=26 in base 27, as many to an int64
column as fit: 13 for English, 12 for Polish's 32 letters) with the key's letter set to 0 (sub: C*T) or left out
(indel: the shorter word's own digits). The joins run one word length at a time (sub within length n, indel between n-1
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

from typing import TYPE_CHECKING

from pipeline.alphabet import TABLE as ALPHABETS, alphabet
from pipeline.columns import Col
from pipeline.progress import track
from pipeline.schemas import LINKS
from pipeline.stage import Output, Stage

if TYPE_CHECKING:
    import numpy as np


def digits(base: int) -> int:
    """Letters per int64 key column: the most digits of `base` below 2**63 (English's base 27: 13)."""
    n = 1
    while base ** (n + 1) < 2**63:
        n += 1
    return n


def _codes(letters: np.ndarray, base: int) -> np.ndarray:
    """Each row of letters (index + 1 in the alphabet, 0 for the wildcard) as int64 columns of digits of
    `base`: two rows are equal iff their columns are."""
    import numpy as np

    rows, width = letters.shape
    per = digits(base)
    columns = -(-width // per) or 1
    padded = np.zeros((rows, columns * per), dtype=np.int64)
    padded[:, :width] = letters
    return padded.reshape(rows, columns, per) @ (base ** np.arange(per - 1, -1, -1, dtype=np.int64))


def letter_digits(frame: pl.DataFrame, width: int, letters: str) -> np.ndarray:
    """The words of `frame` (all `width` letters long) as rows of their letters' places + 1."""
    import numpy as np

    joined = frame.select(pl.col(Col.word).str.join("")).item()
    points = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
    table = np.array(sorted(map(ord, letters)), dtype=np.uint32)
    place = {ord(c): i + 1 for i, c in enumerate(letters)}
    digit_of = np.array([place[int(p)] for p in table], dtype=np.int64)
    return digit_of[np.searchsorted(table, points)].reshape(-1, width)


def _keyed(ids: np.ndarray, codes: np.ndarray) -> pl.DataFrame:
    return pl.DataFrame({Col.id: ids, **{f"k{c}": codes[:, c] for c in range(codes.shape[1])}})


def links_of_length(
    words: pl.DataFrame, n: int, shorter: pl.DataFrame | None, letters: str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
) -> list[pl.DataFrame]:
    """Sub links among `words` (all of length n), and indel links from them to `shorter` (length n-1).

    Keys are integers, not the strings before and after the wildcard (a join on them took twice as long):
    the word's letters with the one at the key's position set to 0 (sub), or left out (indel)."""
    import numpy as np

    base = len(letters) + 1
    ids, spelled = words[Col.id].to_numpy(), letter_digits(words, n, letters)
    wild, deleted = [], []
    for i in range(n):
        masked = spelled.copy()
        masked[:, i] = 0
        wild.append(_keyed(ids, _codes(masked, base)))
        if shorter is not None:
            deleted.append(_keyed(ids, _codes(np.delete(spelled, i, axis=1), base)))
    keys = pl.concat(wild).lazy()
    on = [c for c in keys.collect_schema().names() if c != Col.id]
    found = [
        keys.join(keys, on=on, suffix="_b")
        .filter(pl.col(Col.id) < pl.col("id_b"))
        .select(pl.col(Col.id).alias(Col.src), pl.col("id_b").alias(Col.dst), pl.lit("sub").alias(Col.kind))
    ]
    if shorter is not None:
        short = _keyed(shorter[Col.id].to_numpy(), _codes(letter_digits(shorter, n - 1, letters), base)).rename(
            {Col.id: "short"}
        )
        found.append(
            pl.concat(deleted)
            .lazy()
            .join(short.lazy(), on=[c for c in short.columns if c != "short"])
            .select(pl.col("short").alias(Col.src), pl.col(Col.id).alias(Col.dst), pl.lit("indel").alias(Col.kind))
            .unique()  # HELLO loses either L to give HELO: one link
        )
    return pl.collect_all(found)


def build_links(lexicon: pl.DataFrame, language: str = "en") -> dict:
    letters = alphabet(language).letters
    words = lexicon.select(Col.id, Col.word, pl.col(Col.word).str.len_chars().alias("n"))
    by_length = {key[0]: frame.drop("n") for key, frame in words.partition_by("n", as_dict=True).items()}
    parts = [pl.DataFrame(schema=LINKS)]
    for n in track(sorted(by_length), "links by word length", total=len(by_length)):
        parts += links_of_length(by_length[n], n, by_length.get(n - 1), letters)
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
    settings=("language",),
    assets=(ALPHABETS,),  # pipeline/languages.toml: a changed fold or order changes the output
    writes={"links": Output("04_links.parquet", LINKS)},  # not a column: an output name
)
