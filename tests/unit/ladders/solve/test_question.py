"""Suggestions for an unknown word (question.nearest, issue 42 item 22): one edit away includes two
neighbouring letters swapped (WRAM -> WARM), checked against an independent edit distance."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ladders.solve.question import nearest


def osa(a: str, b: str) -> int:
    """Optimal string alignment distance: changes, deletions, insertions and swaps of neighbours, each 1."""
    d = [[i + j if i * j == 0 else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
    return d[-1][-1]


def test_a_swap_of_neighbours_is_suggested_first_among_the_commonest():
    listed = {"RAM": 1, "WARM": 1, "WRAP": 4, "CRAM": 4, "GRAM": 4, "PRAM": 200}
    assert nearest("WRAM", listed, 5) == ["WARM", "RAM", "CRAM", "GRAM", "WRAP"]
    assert nearest("TEH", {"THE": 1, "TEA": 1, "EH": 1}, 5)[0] == "THE"


@settings(max_examples=300, deadline=None)
@given(
    st.text("ABC", min_size=1, max_size=5),
    st.dictionaries(st.text("ABC", min_size=1, max_size=6), st.integers(1, 3), max_size=25),
    st.integers(1, 4),
)
def test_suggestions_are_the_commonest_words_one_edit_away(word, listed, limit):
    one = sorted(r for w, r in listed.items() if osa(word, w) == 1)
    found = nearest(word, listed, limit)
    if one:
        assert all(osa(word, w) == 1 for w in found) and len(found) == min(limit, len(one))
        assert [listed[w] for w in found] == one[: len(found)]  # commonest first
    else:  # two edits, one after the other (which the alignment distance may count as three)
        assert all(osa(word, w) >= 2 for w in found)
