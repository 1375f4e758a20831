"""wordfreq's word frequencies as a source for stage 3 (not a stage itself): how often a word is seen.

Reads one file of the installed PyPI package wordfreq (config key `wordfreq`, by default
`package:wordfreq/data/large_en.msgpack.gz`, the list `wordfreq.zipf_frequency(word, "en")` reads): a
gzipped msgpack "cBpack", a header {"format": "cB", "version": 1} and then one list of words per
centibel of frequency, the list at index i holding the words seen with probability 10 ** (-i / 100).
On the Zipf scale (log10 of a word's occurrences per billion words) that is 9 - i / 100, the value
wordfreq's own zipf_frequency returns for a single lower-case word (tests/unit/stages/test_everyday_rule.py checks
the two agree). wordfreq's code is Apache-2.0 and its data CC BY-SA 4.0 (the NOTICE says which columns it
shapes); its lists stopped at their 2021 data, so the file is as pinned as the package version.

Gives (`entry`, `zipf`): every word of the list that is lower-case letters only (what SCOWL's entries and a
lexicon's lower-cased words can equal), its Zipf frequency as f32.
"""

from __future__ import annotations

import gzip

import msgpack
import polars as pl

from pipeline.errors import InputFormatError

HEADER = {"format": "cB", "version": 1}  # the only cBpack wordfreq writes


def zipf_table(name: str, data: bytes) -> pl.DataFrame:
    """(`entry`, `zipf`) from a cBpack file's bytes; `name` names the file in a damaged one's error."""
    try:
        packed = msgpack.unpackb(gzip.decompress(data), raw=False, strict_map_key=False)
    except (OSError, EOFError, ValueError, msgpack.UnpackException) as e:
        raise InputFormatError(f"{name}: not a wordfreq cBpack file (gzipped msgpack): {e}") from None
    if not isinstance(packed, list) or not packed or packed[0] != HEADER:
        raise InputFormatError(f"{name}: not a wordfreq cBpack file: its header is not {HEADER}")
    words: list[str] = []
    zipf: list[float] = []
    for index, bucket in enumerate(packed[1:]):
        if not isinstance(bucket, list) or not all(isinstance(w, str) for w in bucket):
            raise InputFormatError(f"{name}: frequency list {index} is not a list of words")
        words += bucket
        zipf += [9 - index / 100] * len(bucket)
    table = pl.DataFrame({"entry": words, "zipf": zipf}, schema={"entry": pl.String, "zipf": pl.Float32})
    # A word is in one bucket only; letters only, as SCOWL's entries (`don't`, `3d` cannot be lexicon words).
    return table.filter(pl.col("entry").str.contains(r"^\p{Ll}+$")).unique("entry", keep="first", maintain_order=True)
