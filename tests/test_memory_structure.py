"""Structural facts behind a build's peak memory (issue 46, item 2; the figures are make bench's, never a test's),
and oracles for the code rewritten to lower it.

A build runs its stages in one process, so a library one stage imports stays resident for every stage
after it: pyarrow's shared libraries are about 50 MiB of the resident set. Only the export (the SQLite
writer) needs pyarrow; the stages before it, where a cold build peaks, must not load it.
"""

from __future__ import annotations

import re
import subprocess
import sys

import polars as pl
from hypothesis import given, settings, strategies as st

from conftest import ROOT, copy_tiny
from pipeline.columns import Col
from stages.sources.wordnet_order import ENDINGS, GENERIC, GLOSS_WORDS, circular

# Stages 0-6 of the tiny build, one at a time in this child process; then which heavy libraries it loaded.
BEFORE_EXPORT = """
import sys
from pipeline.config import load_config
from ladders.compose import runner

r = runner(load_config(sys.argv[1]), jobs=1)
for stage in r.stages:
    if stage.name == "export":  # not a column
        break
    r.run(stage)
print("pyarrow" in sys.modules)
"""


def test_no_stage_before_the_export_loads_pyarrow(tmp_path):
    tiny = copy_tiny(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", BEFORE_EXPORT, str(tiny / "config.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False"], "a stage before the export imported pyarrow"


def circular_by_hand(lemma: str, gloss: str) -> bool:
    """wordnet_order.circular's rule for one gloss, in plain Python (its docstring)."""
    if len(lemma) < 3:
        return False
    root = lemma[:-1] if lemma.endswith("e") else lemma
    named = other = 0
    for word in re.findall("[a-z]+", gloss.lower()):
        rest = word[len(root) :]
        is_named = word == lemma or (
            word.startswith(root) and (rest in ENDINGS or (rest[:1] == root[-1:] and rest[1:] in ENDINGS))
        )
        named += is_named
        other += not is_named and word not in GLOSS_WORDS | GENERIC and len(word) > 2
    return named > 0 and other <= 1


GLOSS_PIECES = ["pull", "pulling", "pulls", "stop", "stopping", "heal", "recover", "cause", "to", "move", "of", "the"]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["pull", "stop", "heal", "same", "ox", "gold", "plane", "hope"]),
            st.lists(st.sampled_from([*GLOSS_PIECES, "Pulled", "coins", "same-ness", "hoping", "x1y"]), max_size=6),
        ),
        max_size=10,
    )
)
def test_circular_glosses_match_the_rule_written_out(rows):
    """The circular-gloss rule, computed column-wise over the exploded words (stage 2's peak before), gives
    what the rule gives gloss by gloss."""
    table = pl.DataFrame(
        [(lemma, " ".join(words)) for lemma, words in rows],
        schema={"lemma": pl.String, "gloss": pl.String},
        orient="row",
    )
    assert circular(table).to_list() == [circular_by_hand(lemma, gloss) for lemma, gloss in table.rows()]


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
