"""Killed runs, concurrent runs, write failures, identical rebuilds, a fuzzed parser.

The crash tests run the real CLI in a child process with LADDERS_TEST_FAULT
set, which makes the runner stop (announce, then sleep) at a known point
inside a stage, and kill it there with SIGKILL.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import child, copy_tiny, snapshot
from support.paths import ROOT
from pipeline import io
from ladders.artifact.verify import verify
from ladders.cli import app
from pipeline.execute import FAULT_ENV
from pipeline.runner import LOCK_FILE

cli = CliRunner()
STAGES = ["lexicon", "definitions", "rareness", "links", "groups", "analysis", "export"]


def ladders(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def start(*args: str, env: dict | None = None) -> subprocess.Popen:
    return child(*args, env={**os.environ, **(env or {})})


def wait_for(proc: subprocess.Popen, text: str) -> str:
    """Read the child's stderr until a line containing `text` (it then waits or sleeps there)."""
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if text in line:
            return line
    raise AssertionError(f"child ended without {text!r}: {''.join(seen)}")


@pytest.fixture(scope="module")
def built(tmp_path_factory, request) -> Path:
    """The tiny dictionary built once by the CLI; tests copy it."""
    root = copy_tiny(tmp_path_factory.mktemp("built"))
    assert ladders("build", "--quiet", "--config", str(root / "config.toml")).returncode == 0
    return root


@pytest.fixture
def site(built, tmp_path) -> Path:
    copy = tmp_path / "tiny"
    shutil.copytree(built, copy)
    return copy


@pytest.mark.parametrize("point", ["transform", "write"])
@pytest.mark.parametrize("stage", STAGES)
def test_kill_inside_a_stage_leaves_export_and_lock_intact(site, stage, point):
    config = str(site / "config.toml")
    export_before = snapshot(site / "build/export")
    lock_before = (site / "build" / LOCK_FILE).read_text()
    with (site / "csw.txt").open("a") as f:  # a real change, so every stage has new work to do
        f.write("COLT\n")
    proc = start("build", "--config", config, env={FAULT_ENV: f"{stage}:{point}"})
    wait_for(proc, f"fault point {stage}:{point}")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert snapshot(site / "build/export") == export_before
    import json

    lock_after = json.loads((site / "build" / LOCK_FILE).read_text())
    assert lock_after[stage] == json.loads(lock_before)[stage]  # the killed stage's record is untouched
    scratch = list((site / "build").glob(".scratch-*"))
    assert [p.name for p in scratch] == ([".scratch-export"] if stage == "export" else [])  # export's own
    # Only the killed child ran apart; the recovery runs in this process (the same code, fewer starts).
    assert verify(site / "build/export") == []
    finished = cli.invoke(app, ["build", "--quiet", "--config", config])
    assert finished.exit_code == 0, finished.output
    assert cli.invoke(app, ["status", "--config", config]).exit_code == 0
    assert verify(site / "build/export") == []
    assert snapshot(site / "build/export") != export_before  # COLT arrived
    assert not list((site / "build").glob(".scratch-*"))  # a killed stage's scratch folder is cleared


def test_a_second_build_waits_for_the_first(site):
    config = str(site / "config.toml")
    with (site / "csw.txt").open("a") as f:
        f.write("COLT\n")
    first = start("build", "--config", config, env={FAULT_ENV: "links:transform"})
    wait_for(first, "fault point links:transform")
    second = start("build", "--config", config)
    assert "waiting: another ladders process is building" in wait_for(second, "waiting")
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert second.wait(timeout=120) == 0
    assert ladders("verify", str(site / "build/export")).returncode == 0
    assert ladders("status", "--config", config).returncode == 0


def test_a_swap_cut_between_its_two_renames_is_restored(site):
    export = site / "build/export"
    before = snapshot(export)
    export.rename(site / "build/.export.old")  # as if killed after the first rename
    result = ladders("build", "--config", str(site / "config.toml"))
    assert result.returncode == 0
    assert result.stderr.splitlines()[-1].endswith("skipped")
    assert snapshot(export) == before


