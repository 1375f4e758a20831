"""A stage that declares `pops_inputs` owns its inputs: what it pops and lets go is freed during its run,
not held by the runner until it returns (pipeline/stage.py). Stage 2 frees GCIDE's entries this way."""

from __future__ import annotations

import dataclasses
import weakref

import stages.s02_definitions as definitions


def test_an_input_a_stage_pops_is_freed_while_it_runs(tiny_runner, monkeypatch):
    real, seen = definitions.STAGE.transform, {}

    def popping(inputs: dict) -> dict:
        table = inputs.pop("main_senses")
        gone, inputs["main_senses"] = weakref.ref(table), table.clone()  # a new frame goes on in its place
        del table
        seen["freed"] = gone() is None  # nothing else (the runner, the executor) held the frame
        return real(inputs)

    monkeypatch.setattr(definitions, "STAGE", dataclasses.replace(definitions.STAGE, transform=popping))
    tiny_runner().build()
    assert seen == {"freed": True}


def test_stage_two_hands_gcide_entries_over_so_that_letting_them_go_frees_them(tiny_runner, monkeypatch):
    real, seen = definitions.join_definitions, {}

    def spy(lexicon, wordnet_senses, wordnet_domains, wordnet_names, wordnet_exceptions, gcide_entries, *rest):
        gone, copy = weakref.ref(gcide_entries), gcide_entries.clone()
        del gcide_entries
        seen["freed"] = gone() is None
        return real(lexicon, wordnet_senses, wordnet_domains, wordnet_names, wordnet_exceptions, copy, *rest)

    monkeypatch.setattr(definitions, "join_definitions", spy)
    tiny_runner().build()
    assert seen == {"freed": True}
