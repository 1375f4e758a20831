"""stages/sources/wordnet_order.py on glosses in memory: which glosses only restate their word (`circular`),
and which parts of speech say nothing more than the word (`unsaid`). docs/definitions.md, "The main sense
first"; the rules on raw/'s WordNet: tests/integration/test_definitions_everyday.py."""

from __future__ import annotations

import polars as pl

from stages.sources.wordnet_order import circular, unsaid


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
