"""The page's buckets (ladders/artifact/webexport.py `_buckets`), found as a graph's components, against the
union-find over Python tuples they replaced (release peaked there: issue 46, item 2)."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings, strategies as st

from pipeline.columns import Col


def buckets_by_union_find(words: pl.DataFrame, columns: list[str], bucket: int) -> list[list[int]]:
    """webexport._buckets as it was written before (a union-find over Python tuples): the oracle."""
    parent: dict = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = x = parent[parent[x]]
        return x

    keys = [
        [(n, g) for n, g in enumerate(row) if g is not None] or [("none", i)]
        for i, row in enumerate(words.select(columns).rows())
    ]
    for first, *rest in keys:
        for key in rest:
            parent[find(key)] = find(first)
    members: dict = {}
    for i, (first, *_) in enumerate(keys):
        members.setdefault(find(first), []).append(i)
    lengths = words[Col.length].to_list()
    buckets: list[list[int]] = []
    for ids in sorted(members.values(), key=lambda ids: (lengths[ids[0]], ids[0])):
        if not buckets or len(buckets[-1]) + len(ids) > bucket or lengths[buckets[-1][0]] != lengths[ids[0]]:
            buckets.append([])
        buckets[-1].extend(ids)
    return [sorted(b) for b in buckets]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(2, 4), st.none() | st.integers(0, 6), st.none() | st.integers(0, 9)), max_size=40),
    st.integers(1, 6),
)
def test_web_buckets_join_groups_as_a_union_find_does(rows, bucket):
    """The page's buckets (whole substitution groups of every lexicon, joined where they share a word, packed
    by length), now found as a graph's components (release peaked in the union-find before), are those of
    the union-find they replace, for any groups, gaps in their ids, words in no group and bucket size."""
    from ladders.artifact import webexport

    words = pl.DataFrame(rows, schema={Col.length: pl.UInt8, "group_a": pl.UInt32, "group_b": pl.UInt32}, orient="row")
    was, webexport.BUCKET = webexport.BUCKET, bucket
    try:
        found = webexport._buckets(words, ["group_a", "group_b"])
    finally:
        webexport.BUCKET = was
    assert found == buckets_by_union_find(words, ["group_a", "group_b"], bucket)
