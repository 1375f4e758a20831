"""One exit code for "no export here" in every command, one table of exit codes; a write that fails names its file and
its real cause (a file size limit is not a full disk)."""

from __future__ import annotations

import json
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner
from support.paths import ROOT
from ladders.cli import app

cli = CliRunner()


def commands(nowhere: Path, tmp: Path) -> dict[str, list[str]]:
    return {
        "solve": ["solve", "cat", "dog", "--export", str(nowhere)],
        "puzzle": ["puzzle", "--export", str(nowhere)],
        "verify": ["verify", str(nowhere)],
        "diff": ["diff", str(nowhere), str(nowhere)],
        "export-sql": ["export-sql", "--export", str(nowhere), "--out", str(tmp / "out.sql")],
        "export-web": ["export-web", str(tmp / "page"), "--export", str(nowhere)],
    }


@pytest.mark.parametrize("where", ["missing", "empty"])
@pytest.mark.parametrize("command", ["solve", "puzzle", "verify", "diff", "export-sql", "export-web"])
def test_no_export_here_is_exit_3_from_every_command(tmp_path, command, where):
    nowhere = tmp_path / "nowhere"
    if where == "empty":
        nowhere.mkdir()
    result = cli.invoke(app, commands(nowhere, tmp_path)[command])
    assert result.exit_code == 3, result.output
    assert result.stderr == (
        f"error: {nowhere} is not an export (manifest.json does not exist); build the export first (make build)\n"
    )
    assert not (tmp_path / "out.sql").exists() and not (tmp_path / "page").exists()


def _limited(limit: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def _ladders(*args: str, limit: int) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *args], cwd=ROOT, capture_output=True, text=True, preexec_fn=_limited(limit)
    )


def test_a_file_too_large_names_the_file_and_the_limit(tiny, tmp_path):
    assert cli.invoke(app, ["build", "--quiet", "--config", str(tiny / "config.toml")]).exit_code == 0
    out = tmp_path / "dump.sql"
    result = _ladders("export-sql", "--export", str(tiny / "build/export"), "--out", str(out), limit=2048)
    assert result.returncode == 4
    assert result.stderr == (
        f"error: File too large: {out}; the file size limit (ulimit -f) is 2,048 bytes: raise it and run again\n"
    )
    assert not out.exists() and not list(tmp_path.glob(".dump.sql.*"))


def test_sqlite_failing_under_a_size_limit_is_not_called_a_full_disk(tiny):
    assert cli.invoke(app, ["build", "--quiet", "--config", str(tiny / "config.toml")]).exit_code == 0
    result = _ladders("run", "export", "--force", "--quiet", "--config", str(tiny / "config.toml"), limit=8192)
    assert result.returncode == 4
    assert "cannot write ladder.sqlite" in result.stderr and "disk is full" not in result.stderr
    assert "free some space" not in result.stderr and "(ulimit -f) is 8,192 bytes" in result.stderr


def test_a_low_address_space_limit_is_said_before_the_build(tiny):
    """Polars aborts on a failed allocation (exit 134, a Rust backtrace) before ladders can say anything;
    below the measured need the build starts with a one-line warning. The tiny build fits in 2 GiB."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, resource.RLIM_INFINITY))

    result = subprocess.run(
        [sys.executable, "-m", "pipeline", "build", "--quiet", "--config", str(tiny / "config.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=limit,
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.splitlines()[0] == (
        "warning: the address-space limit (ulimit -v) is 2,048 MiB; a build of raw/ needs about 3,072 MiB, and "
        "polars aborts (exit 134) when it runs out: raise the limit if the build stops that way"
    )
    unlimited = _ladders("build", "--quiet", "--force", "--config", str(tiny / "config.toml"), limit=2**40)
    assert unlimited.returncode == 0 and "address-space" not in unlimited.stderr


def test_a_dump_written_to_a_fifo_or_device_leaves_it_one(tmp_path):
    """`export-sql --out /dev/null` renamed its temporary file over /dev/null, leaving a regular file where
    the device was (every later `> /dev/null` on the machine then wrote into it). A FIFO stands in here."""
    import os
    import stat
    import threading

    from pipeline import io

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    io.write_atomic(fifo, b"-- a dump\n", named_by_user=True)  # --out: the user named it
    reader.join(timeout=10)
    assert got == [b"-- a dump\n"] and stat.S_ISFIFO(os.stat(fifo).st_mode)
    target = tmp_path / "real.sql"
    link = tmp_path / "link.sql"
    link.symlink_to(target)
    io.write_atomic(link, b"x", named_by_user=True)
    assert link.is_symlink() and target.read_bytes() == b"x"  # the link kept, its file written


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_outside_a_build_is_one_word_and_exit_130(tiny_export, monkeypatch, as_json):
    """Ctrl-C in verify (or export-web, release...) printed `interrupted: interrupted`."""
    import ladders.artifact.verify

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(ladders.artifact.verify, "verify", interrupted)
    result = CliRunner().invoke(app, ["verify", "--export", str(tiny_export), *(["--json"] if as_json else [])])
    assert result.exit_code == 130
    if as_json:
        assert json.loads(result.stdout) == {"error": {"code": 130, "message": "interrupted"}}
    else:
        assert result.stderr == "interrupted\n"


@pytest.mark.parametrize("args", [["--help"], ["solve", "--help"]])
def test_help_to_a_full_stdout_is_one_line_and_exit_4(args):
    """`ladders --help > /dev/full` printed a 33-line traceback, exit 1."""
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "pipeline", *args], cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert (done.returncode, done.stderr) == (
        4,
        "error: No space left on device: standard output; free some space and run again\n",
    )


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_before_a_commands_handler_is_said_too(tiny_export, monkeypatch, capsys, as_json):
    """Typer turns a Ctrl-C that arrives outside a command's handler (while it parses the arguments or
    imports the command's modules) into a silent exit 130: `verify --json` interrupted early printed
    nothing at all."""
    import ladders.cli.exports
    from ladders.cli import main

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(ladders.cli.exports, "warn_address_space", interrupted)  # runs before `reported`
    monkeypatch.setattr(sys, "argv", ["ladders", "verify", "--export", str(tiny_export), *(["--json"] * as_json)])
    with pytest.raises(SystemExit) as exit:
        main()
    out, err = capsys.readouterr()
    assert exit.value.code == 130
    if as_json:
        assert (json.loads(out), err) == ({"error": {"code": 130, "message": "interrupted"}}, "")
    else:
        assert (out, err) == ("", "interrupted\n")
