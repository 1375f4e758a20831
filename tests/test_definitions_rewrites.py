"""Stage 2's speed-ups keep its output: each rewrite checked against the simpler form it replaced, or the
property it relies on, over generated inputs (the build of raw/ is checked byte for byte by hand)."""

from __future__ import annotations

import polars as pl
from hypothesis import example, given, settings
from hypothesis import strategies as st

from stages.rules import inflections, morphology
from stages.sources import gcide, gcide_text
from stages.sources.wordnet import exception_lists

# Text as GCIDE writes it, with the pieces cut and the whitespace folding look at.
PIECES = ["word", "Zool", "e. g", "J", " ", "  ", "\t", "\n", "\u00a0", ".", ". ", ";", ",", "(", ")", "x" * 60]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(TEXTS, min_size=1, max_size=8))
def test_folding_is_whitespace_runs_made_one_space(texts):
    column = pl.Series("t", texts)
    assert column.str.replace_all(gcide_text.FOLD, " ").to_list() == column.str.replace_all(r"\s+", " ").to_list()


@settings(max_examples=300, deadline=None)
@given(st.lists(TEXTS, min_size=1, max_size=8))
@example(["; ,"])  # found by this test: the clause fallback left '.', which a second cut drops
def test_cut_leaves_its_own_output_as_it_is(texts):
    """glosses cuts only the followed pointers' text again, relying on this."""

    def cut(values: list[str | None]) -> list[str | None]:
        return gcide_text.cut(pl.LazyFrame({"gloss": values}, schema={"gloss": pl.String}), "gloss").collect()["gloss"]

    once = [t for t in cut(texts).to_list() if t is not None]
    assert cut(once).to_list() == once


ENTRY = 'Heron \\Her"on\\, n. [OE. heiroun.] (Zool.) 1. Any wading bird. 2. A second sense.\n'
OTHER = "Jamb \\Jamb\\, v. t. See Jam.\n"


def test_an_entry_text_parsed_once_reads_as_parsed_alone():
    """parsed parses each distinct text once for all the index keys that point at it."""
    table = pl.DataFrame(
        {
            "lemma": ["heron", "herons", "jamb", "heron"],
            "entry": [ENTRY, ENTRY, OTHER, OTHER],
            "order": [1, 2, 3, 4],
        }
    )
    together = gcide.parsed(table).collect()
    alone = pl.concat([gcide.parsed(table[i : i + 1]).collect() for i in range(table.height)])
    assert together.to_dicts() == alone.to_dicts()
    assert together["headword"].to_list() == [True, False, True, False]


EXC = {"w/noun.exc": b"mice mouse\ngeese goose\n", "w/verb.exc": b"held hold\n", "w/adj.exc": b"", "w/adv.exc": b""}
EXCEPTIONS = exception_lists(EXC)
WORDS = st.lists(st.sampled_from(["mice", "held", "holds", "gabbed", "foxes", "cats", "happier", "togae", "x"]))


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
