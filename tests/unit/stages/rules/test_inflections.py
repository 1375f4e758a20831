"""stages/rules/inflections.py called directly, with the morphology it reads (stages/rules/morphology.py): which
base an inflected form reads through, the same whatever else the lexicon holds and however the sort runs. Stage 2's
inflected definitions on the tiny fixture: tests/unit/stages/test_rareness_definitions.py; on raw/'s dictionaries:
tests/integration/test_definitions.py and test_definitions_everyday.py."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st


from pipeline.columns import Col
from stages.rules import inflections, morphology
from stages.sources.wordnet import exception_lists


EXC = {"w/noun.exc": b"mice mouse\ngeese goose\n", "w/verb.exc": b"held hold\n", "w/adj.exc": b"", "w/adv.exc": b""}

EXCEPTIONS = exception_lists(EXC)

WORDS = st.lists(st.sampled_from(["mice", "held", "holds", "gabbed", "foxes", "cats", "happier", "togae", "x"]))


def test_a_base_form_in_two_exception_lists_takes_the_first_listed():
    """GASSES is in noun.exc and verb.exc with one priority: the noun reading (listed first) wins, every
    time. Many such words, so that an unstable multithreaded sort would show itself."""
    from stages.rules.inflections import inflections
    from stages.rules.morphology import morphology
    from stages.sources.wordnet import exception_lists

    bases = [f"g{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(600)]
    exc = "".join(f"{b}ses {b}\n" for b in bases).encode()
    wordnet = {"w/noun.exc": exc, "w/verb.exc": exc, "w/adj.exc": b"", "w/adv.exc": b""}
    lemmas = pl.DataFrame(
        {
            "lemma": bases * 2,
            "pos": ["n"] * 600 + ["v"] * 600,
            "rank": [0] * 600 + [1] * 600,
            "gloss": ["a thing"] * 600 + ["to do it"] * 600,
            "source": ["wordnet"] * 1200,
        }
    )
    words = pl.Series([f"{b}ses".upper() for b in bases])
    lexicon = pl.concat([words, pl.Series(bases).str.to_uppercase()])
    for _ in range(5):
        found = inflections(words, lemmas, morphology(lexicon, exception_lists(wordnet)), lexicon)
        assert found.height == 600
        assert found[Col.definition].str.starts_with("plural of ").all(), found.filter(
            ~pl.col(Col.definition).str.starts_with("plural of ")
        ).head(3)


@settings(max_examples=100, deadline=None)
@given(WORDS, WORDS)
def test_morphology_of_more_words_gives_the_same_lookups(asked, others):
    """Stage 2 computes the lexicon's morphology once; a lookup for some words reads only their rows."""
    words = pl.Series(sorted(set(asked)), dtype=pl.String).str.to_uppercase()
    lexicon = pl.Series(sorted(set(asked) | set(others) | {"mouse", "hold", "gab", "fox", "cat"}), dtype=pl.String)
    lexicon = lexicon.str.to_uppercase()
    own, more = morphology.morphology(words, EXCEPTIONS), morphology.morphology(lexicon, EXCEPTIONS)
    assert sorted(morphology.lookup_forms(words, own).to_list()) == sorted(
        morphology.lookup_forms(words, more).to_list()
    )
    lemmas = pl.DataFrame(
        {
            "lemma": ["mouse", "hold", "gab", "fox", "cat", "happy", "toga"],
            "pos": ["n", "v", "v", "n", "n", "adj", "n"],
            "rank": [0] * 7,
            "gloss": ["a rodent", "to grasp", "to chatter", "a canine", "a feline", "glad", "a robe"],
            "source": ["wordnet"] * 7,
        }
    )
    assert (
        inflections.inflections(words, lemmas, own, lexicon).to_dicts()
        == inflections.inflections(words, lemmas, more, lexicon).to_dicts()
    )
    proposed = morphology.proposed_bases(lexicon)
    assert proposed.sort(pl.all()).equals(morphology.proposed_bases(lexicon, more).sort(pl.all()))
