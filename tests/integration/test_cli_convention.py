"""One convention for every command: --json errors as JSON with the same exit code, --export wherever an
export is read, an option is a flag everywhere or takes a value everywhere, an option that would do
nothing is refused, and puzzle says when it found fewer than asked."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner
from support.paths import ROOT
from ladders.cli import app

cli = CliRunner()


def invoke(*args: str):
    return cli.invoke(app, list(args))


@pytest.fixture
def export(tiny) -> str:
    assert invoke("build", "--quiet", "--config", str(tiny / "config.toml")).exit_code == 0
    return str(tiny / "build/export")


def json_error(result, code: int) -> dict:
    """The JSON error a --json command printed on stdout (and nothing on stderr), checked for `code`."""
    assert result.exit_code == code, result.output
    error = json.loads(result.stdout)["error"]
    assert error["code"] == code and error["message"] and not result.stderr
    return error


def test_an_unknown_word_under_json_is_json_with_its_suggestions(export):
    plain = invoke("solve", "cat", "dgo", "--export", export)
    error = json_error(invoke("solve", "cat", "dgo", "--export", export, "--json"), plain.exit_code)
    assert plain.exit_code == 10 and plain.stderr == f"error: {error['message']}\n"
    assert error["word"] == "DGO" and "DOG" in error["suggestions"]


@pytest.mark.parametrize(
    "command", [["solve", "cat", "dog"], ["puzzle"], ["verify"], ["status"], ["config"], ["diff", "NOWHERE", "NOWHERE"]]
)
def test_every_json_command_reports_its_error_as_json(tmp_path, command):
    nowhere = str(tmp_path / "nowhere")
    args = [nowhere if a == "NOWHERE" else a for a in command]
    if command[0] in ("solve", "puzzle", "verify"):
        args += ["--export", nowhere]
    if command[0] in ("status", "config"):  # a config key with a bad value
        (tmp_path / "bad.toml").write_text("csw = 3\n")
        args += ["--config", str(tmp_path / "bad.toml")]
    plain = invoke(*args)
    assert plain.exit_code in (2, 3) and plain.stderr.startswith("error: ")
    assert json_error(invoke(*args, "--json"), plain.exit_code)["message"] == plain.stderr[len("error: ") : -1]


def test_a_usage_error_under_json_is_json_from_the_real_command():
    missing = subprocess.run(
        [sys.executable, "-m", "pipeline", "solve", "cat", "--json"], cwd=ROOT, capture_output=True, text=True
    )
    assert missing.returncode == 2 and not missing.stderr
    assert json.loads(missing.stdout) == {"error": {"code": 2, "message": "Missing argument 'end'."}}
    plain = subprocess.run([sys.executable, "-m", "pipeline", "solve", "cat"], cwd=ROOT, capture_output=True, text=True)
    assert plain.returncode == 2 and not plain.stdout
    # One line, as every failure (typer printed four: usage, a hint, a blank line and the error).
    prog = "python -m pipeline"  # the name click gives the command run so; `ladders` when run as ladders
    assert plain.stderr == f"error: Missing argument 'end'; see '{prog} solve --help'\n"
    for args, line in (
        (["solve", "cat", "dog", "--bogus"], f"error: No such option: --bogus; see '{prog} solve --help'\n"),
        (["nosuch"], f"error: No such command 'nosuch'; see '{prog} --help'\n"),
    ):
        done = subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, capture_output=True, text=True)
        assert (done.returncode, done.stderr) == (2, line)


@pytest.mark.parametrize(
    "args, why",
    [
        (["solve", "cat", "dog", "--limit", "3"], "--limit does nothing here: it says how many ladders --all lists"),
        (["solve", "cat", "dog", "--all", "--seed", "1"], "--seed does nothing here: "),
        (["solve", "cat", "dog", "--all", "--count-only"], "--all does nothing here: --count-only prints the count"),
        (["puzzle", "--no-clean", "--strict"], "--strict does nothing here: --no-clean allows every word"),
    ],
)
def test_an_option_that_would_do_nothing_is_refused(export, args, why):
    result = invoke(*args, "--export", export)
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {why}") and not result.stdout
    assert len(result.stderr.splitlines()) == 1


def test_limit_with_all_lists_that_many(export):
    result = invoke("solve", "cat", "dog", "--all", "--limit", "1", "--no-clean", "--export", export)
    assert result.exit_code == 0 and result.stdout.splitlines()[0].endswith("; the first 1:")


def test_verify_takes_export(export):
    result = invoke("verify", "--export", export, "--json")
    assert result.exit_code == 0 and json.loads(result.stdout)["export"] == export
    twice = invoke("verify", export, "--export", export)
    assert twice.exit_code == 2 and twice.stderr == "error: give the export once: --export FOLDER\n"


def test_puzzle_says_when_it_found_fewer_than_asked(export):
    result = invoke(
        "puzzle", "--length", "3", "--steps", "1", "--count", "20", "--seed", "1", "--export", export, "--json"
    )
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert shown["asked"] == 20 and 0 < shown["found"] == len(shown["puzzles"]) < 20
    assert result.stderr == (
        f"found {shown['found']} of the 20 puzzles asked for: 1,000 start words tried "
        "(fewer pairs of 3-letter words are 1 step apart)\n"
    )
    text = invoke("puzzle", "--length", "3", "--steps", "1", "--seed", "1", "--export", export)
    assert text.exit_code == 0 and not text.stderr
    assert text.stdout.split(": ")[1].startswith("1 step, ")  # not "1 steps"


def test_ladders_alone_prints_the_help_not_a_flattened_error():
    """`ladders` with no arguments printed the whole help as one 2,435-character `error:` line."""
    done = subprocess.run([sys.executable, "-m", "pipeline"], cwd=ROOT, capture_output=True, text=True)
    helped = subprocess.run([sys.executable, "-m", "pipeline", "--help"], cwd=ROOT, capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (2, "") and done.stdout.strip() == helped.stdout.strip()


def test_global_options_without_a_command_print_the_help_as_ladders_alone_does():
    """No command is the callback's own case (typer's supported way), not an exception told apart by its
    class name: `ladders --debug` said "Missing command" where `ladders` alone printed the help."""
    alone = subprocess.run([sys.executable, "-m", "pipeline"], cwd=ROOT, capture_output=True, text=True)
    debug = subprocess.run([sys.executable, "-m", "pipeline", "--debug"], cwd=ROOT, capture_output=True, text=True)
    assert (debug.returncode, debug.stderr, debug.stdout) == (2, "", alone.stdout)
    assert "NoArgsIsHelpError" not in (ROOT / "ladders/cli/__init__.py").read_text()


def test_status_of_a_file_as_the_build_folder_is_refused_as_build_refuses_it(tmp_path):
    """`status --build-dir FILE` said every stage was missing (exit 1) where build refuses the file (exit 2)."""
    mine = tmp_path / "mine.sql"
    mine.write_text("x")
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "status", "--build-dir", str(mine)], cwd=ROOT, capture_output=True, text=True
    )
    assert (done.returncode, done.stderr) == (2, f"error: build folder {mine} is a file, not a folder\n")
