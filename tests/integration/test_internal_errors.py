"""A bug in ladders is reported as a bug: its own exit code, a request for a bug report, the traceback
under --debug and in the build folder's log; never as bad input."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

import stages.s05_groups
from ladders.cli import app
from ladders.cli.output import DEBUG
from pipeline.errors import EXIT_CODES, InternalError
from pipeline.runner import ERROR_LOG

cli = CliRunner()


@pytest.fixture
def typo_in_build_groups(monkeypatch):
    """A KeyError typed into stage 5's own code (build_groups calls labelings)."""

    def broken(links, members):
        return {}["csw_sub"]

    monkeypatch.setattr(stages.s05_groups, "labelings", broken)
    monkeypatch.setitem(DEBUG, "on", False)


def test_a_stage_that_raises_is_an_internal_error_not_bad_input(tiny, typo_in_build_groups):
    result = cli.invoke(app, ["build", "--quiet", "--config", str(tiny / "config.toml")])
    assert result.exit_code == InternalError.exit_code == 5
    assert [code for code, _ in EXIT_CODES if code == "5"]  # the table documents it
    lines = result.stderr.splitlines()
    assert lines[-1].startswith(
        "error: internal error (a bug in ladders, not in your input): stage 5 groups raised KeyError: 'csw_sub'"
    )
    assert "please report it with the command you ran (ladders" in lines[-1]
    assert "failed on its inputs" not in result.stderr and "Traceback" not in result.stderr
    log = (tiny / "build" / ERROR_LOG).read_text()
    assert "Traceback" in log and "in broken" in log and "KeyError: 'csw_sub'" in log


def test_debug_shows_the_traceback_of_an_internal_error(tiny, typo_in_build_groups):
    result = cli.invoke(app, ["--debug", "build", "--quiet", "--config", str(tiny / "config.toml")])
    assert result.exit_code == 5
    assert "Traceback" in result.stderr and "in broken" in result.stderr
    assert "KeyError: 'csw_sub'" in result.stderr


def test_a_failure_beside_a_running_stage_lets_that_stage_finish_and_starts_nothing_new(
    tiny, typo_in_build_groups, monkeypatch
):
    """Stage 5 fails while stage 2, held back, still runs beside it: stage 2 ends and is recorded
    (its work is independent of the failure), no later stage starts, and the failure is what is said.
    Stage 2 waits until stage 5 has failed, and stage 5 fails only once stage 2 runs (events, not sleeps
    that a loaded machine could outrun)."""
    import threading

    import stages.s02_definitions

    real = stages.s02_definitions.dictionary_definitions
    failed, started = threading.Event(), threading.Event()

    def slow(*args, **kwargs):
        started.set()
        assert failed.wait(120), "stage 5 never ran"
        return real(*args, **kwargs)

    def broken(links, members):
        # Stage 5 fails only once stage 2 runs: stage 0 (which stage 2 waits for) may end after stage 5
        # could start, and then stage 2 would never have started (a clean clone failed so).
        assert started.wait(120), "stage 2 never started"
        failed.set()
        return {}["csw_sub"]

    monkeypatch.setattr(stages.s05_groups, "labelings", broken)
    monkeypatch.setattr(stages.s02_definitions, "dictionary_definitions", slow)
    config = str(tiny / "config.toml")
    result = cli.invoke(app, ["build", "-j", "2", "--config", config])
    assert result.exit_code == 5
    lines = result.stderr.splitlines()
    assert "stage 5 groups raised KeyError" in lines[-1]
    ran = [line.split()[1] for line in lines if line.endswith(" ran")]
    assert sorted(ran) == ["definitions", "dictionaries", "lexicon", "links", "rareness"] and ran[-1] == "definitions"
    status = cli.invoke(app, ["status", "--config", config])
    assert "2 definitions  fresh" in status.stderr + status.output
    assert not (tiny / "build/06_longest.parquet").exists() and not (tiny / "build/export").exists()


def test_two_stages_failing_side_by_side_log_the_traceback_of_the_one_reported(tiny, monkeypatch):
    """Stage 2 fails at once, stage 3 a moment later beside it: the lower stage's failure is reported,
    and the log holds its traceback, not the one written last."""
    import threading

    import stages.s02_definitions
    import stages.s03_rareness

    two_failed = threading.Event()

    def broken_now(*args, **kwargs):
        two_failed.set()
        return {}["stage two"]

    def broken_later(*args, **kwargs):  # after stage 2's failure, whichever thread runs first
        assert two_failed.wait(120)
        return {}["stage three"]

    monkeypatch.setattr(stages.s02_definitions, "morphology", broken_now)
    monkeypatch.setattr(stages.s03_rareness, "scowl_entries", broken_later)
    monkeypatch.setitem(DEBUG, "on", False)
    result = cli.invoke(app, ["build", "-j", "2", "--quiet", "--config", str(tiny / "config.toml")])
    assert result.exit_code == 5
    assert "stage 2 definitions raised KeyError: 'stage two'" in result.stderr.splitlines()[-1]
    log = (tiny / "build" / ERROR_LOG).read_text()
    assert "'stage two'" in log and "'stage three'" not in log


def test_a_build_that_stops_for_its_own_failure_leaves_no_stage_running(tiny, monkeypatch):
    """The build's own thread fails (its stderr closed under it) while stage 2 is still at work: the
    build returns only after stage 2's thread ended, so nothing is written into the folder after it
    (and after its mutex) is released."""
    import threading

    import stages.s02_definitions
    from pipeline.config import load_config
    from ladders.compose import runner as make_runner

    real = stages.s02_definitions.dictionary_definitions
    broke, ended = threading.Event(), threading.Event()

    def slow(*args, **kwargs):  # still at work when stderr breaks; ends only after it did
        assert broke.wait(120)
        try:
            return real(*args, **kwargs)
        finally:
            ended.set()

    def closed(line: str) -> None:
        if line.startswith("3 "):  # stage 3 ended; stage 2 still runs beside it
            broke.set()
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(stages.s02_definitions, "dictionary_definitions", slow)
    runner = make_runner(load_config(tiny / "config.toml"), echo=closed, jobs=2)
    with pytest.raises(BrokenPipeError):
        runner.build()
    assert ended.is_set()  # build() returned only once stage 2's work was over, not while it ran
    assert not any(t.name.startswith("stage-") for t in threading.enumerate())  # no stage's thread outlives it
