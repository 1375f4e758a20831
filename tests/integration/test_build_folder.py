"""The build folder is ladders' own and survives what the machine does: folders it must not touch
are refused, a read-only or full disk and Ctrl-C leave the previous export as it was, a killed write
is cleaned up. Each case ends in one line on stderr with the exit code of its kind."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import threading
import subprocess
from pathlib import Path

import polars as pl
import pytest

from conftest import build, child, snapshot
from pipeline.runner import MARKER_FILE


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
    assert result.stderr == (
        f"error: build folder {other} holds files ladders did not write; choose an empty or "
        "new folder (ladders never replaces what it did not write)\n"
    )
    assert (other / "export" / "precious.txt").read_text() == "keep me"


def test_build_dir_that_is_a_file_is_refused(tiny, tmp_path):
    (tmp_path / "afile").write_text("x")
    result = build(tiny, "--build-dir", str(tmp_path / "afile"))
    assert (
        result.exit_code == 2 and result.stderr == f"error: build folder {tmp_path / 'afile'} is a file, not a folder\n"
    )


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


def test_a_new_build_dir_gets_the_marker_and_builds_again(tiny, tmp_path):
    assert build(tiny, "--build-dir", str(tmp_path / "fresh")).exit_code == 0
    assert (tmp_path / "fresh" / MARKER_FILE).is_file()
    assert build(tiny, "--build-dir", str(tmp_path / "fresh")).exit_code == 0


def test_an_older_build_dir_with_a_lock_but_no_marker_is_ours(tiny):
    assert build(tiny).exit_code == 0
    (tiny / "build" / MARKER_FILE).unlink()
    assert build(tiny, "--force").exit_code == 0
    assert (tiny / "build" / MARKER_FILE).is_file()


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

    from pipeline import columns, sqlite

    words = pl.DataFrame(schema=columns.words_schema(columns.DEFAULT_LEXICONS)).clear(1)  # one row of nulls
    calls = []

    def failing(frame, table):
        calls.append(frame.height)
        if len(calls) > 1:  # the first call only reads the schema
            raise MemoryError("no room for the batch")
        return original(frame, table)

    original = sqlite.sqlite_words
    monkeypatch.setattr(sqlite, "sqlite_words", failing)
    with pytest.raises(MemoryError, match="no room for the batch"):
        sqlite.sqlite_bytes(words)


def interrupt_at(tiny: Path, faults: str, *, after: str, jobs: str, **popen) -> str:
    """A forced build sleeping at the fault points `faults`, sent Ctrl-C once stderr showed every line
    in `after` (separated by commas); its last line of stderr. The export must be as it was."""
    assert build(tiny).exit_code == 0
    before = snapshot(tiny / "build/export")
    config = str(tiny / "config.toml")
    env = {**os.environ, "LADDERS_TEST_FAULT": faults}
    proc = child("build", "--force", "-j", jobs, "--config", config, env=env, **popen)
    awaited = set(after.split(","))
    # A line that never comes would leave the build asleep at its fault point and this loop waiting for ever:
    # past a bound no healthy build nears, the build is killed and the test fails on its exit code instead.
    watchdog = threading.Timer(300, proc.kill)
    watchdog.start()
    try:
        for line in proc.stderr:
            awaited = {a for a in awaited if a not in line}
            if not awaited:
                break
    finally:
        watchdog.cancel()
    assert not awaited, f"the build never said {sorted(awaited)}"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert snapshot(tiny / "build/export") == before
    return err.splitlines()[-1]


def test_ctrl_c_says_what_finished_and_keeps_the_export(tiny):
    last = interrupt_at(tiny, "links:transform", after="fault point links:transform", jobs="1")
    assert last == (
        f"interrupted: stages finished: 0 dictionaries, 1 lexicon, 2 definitions, 3 rareness; the stage "
        f"that was running left nothing behind, and {tiny / 'build/export'} is as it was"
    )


def test_kill_int_of_a_build_started_in_the_background_by_a_script_says_the_same(tiny):
    """A script's `ladders build &` (CI) starts with SIGINT ignored: `kill -INT` did nothing and the build ran
    on (here it sat at its fault point until the test's timeout). Now the same lines as at a terminal: the
    safe point, then what finished."""
    import signal as signals

    ignored = interrupt_at(
        tiny,
        "links:transform",
        after="fault point links:transform",
        jobs="1",
        preexec_fn=lambda: signals.signal(signals.SIGINT, signals.SIG_IGN),
    )
    assert ignored == (
        f"interrupted: stages finished: 0 dictionaries, 1 lexicon, 2 definitions, 3 rareness; the stage "
        f"that was running left nothing behind, and {tiny / 'build/export'} is as it was"
    )


def test_stages_that_read_nothing_of_a_slow_one_finish_beside_it(tiny):
    """Stage 2 held in its transform: 3 -> 4 -> 5 finish meanwhile (they read only stage 1's table and each
    other's); 6, which reads nothing of stage 2's, waits for it all the same (its `runs_after` hint keeps
    their peaks of memory apart), and export waits for both."""
    last = interrupt_at(tiny, "definitions:transform", after="5 groups", jobs="2")
    assert last == (
        f"interrupted: stages finished: 0 dictionaries, 1 lexicon, 3 rareness, 4 links, 5 groups; the stage "
        f"that was running left nothing behind, and {tiny / 'build/export'} is as it was"
    )


def test_ctrl_c_with_two_stages_running_names_both(tiny):
    faults = "definitions:transform,links:transform"
    last = interrupt_at(tiny, faults, after="fault point definitions,fault point links", jobs="2")
    assert last.startswith(
        "interrupted: stages finished: 0 dictionaries, 1 lexicon, 3 rareness; the stages that were running "
    )
    assert "(2 definitions, 4 links) left nothing behind" in last


def test_ctrl_c_while_the_export_is_written_leaves_nothing_behind(tiny):
    """Interrupted with the new export folder half written (and ladder.sqlite moved out of the scratch
    folder): the message's "left nothing behind" holds at once, not only after the next build."""
    assert build(tiny).exit_code == 0
    before = snapshot(tiny / "build/export")
    proc = child(
        "run",
        "export",
        "--force",
        "--config",
        str(tiny / "config.toml"),
        env={**os.environ, "LADDERS_TEST_FAULT": "export:write"},
    )
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
