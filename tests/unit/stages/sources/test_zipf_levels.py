"""stages/sources/zipf_levels.py: Zipf frequencies onto SCOWL levels, word by word and a column at once."""

from __future__ import annotations

import math

import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from stages.sources.zipf_levels import ZIPF_CUTOFFS, level, levels


def test_cutoffs_fall_as_levels_rise_and_keep_everyday_at_35():
    items = list(ZIPF_CUTOFFS.items())
    assert [lv for lv, _ in items] == sorted(lv for lv, _ in items)
    assert all(a[1] > b[1] for a, b in zip(items, items[1:]))
    assert 35 in ZIPF_CUTOFFS  # the everyday bound (rareness_labels.common) has a cut-off of its own


def test_each_cutoff_is_its_levels_first_value():
    levels_ = list(ZIPF_CUTOFFS)
    for i, (lv, cutoff) in enumerate(ZIPF_CUTOFFS.items()):
        assert level(cutoff) == lv
        below = math.nextafter(cutoff, -math.inf)
        assert level(below) == (levels_[i + 1] if i + 1 < len(levels_) else None)


def test_unknown_words_have_no_level():
    assert level(0.0) is None and level(None) is None and level(float("nan")) is None and level(-1.0) is None
    assert level(8.0) == 10  # "the" and the like


@given(st.lists(st.one_of(st.none(), st.just(math.nan), st.floats(min_value=-1, max_value=9)), max_size=40))
def test_column_agrees_with_word_by_word(values):
    got = levels(pl.Series("zipf", values, dtype=pl.Float64)).to_list()
    assert got == [level(v) for v in values]


@given(st.floats(min_value=0, max_value=8), st.floats(min_value=0, max_value=8))
def test_commoner_never_gets_a_rarer_level(a, b):
    lo, hi = sorted((a, b))
    rank = {None: 100}
    assert (level(hi) or rank[None]) <= (level(lo) or rank[None])
