"""stages/sources/wordnet_order.py on glosses in memory: which glosses only restate their word (`circular`),
and which parts of speech say nothing more than the word (`unsaid`). docs/definitions.md, "The main sense
first"; the rules on raw/'s WordNet: tests/integration/test_definitions_everyday.py."""

from __future__ import annotations

import re

import polars as pl
from hypothesis import given, settings, strategies as st

from stages.sources.wordnet_order import ENDINGS, GENERIC, GLOSS_WORDS, OWN_FORMS, circular, said_again, unsaid


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
    assert unsaid(pl.concat([table, said_again(table)], how="horizontal")).rows() == [("spank", "v")]


def circular_by_hand(lemma: str, gloss: str, others: int = 1, own_forms: bool = False) -> bool:
    """wordnet_order.circular's rule for one gloss, in plain Python (its docstring)."""
    if len(lemma) < 3:
        return False
    root = lemma[:-1] if lemma.endswith("e") and not lemma.endswith("ee") else lemma
    endings = OWN_FORMS if own_forms else ENDINGS
    named = other = 0
    for at, word in enumerate(re.findall("[a-z]+", gloss.lower())):
        rest = word[len(root) :]
        stem = word.startswith(root) and (rest in endings or (rest[:1] == root[-1:] and rest[1:] in endings))
        itself = word == lemma
        named += stem or (itself and (at == 0 or not own_forms))
        other += not (itself or stem) and word not in GLOSS_WORDS | GENERIC and len(word) > 2
    return named > 0 and other <= others


GLOSS_PIECES = ["pull", "pulling", "pulls", "stop", "stopping", "heal", "recover", "cause", "to", "move", "of", "the"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["pull", "stop", "heal", "same", "ox", "gold", "plane", "hope", "trainee", "sew"]),
            st.lists(
                st.sampled_from([*GLOSS_PIECES, "Pulled", "coins", "same-ness", "hoping", "x1y", "trained", "sewing"]),
                max_size=6,
            ),
        ),
        max_size=10,
    ),
    st.integers(1, 2),
    st.booleans(),
)
def test_circular_glosses_match_the_rule_written_out(rows, others, own_forms):
    """The circular-gloss rule, computed column-wise over the exploded words (stage 2's peak before), gives
    what the rule gives gloss by gloss, in both of its uses."""
    table = pl.DataFrame(
        [(lemma, " ".join(words)) for lemma, words in rows],
        schema={"lemma": pl.String, "gloss": pl.String},
        orient="row",
    )
    expected = [circular_by_hand(lemma, gloss, others, own_forms) for lemma, gloss in table.rows()]
    assert circular(table, others, own_forms=own_forms).to_list() == expected


def test_circular_explodes_a_chunk_of_glosses_at_a_time_and_flags_each_as_all_at_once(monkeypatch):
    """Stage 2's peak memory was every WordNet gloss's words exploded at once: circular takes CHUNK glosses
    at a time, and a gloss's flag is its own, so the flags are the rule's gloss by gloss."""
    from stages.sources import wordnet_order

    sizes, real = [], wordnet_order._counted
    monkeypatch.setattr(wordnet_order, "CHUNK", 3)
    monkeypatch.setattr(wordnet_order, "_counted", lambda t: sizes.append(t.height) or real(t))
    rows = [
        (lemma, f"{a} {b} {lemma}ing") for lemma in ("pull", "stop", "sew") for a, b in (("to", "x"), ("of", "heal"))
    ]
    table = pl.DataFrame(
        rows + [("heal", "heal or recover")], schema={"lemma": pl.String, "gloss": pl.String}, orient="row"
    )
    for others, own_forms in ((1, False), (2, True)):
        expected = [circular_by_hand(lemma, gloss, others, own_forms) for lemma, gloss in table.rows()]
        assert circular(table, others, own_forms=own_forms).to_list() == expected
    assert sizes == [3, 3, 1] * 2
    assert circular(table.clear()).to_list() == []
    # Both uses from one pass over the words (stage 2 read them twice: 0.7 s of CPU each on raw/'s WordNet).
    sizes.clear()
    both = said_again(table)
    assert both["circular"].to_list() == circular(table).to_list()
    assert both["says_nothing"].to_list() == circular(table, 2, own_forms=True).to_list()
    assert sizes[:3] == [3, 3, 1] and len(sizes) == 9
