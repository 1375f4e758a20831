"""Everyday takes two sources (issue 44): SCOWL's main lists at the everyday level and wordfreq seeing the word
at least `everyday_min_zipf` often. Here: the wordfreq reader against wordfreq's own API (an independent
oracle: the package's zipf_frequency), stage 3's rule on a tiny explained list, and the judged sample that
set the threshold (tests/data/everyday_known_judged.tsv), whose figures the docs quote."""

from __future__ import annotations

import gzip
import random

import msgpack
import polars as pl
import pytest
import wordfreq
from support.paths import DATA
from pipeline.config import load_config
from pipeline.errors import InputFormatError
from stages.s03_rareness import build_rareness
from stages.sources.wordfreq import zipf_table

JUDGED = DATA / "everyday_known_judged.tsv"
LEVELS = {"10": 1, "20": 1, "35": 4, "40": 20, "50": 200, "55": 2000, "60": 20000, "70": 200000, "80": 2000000}
RARENESS = {**LEVELS, "95": 2_000_001, "absent": 2_000_001}
LABELS = {"common": 35, "uncommon": 50, "rare": 70}


@pytest.fixture(scope="module")
def english() -> pl.DataFrame:
    path = load_config().path("wordfreq")
    return zipf_table(path.name, path.read_bytes())


def test_the_reader_agrees_with_wordfreqs_own_lookup(english):
    """Every word of a random 2,000 of the list, and words it lacks, as wordfreq.zipf_frequency gives them."""
    rng = random.Random(7)
    sample = rng.sample(english["entry"].to_list(), 2000)
    ours = dict(english.filter(pl.col("entry").is_in(sample)).rows())
    for word in sample:
        assert ours[word] == pytest.approx(wordfreq.zipf_frequency(word, "en"), abs=0.005), word
    assert wordfreq.zipf_frequency("qzxjvw", "en") == 0 and "qzxjvw" not in ours


def test_a_damaged_list_is_an_input_error_naming_the_file():
    with pytest.raises(InputFormatError, match="large_en.msgpack.gz: not a wordfreq cBpack file"):
        zipf_table("large_en.msgpack.gz", b"not gzip")
    wrong_header = gzip.compress(msgpack.packb([{"format": "other"}, ["the"]]))
    with pytest.raises(InputFormatError, match="its header is not"):
        zipf_table("large_en.msgpack.gz", wrong_header)


def cbpack(by_zipf: dict[str, float]) -> bytes:
    """A tiny cBpack holding these words at these Zipf frequencies (index = (9 - zipf) * 100)."""
    buckets: list[list[str]] = [[] for _ in range(900)]
    for word, z in by_zipf.items():
        buckets[round((9 - z) * 100)].append(word)
    return gzip.compress(msgpack.packb([{"format": "cB", "version": 1}, *buckets]))


def test_a_word_scowl_rates_everyday_that_wordfreq_rarely_sees_counts_a_level_past_everyday():
    """GOLD (english 35, Zipf 5.17) stays; WIVE (english 20, 1.75) and LADE (english 35, 2.10) and a word
    wordfreq lacks (ZORK, english 10) count at 40; SOOK (Australian 35 only, 2.62) is a regional word: 40
    too; SALVER (english 50) keeps its level whatever its frequency; a word past everyday is never moved
    down by a high frequency (QUARK, english 60, 3.5)."""
    words = ["GOLD", "LADE", "QUARK", "SALVER", "SOOK", "WIVE", "ZORK"]
    lexicon = pl.DataFrame({"id": range(len(words)), "word": words}, schema={"id": pl.UInt32, "word": pl.String})
    scowl = {
        "scowl/english-words.20": b"wive\n",
        "scowl/english-words.10": b"zork\n",
        "scowl/english-words.35": b"gold\nlade\n",
        "scowl/english-words.50": b"salver\n",
        "scowl/english-words.60": b"quark\n",
        "scowl/australian-words.35": b"sook\n",
    }
    freq = {"gold": 5.17, "lade": 2.10, "quark": 3.5, "salver": 1.72, "sook": 2.62, "wive": 1.75}
    out = build_rareness(lexicon, scowl, {"large_en.msgpack.gz": cbpack(freq)}, RARENESS, LABELS, 2.25)
    levels = dict(out["rareness"].select("word", "scowl_level").rows())
    assert levels == {"GOLD": 35, "LADE": 40, "QUARK": 60, "SALVER": 50, "SOOK": 40, "WIVE": 40, "ZORK": 40}
    main = dict(out["rareness"].select("word", "main_level").rows())
    assert main["GOLD"] == 35 and main["WIVE"] == 40 and main["SOOK"] is None  # Australian lists are not main
    assert any("3 words of SCOWL's everyday levels that wordfreq rarely sees" in n for n in out["notes"])


def test_the_judged_sample_bears_out_the_threshold():
    """The figures docs/lexicons.md and the README quote, recomputed from the judgements: at or above the
    threshold at most one word in 100 is unknown to either judge; below it, one in five or more."""
    judged = pl.read_csv(JUDGED, separator="\t", quote_char=None)
    assert judged.height == 300 and judged["word"].n_unique() == 300
    threshold = load_config()["everyday_min_zipf"]
    unknown = (pl.col("judge_a") == "unknown") | (pl.col("judge_b") == "unknown")
    above = judged.filter(pl.col("zipf") >= threshold)
    below = judged.filter(pl.col("zipf") < threshold)
    assert above.filter(unknown).height / above.height <= 0.01
    assert below.filter(unknown).height / below.height >= 0.2
    agree = (judged["judge_a"] == judged["judge_b"]).mean()
    assert agree == pytest.approx(292 / 300)
    # The judges' zipf column is the package's, so the sample stays tied to the pinned list.
    for word, z in judged.select("word", "zipf").head(30).rows():
        assert z == pytest.approx(wordfreq.zipf_frequency(word.lower(), "en"), abs=0.005)
