"""The runner: no-op rebuilds, staleness by content, failures that leave outputs intact."""

from __future__ import annotations

import dataclasses
import json

import pytest

from pipeline.errors import InternalError
from pipeline.lock import HASH_CACHE_FILE
from pipeline.runner import LOCK_FILE

import stages.s05_groups
from conftest import snapshot


def actions(reports) -> dict[str, str]:
    return {r.stage.name: r.action for r in reports}


def states(runner) -> dict[str, str]:
    return {s.stage.name: s.state for s in runner.status_all()}


ALL = ["dictionaries", "lexicon", "definitions", "rareness", "links", "groups", "analysis", "export"]


def test_second_build_is_a_no_op(tiny_runner, tiny):
    assert set(actions(tiny_runner().build()).values()) == {"ran"}
    before = snapshot(tiny / "build")
    assert actions(tiny_runner().build()) == dict.fromkeys(ALL, "skipped")
    assert snapshot(tiny / "build") == before
    assert set(states(tiny_runner()).values()) == {"fresh"}


def test_touching_inputs_without_change_reruns_nothing(tiny_runner, tiny):
    tiny_runner().build()
    for p in (tiny / "scowl").iterdir():
        p.write_bytes(p.read_bytes())
    assert actions(tiny_runner().build()) == dict.fromkeys(ALL, "skipped")


def test_changed_scowl_file_makes_rareness_and_what_reads_it_stale_and_nothing_else(tiny_runner, tiny):
    """SCOWL decides everyday's words (stage 5 reads rareness for it): MICE at level 35 joins everyday (wordfreq
    sees it often: ZYZZYVA it does not, so that would change no group)."""
    tiny_runner().build()
    with (tiny / "scowl/english-words.35").open("a") as f:
        f.write("mice\n")
    status = {s.stage.name: (s.state, s.reason) for s in tiny_runner().status_all()}
    assert status == {
        "dictionaries": ("fresh", ""),
        "lexicon": ("fresh", ""),
        "definitions": ("fresh", ""),
        "rareness": ("stale", "input scowl/english-words.35 changed"),
        "links": ("fresh", ""),
        "groups": ("stale", "waits on stage 3 rareness"),
        "analysis": ("stale", "waits on stage 5 groups"),
        "export": ("stale", "waits on stage 3 rareness"),
    }
    ran = dict.fromkeys(("rareness", "groups", "analysis", "export"), "ran")
    assert actions(tiny_runner().build()) == {**dict.fromkeys(ALL, "skipped"), **ran}


def test_changed_word_list_reruns_the_join_of_definitions_not_the_reading_of_the_dictionaries(tiny_runner, tiny):
    """Issue 46 item 1: WordNet, GCIDE and the main-sense table are read by stage 0, which no word list
    reaches: a changed list reruns stage 2's join, and stage 0 is skipped; a changed WordNet file reruns both."""
    tiny_runner().build()
    with (tiny / "csw.txt").open("a") as f:
        f.write("BLORP\n")
    status = {s.stage.name: (s.state, s.reason) for s in tiny_runner().status_all()}
    assert status["dictionaries"] == ("fresh", "")
    assert status["definitions"] == ("stale", "waits on stage 1 lexicon")
    done = actions(tiny_runner().build())
    assert done["dictionaries"] == "skipped" and done["definitions"] == done["lexicon"] == "ran"
    exc = next((tiny / "wordnet").glob("*.exc"))
    exc.write_bytes(exc.read_bytes() + b"zyzzyvas zyzzyva\n")
    status = {s.stage.name: s.state for s in tiny_runner().status_all()}
    assert (status["dictionaries"], status["lexicon"], status["definitions"]) == ("stale", "fresh", "stale")


def test_config_change_names_the_key(tiny_runner, tiny):
    tiny_runner().build()
    with (tiny / "config.toml").open("a") as f:
        f.write('definition_sources = ["wordnet"]\n')
    status = {s.stage.name: (s.state, s.reason) for s in tiny_runner().status_all()}
    assert status["definitions"] == ("stale", "config changed: definition_sources")
    assert status["export"][0] == "stale"


def test_failing_stage_leaves_previous_export_and_lock_byte_identical(tiny_runner, tiny, monkeypatch):
    tiny_runner().build()
    export_before = snapshot(tiny / "build/export")
    lock_before = json.loads((tiny / "build" / LOCK_FILE).read_text())
    (tiny / "csw.txt").write_text((tiny / "csw.txt").read_text() + "COLT\n")

    def boom(**kwargs):
        raise RuntimeError("groups failed")

    monkeypatch.setattr(stages.s05_groups, "STAGE", dataclasses.replace(stages.s05_groups.STAGE, transform=boom))
    with pytest.raises(InternalError, match="stage 5 groups raised RuntimeError: groups failed"):
        tiny_runner().build()
    assert snapshot(tiny / "build/export") == export_before
    lock_after = json.loads((tiny / "build" / LOCK_FILE).read_text())
    assert lock_after["groups"] == lock_before["groups"] and lock_after["export"] == lock_before["export"]
    assert lock_after["links"] != lock_before["links"]  # the stages before it did run and record


