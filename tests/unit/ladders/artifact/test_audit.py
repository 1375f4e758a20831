"""The judged samples of definitions and `make audit` (ladders/artifact/audit.py)."""

from __future__ import annotations

import polars as pl
import pytest
from support.paths import DATA
from ladders.artifact.audit import JUDGEMENTS, SAMPLE, band, judged, precision, report, rule

RULES_JUDGED = DATA / "definitions_rules_judged.tsv"


def read(path) -> pl.DataFrame:
    return pl.read_csv(path, separator="\t", quote_char=None, schema_overrides={"note": pl.String})


@pytest.mark.parametrize("path, text", [(SAMPLE, "text"), (RULES_JUDGED, "definition")], ids=["audit", "rules"])
def test_judged_files_are_whole(path, text):
    table = read(path)
    assert set(table["judgement"]) <= set(JUDGEMENTS)
    assert table[text].null_count() == 0 and table["word"].is_unique().all()
    assert table["word"].str.contains("^[A-Z]+$").all()


def test_the_audit_sample_spans_the_bands():
    table = read(SAMPLE)
    assert table.height >= 300
    assert table.group_by("band").len().filter(pl.col("len") >= 100).height == 3


def test_precision_counts_right_and_minor_and_sets_changed_words_apart():
    sample = pl.DataFrame(
        {
            "word": ["CAT", "DOG", "COW", "EWE"],
            "band": ["<=50"] * 4,
            "source": ["wordnet"] * 4,
            "rule": ["headword"] * 4,
            "judgement": ["right", "minor", "wrong", "wrong"],
            "note": [""] * 4,
            "text": ["a cat [n]", "a dog [n]", "a cow [n]", "a ewe [n]"],
        }
    )
    words = pl.DataFrame(
        {"word": ["CAT", "DOG", "COW", "EWE"], "definition": ["a cat [n]", "a dog [n]", "a cow [n]", None]}
    )
    table = judged(words, sample)
    assert table["changed"].to_list() == [False, False, False, True]  # EWE lost its definition: judge again
    row = precision(table.filter(~pl.col("changed")), "band").row(0, named=True)
    assert (row["judged"], row["right"], row["minor"], row["wrong"]) == (3, 1, 1, 1)
    assert row["precision"] == pytest.approx(2 / 3)
    text = report(words, sample)
    assert "3 unchanged in this build, 1 changed" in text and "EWE: 'a ewe [n]' -> None" in text


@pytest.mark.parametrize(
    "definition, source, word, expected",
    [
        ("a heap [n]", "gcide", "BING", "headword"),
        ("joining words [conj]", "supplement", "AND", "own"),
        ("BE, to exist [v]", "supplement-link", "AM", "own"),
        ("plural of CAT: a cat [n]", "wordnet-inflection", "CATS", "inflection"),
        ("plural of PLENARY", "wordnet-inflection", "PLENARIES", "inflection-bare"),
        ("form of HOLD: keep [v] / occupied [adj]", "wordnet-inflection", "HELD", "irregular"),
        (
            "present tense of LEAD: guide [v] / plural of LEAD: an advantage [n]",
            "wordnet-inflection",
            "LEADS",
            "inflection, two readings",
        ),
        ("past tense of JOIN: become part of [v] / married [adj]", "wordnet-inflection", "JOINED", "inflection+own"),
        ("clothing [n] / present tense of CLOTHE: dress [v]", "wordnet", "CLOTHES", "headword+inflection"),
        ("OFFEND again [v]", "wordnet-derived", "REOFFEND", "derived re-"),
        ("not BATED [adj]", "wordnet-derived", "UNBATED", "derived un-"),
        ("not TOXIC [adj]", "wordnet-derived", "NONTOXIC", "derived non-"),
        ("reverse the action of SNAP [v]", "wordnet-derived", "UNSNAP", "derived un-"),
        ("without PIP [adj]", "wordnet-derived", "PIPLESS", "derived -less"),
        ("the quality of being DRAFTY: not airtight [n]", "wordnet-derived", "DRAFTINESS", "derived -iness"),
        ("in a way that is GULLIBLE: naive [adv]", "wordnet-derived", "GULLIBLY", "derived -bly"),
        ("British spelling of NEUTRALIZER: one who neutralizes [n]", "gcide-derived", "NEUTRALISER", "derived british"),
        (
            "present participle of UNSNAP: reverse the action of SNAP [v]",
            "wordnet-derived",
            "UNSNAPPING",
            "derived+inflection",
        ),
    ],
)
def test_rules_are_read_off_the_text(definition, source, word, expected):
    got = pl.select(rule(pl.lit(definition), pl.lit(source), pl.lit(word))).item()
    assert got == expected


def test_bands():
    got = pl.DataFrame({"level": [10, 50, 55, 95, None]}, schema={"level": pl.UInt8}).select(band(pl.col("level")))
    assert got.to_series().to_list() == ["<=50", "<=50", "51-95", "51-95", "none"]
