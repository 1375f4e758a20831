"""The reviewed main-sense table (raw/main_senses.tsv, stages/sources/main_senses.py) and the evidence WordNet
gives for a word's main sense (sense keys, cntlist.rev's tag counts, circular glosses: stages/sources/wordnet.py,
stages/sources/wordnet_order.py). docs/definitions.md, "The main sense first"."""

from __future__ import annotations

import polars as pl
import pytest
from support.paths import ROOT
from pipeline.errors import InputFormatError
from stages.rules.main_senses import candidates, gcide_resolved, resolved
from stages.rules.morphology import morphology
from stages.sources.gcide import glosses as gcide_glosses
from stages.sources.gcide_dictd import entries
from stages.sources.main_senses import read
from stages.sources.wordnet import exception_lists, proper_lemmas, senses, tag_counts

RAW = ROOT / "raw"
TABLE = RAW / "main_senses.tsv"


@pytest.fixture(scope="module")
def wordnet() -> dict[str, bytes]:
    return {f"wordnet/{p.name}": p.read_bytes() for p in (RAW / "wordnet").iterdir()}


@pytest.fixture(scope="module")
def wordnet_senses(wordnet) -> pl.DataFrame:
    return senses(wordnet)


def test_every_key_of_the_table_is_a_sense_of_its_word(wordnet, wordnet_senses):
    """Against raw/'s WordNet and the whole CSW list (a form's key names its base's sense: HOOKS -> HOOK), every
    key of the committed table resolves: strictly, so a stale key fails here, not quietly in a build."""
    table, name = read({"raw/main_senses.tsv": TABLE.read_bytes()})
    csw = (RAW / "lexicons" / "sowpods.txt").read_text().split()
    bases = pl.Series(sorted({w.upper() for w in csw}))
    forms = morphology(table["word"], exception_lists(wordnet))
    found = candidates(table["word"], wordnet_senses, forms, bases, proper_lemmas(wordnet))
    gcide = {f"gcide/{p.name}": p.read_bytes() for p in (RAW / "gcide").iterdir()}
    theirs = table.filter(pl.col("key").str.starts_with("gcide:"))
    gcide_firsts = gcide_glosses(entries(gcide), theirs["word"].str.to_lowercase())
    assert resolved(table, name, found).height + gcide_resolved(theirs, name, gcide_firsts).height == table.height


def test_the_table_has_each_word_once_with_a_reason():
    table, _ = read({"raw/main_senses.tsv": TABLE.read_bytes()})
    assert table.height > 0 and table["word"].is_unique().all()
    assert (table["reason"].str.strip_chars().str.len_chars() > 0).all()


def test_a_key_that_no_longer_resolves_stops_the_build(wordnet, wordnet_senses):
    table, name = read(
        {"raw/main_senses.tsv": b"word\tkey\treason\nLID\tlid%1:06:00::\tcover\nCOD\tlid%1:08:00::\teye\n"}
    )
    words = pl.Series(["COD", "LID"])
    found = candidates(
        words, wordnet_senses, morphology(words, exception_lists(wordnet)), words, proper_lemmas(wordnet)
    )
    with pytest.raises(InputFormatError, match=r"raw/main_senses.tsv line 3: lid%1:08:00:: is no sense of COD"):
        resolved(table, name, found)


def test_sense_keys_are_wordnets_own(wordnet, wordnet_senses):
    # Independent oracle: cntlist.rev names senses by key; nearly every lower-case single-word key it counts
    # must be one senses() computes (the rest are 3.0's leftovers from older versions: harass%2:41:00::).
    counted = tag_counts(wordnet).filter(pl.col("sense_id").str.contains(r"^[a-z]+%"))
    ours = wordnet_senses.select(pl.col("key").str.extract(r"^(\S+%\d:\d\d:\d\d):", 1).alias("sense_id"))
    assert counted.join(ours, on="sense_id").height / counted.height > 0.94
    assert wordnet_senses["key"].is_unique().all()
    lid = dict(wordnet_senses.filter(pl.col("lemma") == "lid").select("key", "count").rows())
    assert lid == {"lid%1:08:00::": 4, "lid%1:06:00::": 0, "lid%1:06:01::": 0}
    assert wordnet_senses.filter(pl.col("key") == "gold%5:00:00:metallic:00").height == 1
