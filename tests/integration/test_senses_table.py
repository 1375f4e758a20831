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
from stages.sources.wordnet_order import circular, unsaid

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


def test_a_gcide_key_names_one_of_the_words_own_first_senses():
    firsts = pl.DataFrame({"lemma": ["sunny", "sunny", "hell"], "rank": [0, 1, 0]})
    table, name = read({"t.tsv": b"word\tkey\treason\nSUNNY\tgcide:sunny:2\tweather\nHELL\tgcide:hell:1\tabode\n"})
    assert gcide_resolved(table, name, firsts).rows() == [("SUNNY", "sunny", 1), ("HELL", "hell", 0)]
    for text, line in [
        (b"word\tkey\treason\nSUNNY\tgcide:sunny:3\tweather\n", 2),  # no third first sense
        (b"word\tkey\treason\nHELLS\tgcide:hell:1\tabode\n", 2),  # another word's entry
    ]:
        table, name = read({"t.tsv": text})
        with pytest.raises(InputFormatError, match=f"t.tsv line {line}: gcide:"):
            gcide_resolved(table, name, firsts)
        assert gcide_resolved(table, name, firsts, strict=False).height == 0


def test_the_table_has_each_word_once_with_a_reason():
    table, _ = read({"raw/main_senses.tsv": TABLE.read_bytes()})
    assert table.height > 0 and table["word"].is_unique().all()
    assert (table["reason"].str.strip_chars().str.len_chars() > 0).all()


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "word\tkey\treason\nLID\tlid%1:06:00::\tcover\nLID\tlid%1:08:00::\teye\n",
            "line 3: LID again (first on line 2)",
        ),
        ("LID\tlid%1:06:00::\t \n", "line 1: LID has no reason"),
        ("LID\tlid%1:06:00::\n", "line 1: 2 tab-separated fields"),
        ("L1D\tlid%1:06:00::\tx\n", "line 1: 'L1D' is not a word"),
        ("LID\tlid\tx\n", "line 1: 'lid' is no WordNet sense key"),
        ("L\x1b[2JD\tlid%1:06:00::\tx\n", "line 1: 'L\\\\u001b[2JD' is not a word"),
    ],
)
def test_a_damaged_table_is_an_error_naming_file_and_line(text, message):
    with pytest.raises(InputFormatError) as e:
        read({"t/main_senses.tsv": text.encode()})
    assert f"t/main_senses.tsv {message}" in str(e.value) and "\x1b" not in str(e.value)


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


def test_a_circular_gloss_is_found():
    cases = {
        ("heal", "heal or recover"): True,
        ("pull", "cause to move by pulling"): True,
        ("same", "same in identity"): True,
        ("stop", "a stopping"): True,
        ("gold", "coins made of gold"): True,
        ("hiss", "make a sharp hissing sound, as if to show disapproval"): False,
        ("plane", "cut or remove with or as if with a plane"): False,
        ("lid", "a movable top"): False,
        ("a", "a letter"): False,
    }
    table = pl.DataFrame([k for k in cases], schema=["lemma", "gloss"], orient="row")
    assert circular(table).to_list() == list(cases.values())


def test_a_gloss_naming_its_word_again_in_its_own_forms_is_found():
    # Two other content words at most, and the word named as the gloss's first word or in -ing/-ed forms:
    # a noun the verb is made from, after an article, is another word a reader may know.
    cases = {
        ("sew", "fasten by sewing; do needlework"): True,
        ("spank", "give a spanking to; subject to a spanking"): True,
        ("goad", "goad or provoke"): True,
        ("canter", "ride at a cantering pace"): True,
        ("hoe", "dig with a hoe"): False,
        ("host", "be the host of or for"): False,
        ("trainee", "someone who is being trained"): False,
        ("hiss", "make a sharp hissing sound, as if to show disapproval"): False,
    }
    table = pl.DataFrame([k for k in cases], schema=["lemma", "gloss"], orient="row")
    assert circular(table, 2, own_forms=True).to_list() == list(cases.values())


def test_a_part_of_speech_whose_every_sense_says_nothing_more_is_unsaid():
    rows = [
        ("spank", "v", "give a spanking to"),
        ("spank", "v", "subject to a spanking"),
        ("spank", "n", "a slap with the flat of the hand"),
        ("sew", "v", "fasten by sewing; do needlework"),
        ("sew", "v", "create (clothes) with cloth"),
        ("hoe", "v", "dig with a hoe"),
    ]
    table = pl.DataFrame(rows, schema=["lemma", "pos", "gloss"], orient="row")
    assert unsaid(table).rows() == [("spank", "v")]
