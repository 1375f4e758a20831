"""Stage 2's speed-ups keep its output: each rewrite checked against the simpler form it replaced, or the
property it relies on, over generated inputs (the build of raw/ is checked byte for byte by hand)."""

from __future__ import annotations

import polars as pl
from hypothesis import example, given, settings
from hypothesis import strategies as st

from stages.sources import gcide, gcide_text

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
