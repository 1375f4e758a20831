"""The blind measure of issue 43 (tests/data/definitions_blind_43b.tsv), recomputed: the figures
docs/definitions.md quotes are the judgements' own."""

from __future__ import annotations

import csv
from collections import Counter

from support.paths import DATA, ROOT

ROWS = list(csv.DictReader((DATA / "definitions_blind_43b.tsv").open(encoding="utf-8"), delimiter="\t"))


def verdicts(sample: str, shown: str) -> Counter:
    return Counter(r["verdict"] for r in ROWS if sample in r["sample"].split(",") and shown in r["shown"].split(","))


def test_each_word_of_the_measure_is_judged_before_and_after():
    for sample, size in (("uniform300", 300), ("panel", 517)):
        for shown in ("before", "after"):
            assert sum(verdicts(sample, shown).values()) == size


def test_the_figures_the_docs_quote_are_the_judgements():
    docs = (ROOT / "docs" / "definitions.md").read_text(encoding="utf-8")
    before, after = verdicts("uniform300", "before"), verdicts("uniform300", "after")
    assert f"main sense first {before['main'] / 300:.1%} -> {after['main'] / 300:.1%}" in docs
    assert f"circular {before['circular']} -> {after['circular']}, wrong {before['wrong']} -> {after['wrong']}" in docs
    before, after = verdicts("panel", "before"), verdicts("panel", "after")
    defined_before, defined_after = 517 - before["none"], 517 - after["none"]
    assert defined_before == defined_after == 487
    assert f"{before['main'] / defined_before:.1%} -> {after['main'] / defined_after:.1%} of the 487" in docs
    assert f"{before['main'] / 517:.1%} -> {after['main'] / 517:.1%} of all 517" in docs
    assert f"circular {before['circular']} -> {after['circular']}, wrong {before['wrong']} -> {after['wrong']}" in docs
