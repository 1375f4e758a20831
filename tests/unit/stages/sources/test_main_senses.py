"""The main-sense table's reader (stages/sources/main_senses.py) and its GCIDE keys' check
(stages/rules/main_senses.py `gcide_resolved`) on tables in memory; the committed table against raw/'s
dictionaries: tests/integration/test_senses_table.py."""

from __future__ import annotations

import polars as pl
import pytest

from pipeline.errors import InputFormatError
from stages.rules.main_senses import forms_as_chosen, gcide_resolved
from stages.sources.main_senses import read


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


def test_a_form_leads_with_the_reading_the_table_gives_it():
    best = pl.DataFrame(
        {
            "id": [1, 2, 3, 4],
            "word": ["PANTS", "CHIPS", "ANDS", "LONGS"],
            "definition": [
                "present tense of PANT: breathe noisily [v] / plural of PANT: underpants worn by women [n]",
                "A fragment. [n]",
                "plural of AND: our own text [n]",
                "plural of LONG: x [n] / " + "y" * 80 + " [v]",
            ],
            "definition_source": ["wordnet-inflection", "gcide", "supplement", "wordnet-inflection"],
        },
        schema_overrides={"id": pl.UInt32},
    )
    chosen = pl.DataFrame(
        {
            "word": ["PANTS", "CHIPS", "ANDS", "LONGS", "PANT"],
            "lemma": ["pant", "chip", "and", "long", "pant"],
            "pos": ["n", "n", "n", "n", "v"],
            "key": ["k1", "k2", "k3", "k4", "k5"],
            "gloss": [
                "plural of PANT: a garment covering each leg",
                "plural of CHIP: a thin crisp slice of potato",
                "plural of AND: ours",
                "plural of LONG: a long time",
                "breathe noisily",  # the word's own sense: the rules' business, not this
            ],
        }
    )
    got, changed = forms_as_chosen(best, chosen, 100)
    texts = dict(got.select("word", "definition").rows())
    assert texts == {
        # The chosen reading first; the one it replaces (plural of PANT, [n]) gone; the verb follows.
        "PANTS": "plural of PANT: a garment covering each leg [n] / present tense of PANT: breathe noisily [v]",
        "CHIPS": "plural of CHIP: a thin crisp slice of potato [n]",  # GCIDE's text replaced whole
        "ANDS": "plural of AND: our own text [n]",  # a list's own text stays
        "LONGS": "plural of LONG: a long time [n]",  # what follows must fit the limit
    }
    assert changed == 3 and got.columns == best.columns and got.height == best.height
    sources = dict(got.select("word", "definition_source").rows())
    assert sources["CHIPS"] == "wordnet-inflection" and sources["ANDS"] == "supplement"