def test_a_write_error_leaves_no_partial_output(site, monkeypatch):
    from pipeline.config import load_config
    from ladders.compose import runner

    export_before = snapshot(site / "build/export")
    lock_before = (site / "build" / LOCK_FILE).read_bytes()
    real = io.write_atomic
    calls = []

    def failing(path, data):
        calls.append(path)
        if len(calls) == 2:  # the export's second file
            raise OSError(28, "No space left on device")
        real(path, data)

    monkeypatch.setattr(io, "write_atomic", failing)
    with pytest.raises(OSError, match="No space left"):
        runner(load_config(site / "config.toml")).run(
            next(s for s in runner(load_config(site / "config.toml")).stages if s.name == "export"), force=True
        )
    assert snapshot(site / "build/export") == export_before
    assert (site / "build" / LOCK_FILE).read_bytes() == lock_before


def test_same_inputs_same_bytes_across_thread_counts_and_touches(built, tmp_path):
    config = str(built / "config.toml")
    for jobs, threads in (("1", "1"), ("3", "2")):  # stages one after another; side by side
        folder = tmp_path / f"j{jobs}"
        made = ladders(
            "build",
            "-q",
            "-j",
            jobs,
            "--config",
            config,
            "--build-dir",
            str(folder),
            env={"POLARS_MAX_THREADS": threads},
        )
        assert made.returncode == 0
        assert snapshot(folder / "export") == snapshot(built / "build/export")
        tables = {f.name: io.sha256(f.read_bytes()) for f in sorted(folder.glob("0*.parquet"))}
        assert len(tables) == 14 and tables == {
            f.name: io.sha256(f.read_bytes()) for f in built.glob("build/0*.parquet")
        }
    for path in built.rglob("*"):
        if path.is_file() and "build" not in path.parts:
            os.utime(path)  # new mtimes, same bytes
    again = ladders("build", "--config", config)
    assert again.returncode == 0 and all(line.endswith("skipped") for line in again.stderr.splitlines())


def test_a_killed_exports_scratch_folder_goes_at_the_next_start_even_with_nothing_to_build(site):
    """Killed during `run export --force`: the export is still fresh, so the next build runs no stage,
    and the scratch folder must go at its start."""
    config = str(site / "config.toml")
    before = snapshot(site / "build/export")
    proc = start("run", "export", "--force", "--config", config, env={FAULT_ENV: "export:transform"})
    wait_for(proc, "fault point export:transform")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert (site / "build/.scratch-export").is_dir()
    result = ladders("build", "--config", config)
    assert result.returncode == 0 and all(line.endswith("skipped") for line in result.stderr.splitlines())
    assert not (site / "build/.scratch-export").exists()
    assert snapshot(site / "build/export") == before


@pytest.mark.parametrize("name", [".export.new", ".export.old"])
def test_a_link_where_the_export_is_swapped_is_left_alone(site, tmp_path, name):
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "keep.txt").write_text("mine")
    (site / "build" / name).symlink_to(theirs)
    result = ladders("build", "--config", str(site / "config.toml"))
    assert result.returncode == 3, result.stderr
    assert result.stderr.splitlines()[-1] == (  # the rule of every folder ladders owns (issue 38)
        f"error: {site / 'build' / name} is a symbolic link in the build folder {site / 'build'}; "
        "ladders neither writes through links nor removes them: remove it and run again"
    )
    assert (theirs / "keep.txt").read_text() == "mine" and (site / "build" / name).is_symlink()


@pytest.mark.parametrize("kind", ["file", "link"])
def test_something_else_where_the_scratch_folder_goes_is_left_alone(site, tmp_path, kind):
    config = str(site / "config.toml")
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "keep.txt").write_text("mine")
    place = site / "build/.scratch-export"
    if kind == "file":
        place.write_text("mine")
    else:
        place.symlink_to(theirs)
    result = ladders("run", "export", "--force", "--config", config)
    assert result.returncode == 3
    assert result.stderr.splitlines()[-1].endswith(
        "keeps its scratch folder; ladders leaves it alone: remove it and build again"
        if kind == "file"
        else "ladders neither writes through links nor removes them: remove it and run again"
    )
    assert (theirs / "keep.txt").read_text() == "mine"
    assert place.is_symlink() if kind == "link" else place.read_text() == "mine"
    # Nothing to build (the export is fresh); a link in the build folder is still refused (issue 38).
    assert ladders("build", "--config", config).returncode == (0 if kind == "file" else 3)
    assert (theirs / "keep.txt").read_text() == "mine"