def test_altered_intermediate_is_reported_and_rebuilt(tiny_runner, tiny):
    tiny_runner().build()
    links = tiny / "build/04_links.parquet"
    good = links.read_bytes()
    links.write_bytes(good[: len(good) // 2])
    status = {s.stage.name: (s.state, s.reason) for s in tiny_runner().status_all()}
    assert status["links"] == ("altered", "04_links.parquet is not what the stage wrote")
    assert status["groups"] == ("stale", "waits on stage 4 links")
    assert actions(tiny_runner().build())["links"] == "ran"
    assert links.read_bytes() == good
    assert set(states(tiny_runner()).values()) == {"fresh"}


def test_missing_output_and_run_one_stage(tiny_runner, tiny):
    runner = tiny_runner()
    assert states(runner) == {
        "dictionaries": "missing",
        "lexicon": "missing",
        "definitions": "missing",
        "rareness": "missing",
        "links": "missing",
        "groups": "missing",
        "analysis": "missing",
        "export": "missing",
    }
    runner.build()
    (tiny / "build/export/summary.txt").unlink()
    assert states(tiny_runner())["export"] == "missing"
    from pipeline.registry import find

    runner = tiny_runner()
    assert runner.run(find(runner.stages, "export")).action == "ran"
    assert runner.run(find(runner.stages, "4"), force=True).action == "ran"
    assert set(states(tiny_runner()).values()) == {"fresh"}


def test_same_inputs_give_same_bytes(tiny_runner, tiny, tmp_path):
    tiny_runner().build()
    first = snapshot(tiny / "build")
    (tiny / "config.toml").write_text((tiny / "config.toml").read_text().replace('"build"', '"build2"'))
    tiny_runner().build()
    second = snapshot(tiny / "build2")
    caches = {LOCK_FILE, HASH_CACHE_FILE}  # records of the folder itself (paths, inodes), not outputs
    assert {k: v for k, v in first.items() if k not in caches} == {k: v for k, v in second.items() if k not in caches}


def test_hash_cache_spares_rereading_but_never_trusts_a_changed_file(tiny_runner, tiny, monkeypatch):
    """A no-op build takes hashes from .hashes.json by (size, mtime, ctime, inode); new bytes of the same
    size with the old mtime put back still change the ctime, so the stage is stale all the same."""
    import os

    from pipeline import io as pipeline_io
    from pipeline.lock import HASH_CACHE_FILE

    tiny_runner().build()
    assert (tiny / "build" / HASH_CACHE_FILE).is_file()
    hashed: list[int] = []
    real = pipeline_io.sha256
    monkeypatch.setattr(pipeline_io, "sha256", lambda data: hashed.append(len(data)) or real(data))
    assert actions(tiny_runner().build()) == dict.fromkeys(ALL, "skipped")
    assert hashed == []  # nothing read again
    scowl = tiny / "scowl/english-words.35"
    before = scowl.stat()
    text = scowl.read_text()
    scowl.write_text(text[:-2] + text[-2].swapcase() + text[-1])  # same size, one letter's case changed
    os.utime(scowl, ns=(before.st_atime_ns, before.st_mtime_ns))
    status = {s.stage.name: s.state for s in tiny_runner().status_all()}
    assert status["rareness"] == "stale"


def test_a_stage_hands_over_files_only_from_its_scratch_folder(tiny_runner, tiny, monkeypatch, tmp_path):
    """Export writes ladder.sqlite in its scratch folder and the runner moves it; a path anywhere else
    (a file the runner would move away from its owner) is refused, and the scratch folder goes either way."""
    import stages.s07_export as export

    tiny_runner().build()
    before = snapshot(tiny / "build/export")
    elsewhere = tmp_path / "someone-elses.sqlite"
    elsewhere.write_bytes(b"not ours to move")
    real = export.STAGE.transform

    def misplaced(**kwargs):
        result = real(**kwargs)
        result["export"]["ladder.sqlite"] = elsewhere
        return result

    monkeypatch.setattr(export, "STAGE", dataclasses.replace(export.STAGE, transform=misplaced))
    from pipeline.errors import PipelineError

    with pytest.raises(PipelineError, match="handed over a file outside its scratch folder"):
        tiny_runner().run(export.STAGE, force=True)
    assert elsewhere.read_bytes() == b"not ours to move"
    assert snapshot(tiny / "build/export") == before
    assert not list((tiny / "build").glob(".scratch-*"))
