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
