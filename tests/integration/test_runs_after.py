"""A stage's `runs_after` (pipeline/stage.py): a scheduling hint. Stage 6 (analysis) starts after stage 2
(definitions) when a build runs both, so that their peaks of memory do not meet (docs/performance.md);
it reads nothing of stage 2's, so stage 2's inputs never make it stale."""

from __future__ import annotations

from ladders.compose import stages as all_stages
from pipeline.runner import waits_for


def by_name() -> dict:
    return {s.name: s for s in all_stages()}


def test_analysis_starts_after_definitions_as_well_as_after_what_it_reads():
    every = all_stages()
    assert waits_for(every, every)["analysis"] == {"lexicon", "links", "groups", "definitions"}
    assert "definitions" not in by_name()["analysis"].reads  # not a column: a hint, not an input


def test_a_hint_names_only_stages_of_the_build():
    every, named = all_stages(), by_name()
    assert waits_for(every, [named["analysis"]]) == {"analysis": set()}
    assert waits_for(every, [named["definitions"], named["analysis"]])["analysis"] == {"definitions"}


def test_what_makes_definitions_stale_leaves_analysis_fresh(tiny_runner, tiny):
    tiny_runner().build()
    with (tiny / "supplement.txt").open("a") as f:
        f.write("ZZZ a word of our own [n]\n")
    status = {s.stage.name: s.state for s in tiny_runner().status_all()}
    assert status["definitions"] == "stale" and status["analysis"] == "fresh"
