"""Damaged or foreign state is one line, not a traceback: a damaged lock costs a rebuild, a damaged
export or one of another schema_version is refused; --debug shows the traceback; small CLI cases
that once ended in one (a zero --limit, the lexicon's case, a Ladders object across a rebuild)."""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest

from conftest import build, child, invoke
from pipeline.runner import LOCK_FILE


@pytest.mark.parametrize("content", ["[]", "null", '{"lexicon": 3}', "not json"])
def test_damaged_lock_costs_a_rebuild_not_a_refusal(tiny, content):
    assert build(tiny).exit_code == 0
    (tiny / "build" / LOCK_FILE).write_text(content)
    status = invoke("status", "--config", str(tiny / "config.toml"))
    assert status.exit_code == 1 and "never built into this folder" in status.stdout
    again = invoke("build", "--config", str(tiny / "config.toml"))
    assert again.exit_code == 0
    assert again.stderr.count("is damaged; every stage counts as stale") == 1  # said once, not per stage
    assert invoke("status", "--config", str(tiny / "config.toml")).exit_code == 0


def test_solve_and_diff_on_a_damaged_export_are_one_line(tiny, tmp_path):
    assert build(tiny).exit_code == 0
    damaged = tmp_path / "damaged"
    shutil.copytree(tiny / "build/export", damaged)
    for name in ("words.parquet", "ladder.sqlite"):  # diff reads the first, solve the second
        data = (damaged / name).read_bytes()
        (damaged / name).write_bytes(data[: len(data) // 2])
    solve = invoke("solve", "cat", "dog", "--export", str(damaged))
    assert solve.exit_code == 3 and len(solve.stderr.splitlines()) == 1 and solve.stderr.startswith("error: ")
    diff = invoke("diff", str(tiny / "build/export"), str(damaged))
    assert diff.exit_code == 3 and len(diff.stderr.splitlines()) == 1
    missing = invoke("solve", "cat", "dog", "--export", str(tmp_path / "nowhere"))
    assert missing.exit_code == 3 and "is not an export (manifest.json does not exist)" in missing.stderr


def test_debug_shows_the_traceback(tiny, tmp_path):
    assert build(tiny).exit_code == 0
    damaged = tmp_path / "damaged"
    shutil.copytree(tiny / "build/export", damaged)
    manifest = json.loads((damaged / "manifest.json").read_text())
    manifest["config"]["rareness_labels"] = ["common"]  # a shape no ladders writes: an unexpected error
    (damaged / "manifest.json").write_text(json.dumps(manifest))
    quiet = child("solve", "cat", "dog", "--export", str(damaged))
    _, err = quiet.communicate(timeout=60)
    assert quiet.returncode == 3 and "Traceback" not in err
    loud = child("--debug", "solve", "cat", "dog", "--export", str(damaged))
    _, err = loud.communicate(timeout=60)
    assert loud.returncode != 0 and "Traceback" in err


def test_diff_exit_code_says_whether_exports_differ(tiny, tmp_path):
    assert build(tiny).exit_code == 0
    same = invoke("diff", str(tiny / "build/export"), str(tiny / "build/export"))
    assert same.exit_code == 0
    (tiny / "csw.txt").write_text((tiny / "csw.txt").read_text() + "COLT\n")
    assert build(tiny, "--build-dir", str(tmp_path / "b2")).exit_code == 0
    assert invoke("diff", str(tiny / "build/export"), str(tmp_path / "b2/export")).exit_code == 1


def test_solve_limit_zero_is_a_usage_error(tiny):
    assert build(tiny).exit_code == 0
    result = invoke("solve", "--all", "cat", "dog", "--limit", "0", "--export", str(tiny / "build/export"))
    assert result.exit_code == 2


def test_a_ladders_object_follows_a_rebuild(tiny):
    from ladders.solve.question import UnknownWord
    from ladders.solve.solver import Ladders

    assert build(tiny).exit_code == 0
    ladders = Ladders.open(tiny / "build/export")
    assert ladders.shortest("cat", "dog").steps == 3  # caches CAT's group and the word index
    with pytest.raises(UnknownWord):
        ladders.shortest("cat", "cag")
    (tiny / "csw.txt").write_text((tiny / "csw.txt").read_text() + "CAG\nAAA\nAAB\n")
    assert build(tiny).exit_code == 0  # new ids for every word after AAA: the old cache would be wrong
    assert ladders.shortest("cat", "cag").words == ["CAT", "CAG"]
    assert ladders.shortest("cat", "dog").steps == 3
    assert ladders.shortest("aaa", "aab").steps == 1


def test_lexicon_choice_is_case_insensitive(tiny):
    assert build(tiny).exit_code == 0
    assert invoke("solve", "cat", "cot", "--lexicon", "CSW", "--export", str(tiny / "build/export")).exit_code == 0


def test_solve_and_diff_on_an_export_of_another_schema_version_are_one_line(tiny, tmp_path):
    import json

    assert build(tiny).exit_code == 0
    other = tmp_path / "other"
    shutil.copytree(tiny / "build/export", other)
    manifest = json.loads((other / "manifest.json").read_text())
    manifest["schema_version"] = 99
    (other / "manifest.json").write_text(json.dumps(manifest))
    words = pl.read_parquet(other / "words.parquet").drop("edit_links")  # what a future layout might do
    words.write_parquet(other / "words.parquet")
    for result in (
        invoke("solve", "cat", "dog", "--export", str(other)),
        invoke("diff", str(tiny / "build/export"), str(other)),
    ):
        assert result.exit_code == 3, result.output
        assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1
