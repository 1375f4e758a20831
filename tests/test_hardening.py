"""Issue 12: nothing a user types destroys a folder, lies, or ends in a traceback.

Each test is named by the case it walks; each ends in one line on stderr with
the exit code of its kind (pipeline/errors.py) and leaves alone what ladders
did not write.
"""
from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from conftest import ROOT, snapshot
from pipeline.cli import app
from pipeline.runner import LOCK_FILE, MARKER_FILE

cli = CliRunner()


def invoke(*args: str):
    return cli.invoke(app, list(args))


def build(tiny: Path, *extra: str):
    return invoke("build", "--quiet", "--config", str(tiny / "config.toml"), *extra)


def child(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pipeline", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **kw)


# ---- data loss: the build folder guard -------------------------------------------------------

@pytest.mark.parametrize("where", ["empty", "dot", "root", "home", "input folder"])
def test_build_dir_that_is_not_ladders_own_is_refused(tiny, monkeypatch, where):
    monkeypatch.chdir(tiny)
    target = {"empty": "", "dot": ".", "root": "/", "home": str(Path.home()), "input folder": str(tiny / "scowl")}
    before = snapshot(tiny)
    result = build(tiny, "--build-dir", target[where])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: build folder ") and len(result.stderr.splitlines()) == 1
    assert snapshot(tiny) == before


def test_folder_holding_files_ladders_did_not_write_is_refused(tiny, tmp_path):
    other = tmp_path / "mine"
    (other / "export").mkdir(parents=True)
    (other / "export" / "precious.txt").write_text("keep me")
    result = build(tiny, "--build-dir", str(other))
    assert result.exit_code == 2
    assert result.stderr == (f"error: build folder {other} holds files ladders did not write; choose an empty or "
                             "new folder (ladders never replaces what it did not write)\n")
    assert (other / "export" / "precious.txt").read_text() == "keep me"


def test_build_dir_that_is_a_file_is_refused(tiny, tmp_path):
    (tmp_path / "afile").write_text("x")
    result = build(tiny, "--build-dir", str(tmp_path / "afile"))
    assert result.exit_code == 2 and result.stderr == f"error: build folder {tmp_path / 'afile'} is a file, not a folder\n"


def _read_only(folder: Path) -> bool:
    """Make a folder refuse new entries, even to root (chattr +i); False where the machine cannot."""
    if os.geteuid() != 0:
        folder.chmod(0o555)
        return True
    return bool(shutil.which("chattr")) and subprocess.run(["chattr", "+i", str(folder)]).returncode == 0


def test_read_only_build_dir_is_one_line_and_a_no_op_build_still_works(tiny):
    assert build(tiny).exit_code == 0
    folder = tiny / "build"
    if not _read_only(folder):
        pytest.skip("cannot make a folder read-only for root here (no chattr +i on this filesystem)")
    try:
        assert build(tiny).exit_code == 0  # nothing to write: a read-only build folder is fine
        result = build(tiny, "--force")
        assert result.exit_code == 4
        assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1
        assert str(folder) in result.stderr and "permissions" in result.stderr
    finally:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(0o755)
    assert build(tiny).exit_code == 0


def test_build_dir_that_cannot_be_created_is_one_line(tiny, tmp_path):
    (tmp_path / "afile").write_text("x")
    result = build(tiny, "--build-dir", str(tmp_path / "afile" / "build"))
    assert result.exit_code in (2, 4), result.output
    assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1
    assert (tmp_path / "afile").read_text() == "x"


def test_dev_null_as_an_input_is_a_config_error(tiny):
    config = tiny / "config.toml"
    config.write_text(config.read_text().replace('csw = "csw.txt"', 'csw = "/dev/null"'))
    result = build(tiny)
    assert result.exit_code == 2
    assert result.stderr == f"error: {config}: key 'csw': /dev/null is not a file\n"


def test_a_new_build_dir_gets_the_marker_and_builds_again(tiny, tmp_path):
    assert build(tiny, "--build-dir", str(tmp_path / "fresh")).exit_code == 0
    assert (tmp_path / "fresh" / MARKER_FILE).is_file()
    assert build(tiny, "--build-dir", str(tmp_path / "fresh")).exit_code == 0


def test_an_older_build_dir_with_a_lock_but_no_marker_is_ours(tiny):
    assert build(tiny).exit_code == 0
    (tiny / "build" / MARKER_FILE).unlink()
    assert build(tiny, "--force").exit_code == 0
    assert (tiny / "build" / MARKER_FILE).is_file()


# ---- silent wrong results ---------------------------------------------------------------------

def test_config_with_another_tool_table_still_reads_its_top_level_keys(tiny):
    (tiny / "other.txt").write_text("AXE\nAYE\n")
    config = (tiny / "config.toml").read_text().replace('csw = "csw.txt"', 'csw = "other.txt"')
    (tiny / "config.toml").write_text(config + "\n[tool.black]\nline-length = 100\n")
    assert build(tiny).exit_code == 0
    words = pl.read_parquet(tiny / "build/export/words.parquet")
    assert set(words.filter(pl.col("in_csw"))["word"]) == {"AXE", "AYE"}


def test_config_with_both_a_ladders_table_and_top_level_keys_is_an_error(tiny):
    (tiny / "config.toml").write_text((tiny / "config.toml").read_text() + '\n[tool.ladders]\nlenient = true\n')
    result = build(tiny)
    assert result.exit_code == 2
    assert "has both a [tool.ladders] table and top-level keys" in result.stderr


def test_lenient_build_is_fresh_for_lenient_status(tiny):
    (tiny / "csw.txt").write_text((tiny / "csw.txt").read_text() + "C4T\n")
    assert build(tiny, "--lenient").exit_code == 0
    assert invoke("status", "--config", str(tiny / "config.toml"), "--lenient").exit_code == 0
    strict = invoke("status", "--config", str(tiny / "config.toml"))
    assert strict.exit_code == 1 and "config changed: lenient" in strict.stdout


# ---- damaged state becomes a line, not a traceback ------------------------------------------

@pytest.mark.parametrize("content", ["[]", "null", "{\"lexicon\": 3}", "not json"])
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


def test_malformed_wordnet_file_is_one_line(tiny):
    (tiny / "wordnet/index.noun").write_text("cat n\n")
    result = build(tiny)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == "error: WordNet file index.noun: not an index line: 'cat n'"
    assert "Traceback" not in result.stderr


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
    from pipeline.solve.solver import Ladders, UnknownWord

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


# ---- the environment ------------------------------------------------------------------------

def _limit_file_size(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_full_disk_keeps_the_previous_export_byte_identical(tiny):
    """A size-limited process stands in for a full disk: ladder.sqlite (32 KB) cannot be written."""
    assert build(tiny).exit_code == 0
    before = snapshot(tiny / "build/export")
    (tiny / "csw.txt").write_text((tiny / "csw.txt").read_text() + "COLT\n")
    proc = child("build", "--quiet", "--config", str(tiny / "config.toml"), preexec_fn=_limit_file_size(20_000))
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 4, err
    last = err.splitlines()[-1]  # the scratch SQLite file or an export file: whichever hits the limit first
    assert "(ulimit -f) is 20,000 bytes" in last and "Traceback" not in err  # the limit named, not a full disk
    assert snapshot(tiny / "build/export") == before
    assert build(tiny).exit_code == 0
    assert not (tiny / "build/.export.new").exists()


def test_a_failure_while_feeding_sqlite_is_not_called_a_full_disk(monkeypatch):
    """The rows reach SQLite through ADBC's stream, which would report any error of ours as its own:
    the real one comes out, and only SQLite's own failures are said to be a full disk."""
    import polars as pl

    from pipeline.artifact import contract

    words = pl.DataFrame(schema=contract.WORDS).clear(1)  # one row of nulls
    calls = []

    def failing(frame):
        calls.append(frame.height)
        if len(calls) > 1:  # the first call only reads the schema
            raise MemoryError("no room for the batch")
        return original(frame)

    original = contract.sqlite_words
    monkeypatch.setattr(contract, "sqlite_words", failing)
    with pytest.raises(MemoryError, match="no room for the batch"):
        contract.sqlite_bytes(words)


def test_ctrl_c_says_what_finished_and_keeps_the_export(tiny):
    assert build(tiny).exit_code == 0
    before = snapshot(tiny / "build/export")
    proc = child("build", "--force", "--config", str(tiny / "config.toml"),
                 env={**os.environ, "LADDERS_TEST_FAULT": "links:transform"})
    for line in proc.stderr:
        if "fault point links:transform" in line:
            break
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err.splitlines()[-1] == (f"interrupted: stages finished: 1 lexicon, 2 definitions, 3 rareness; the stage "
                                    f"that was running left nothing behind, and {tiny / 'build/export'} is as it was")
    assert snapshot(tiny / "build/export") == before


def test_ctrl_c_while_the_export_is_written_leaves_nothing_behind(tiny):
    """Interrupted with the new export folder half written (and ladder.sqlite moved out of the scratch
    folder): the message's "left nothing behind" holds at once, not only after the next build."""
    assert build(tiny).exit_code == 0
    before = snapshot(tiny / "build/export")
    proc = child("run", "export", "--force", "--config", str(tiny / "config.toml"),
                 env={**os.environ, "LADDERS_TEST_FAULT": "export:write"})
    for line in proc.stderr:
        if "fault point export:write" in line:
            break
    assert (tiny / "build/.export.new/ladder.sqlite").is_file()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err.splitlines()[-1].startswith("interrupted: stages finished: none")
    assert sorted(p.name for p in (tiny / "build").iterdir() if p.name.startswith(".") and p.is_dir()) == []
    assert snapshot(tiny / "build/export") == before


def test_stale_export_new_is_removed_by_the_next_build(tiny):
    assert build(tiny).exit_code == 0
    leftover = tiny / "build/.export.new"
    leftover.mkdir()
    (leftover / "words.parquet").write_bytes(b"half")
    assert build(tiny).exit_code == 0
    assert not leftover.exists()


# ---- verify checks the data, not the manifest's word for it ---------------------------------

def _rehash(export: Path) -> None:
    """Make manifest.json agree with the files as they now are: a tamperer's cover-up."""
    import hashlib
    import json

    manifest = json.loads((export / "manifest.json").read_text())
    for name, entry in manifest["files"].items():
        if (export / name).is_file():
            entry["sha256"] = hashlib.sha256((export / name).read_bytes()).hexdigest()
    (export / "manifest.json").write_text(json.dumps(manifest))


def _codes(export: Path) -> set[str]:
    from pipeline.artifact.verify import verify

    return {code for code, _, _ in verify(export)}


def test_verify_finds_a_link_removed_everywhere_with_the_manifest_rehashed(tiny, tmp_path):
    from pipeline.artifact.contract import sqlite_bytes

    assert build(tiny).exit_code == 0
    export = tmp_path / "export"
    shutil.copytree(tiny / "build/export", export)
    words = pl.read_parquet(export / "words.parquet")
    cat, cot = (words.filter(pl.col("word") == w)["id"].item() for w in ("CAT", "COT"))
    words = words.with_columns(pl.col("links").list.set_difference(
        pl.when(pl.col("id") == cat).then(pl.lit([cot], pl.List(pl.UInt32)))
        .when(pl.col("id") == cot).then(pl.lit([cat], pl.List(pl.UInt32)))
        .otherwise(pl.lit([], pl.List(pl.UInt32)))).list.sort())
    words.write_parquet(export / "words.parquet")
    (export / "ladder.sqlite").write_bytes(sqlite_bytes(words))  # the damaged lists, as a tamperer would
    _rehash(export)
    assert "E108" in _codes(export)


def test_verify_finds_a_dropped_index_and_a_manifest_entry_deleted(tiny, tmp_path):
    import json
    import sqlite3

    assert build(tiny).exit_code == 0
    export = tmp_path / "export"
    shutil.copytree(tiny / "build/export", export)
    con = sqlite3.connect(export / "ladder.sqlite")
    con.execute("DROP INDEX words_group_csw")
    con.commit()
    con.close()
    _rehash(export)
    assert _codes(export) == {"E401"}
    manifest = json.loads((export / "manifest.json").read_text())
    del manifest["files"]["groups.parquet"]
    (export / "manifest.json").write_text(json.dumps(manifest))
    assert "E004" in _codes(export)


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
    for result in (invoke("solve", "cat", "dog", "--export", str(other)),
                   invoke("diff", str(tiny / "build/export"), str(other))):
        assert result.exit_code == 3, result.output
        assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1
