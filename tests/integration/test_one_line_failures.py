"""Issue 38, items 13 and 14: a memory limit said before the work that needs it, and every failure one line
with its documented exit code, naming what the user knows (a path with a newline, a build folder not named
in UTF-8, a damaged Parquet, a manifest that is no object, a config that is a FIFO). Each test failed on the
code before."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys

import pytest

from conftest import invoke


# ---- item 13: memory limits warned before work, failures one line with a documented code ---------------

from support.paths import ROOT


def _limited(address_space: int):
    import resource

    return lambda: resource.setrlimit(resource.RLIMIT_AS, (address_space, resource.RLIM_INFINITY))


@pytest.mark.parametrize(
    "args, what",
    [
        (["verify"], "verify of raw/'s export"),
        (["export-sql", "--out", "-"], "the dump of raw/'s export"),
        (["puzzle", "--length", "3", "--steps", "3"], "a puzzle of raw/'s export"),
    ],
)
def test_a_low_address_space_limit_is_said_before_the_commands_that_use_polars(tiny_export, args, what):
    """export-sql and verify ended in a MemoryError traceback or a Rust panic (exit 134) with no warning,
    where build warned. The tiny export fits in 2 GiB: the command goes on after the warning."""
    child = subprocess.run(
        [sys.executable, "-m", "pipeline", *args, "--export", str(tiny_export)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=_limited(2 * 2**30),
        timeout=120,
    )
    assert child.returncode == 0, child.stderr
    assert child.stderr.splitlines()[0] == (
        f"warning: the address-space limit (ulimit -v) is 2,048 MiB; {what} needs about 3,072 MiB, and polars "
        "aborts (exit 134) when it runs out: raise the limit if it stops that way"
    )


def test_a_memory_error_is_one_line_and_exit_4(tiny_export, monkeypatch):
    """A MemoryError inside a check was listed as a failed check (E201 ... ImportError), or a traceback."""
    from ladders.artifact import verify

    def no_memory(export):
        raise MemoryError

    monkeypatch.setattr(verify, "CHECKS", [(code, no_memory) for code, _ in verify.CHECKS])
    result = invoke("verify", "--export", str(tiny_export))
    assert result.exit_code == 4 and result.stderr.startswith("error: out of memory: ")
    assert len(result.stderr.splitlines()) == 1


def test_scipy_loads_under_a_low_address_space_limit(tmp_path):
    """`ladders solve` on a group of 6,000+ words imports scipy, whose OpenBLAS spun at 100% CPU under
    `ulimit -v 250000`, ignoring Ctrl-C. One BLAS thread when a limit is set (or the A* when scipy still
    cannot load): here the import of the graph search alone, in a child under that limit."""
    code = "from ladders.solve import search; search._one_blas_thread(); import scipy.sparse.csgraph; print('ok')"
    child = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=_limited(250_000 * 1024),
        timeout=60,
    )
    assert child.stdout == "ok\n" or "failed to map segment" in child.stderr  # loaded, or refused at once


# ---- item 14: every failure one line, naming what the user knows ---------------------------------------


def test_a_path_with_a_newline_is_named_on_one_line(tiny_export, tmp_path):
    folder = tmp_path / "new\nline"
    folder.mkdir()
    (folder / "mine.txt").write_text("mine")
    result = invoke("build", "--quiet", "--build-dir", str(folder))
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1 and "new\\nline" in result.stderr


def test_a_build_folder_named_in_bytes_that_are_not_utf8_is_refused(tiny_export, tmp_path):
    """It ended in 'internal error ... UnicodeEncodeError' (exit 5) from the SQLite writer."""
    import os

    folder = os.fsdecode(os.fsencode(str(tmp_path)) + b"/b\xff")
    root = tiny_export.parent.parent
    result = invoke("build", "--quiet", "--config", str(root / "config.toml"), "--build-dir", folder)
    assert result.exit_code == 2 and result.stderr.endswith(
        "has bytes in its name that are not UTF-8; choose a --build-dir named in UTF-8\n"
    )
    assert "\\udcff" in result.stderr and len(result.stderr.splitlines()) == 1


def test_a_damaged_parquet_is_named(tiny_export, tmp_path):
    """'unexpected ComputeError' named no file."""
    export = tmp_path / "export"
    shutil.copytree(tiny_export, export)
    (export / "groups.parquet").write_bytes(b"PAR1 not really")
    result = invoke("export-sql", "--out", str(tmp_path / "d.sql"), "--export", str(export))
    assert result.exit_code == 3 and result.stderr.startswith(
        f"error: {export / 'groups.parquet'} is not a readable Parquet file ("
    )


def test_verify_on_a_manifest_that_is_not_an_object(tiny_export, tmp_path):
    """A manifest of `[]` listed an AttributeError per check."""
    export = tmp_path / "export"
    shutil.copytree(tiny_export, export)
    (export / "manifest.json").write_text("[]")
    result = invoke("verify", "--export", str(export))
    assert result.exit_code == 3 and result.stderr == (
        f"error: {export / 'manifest.json'} is not a manifest (a JSON object with its files): this export is damaged\n"
    )


def test_a_config_key_tool_that_is_no_table_is_refused(tiny_export):
    """`tool = 5` in a config file was silently ignored."""
    root = tiny_export.parent.parent
    (root / "tool.toml").write_text((root / "config.toml").read_text() + "tool = 5\n")
    result = invoke("config", "--config", str(root / "tool.toml"))
    assert result.exit_code == 2 and "unknown key 'tool'" in result.stderr


def test_a_newline_in_a_hand_edited_definition_prints_no_rung_of_its_own(tiny_export, tmp_path):
    export = tmp_path / "export"
    shutil.copytree(tiny_export, export)
    plain = invoke("solve", "cold", "cord", "--export", str(export)).stdout.splitlines()
    with sqlite3.connect(export / "ladder.sqlite") as con:
        con.execute("UPDATE words SET definition = 'cool\n  FAKE [rung]' WHERE word = 'COLD'")
    con.close()
    edited = invoke("solve", "cold", "cord", "--export", str(export)).stdout.splitlines()
    assert len(edited) == len(plain) and any("cool\\n  FAKE [rung]" in line for line in edited)


def test_a_config_that_is_a_fifo_is_refused_without_hanging(tmp_path):
    """`--config FIFO` (or a FIFO named ladders.toml in the folder) hung every command."""
    import os

    fifo = tmp_path / "ladders.toml"
    os.mkfifo(fifo)
    child = subprocess.run(
        [sys.executable, "-m", "pipeline", "config", "--config", str(fifo)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert child.returncode == 2 and child.stderr == f"error: {fifo}: is not a regular file, not a config file\n"


def test_a_closed_stdout_is_one_line_and_exit_4(tiny_export):
    """Started with stdout closed (`>&-`), solve ended in an AttributeError traceback."""
    child = subprocess.run(
        [sys.executable, "-m", "pipeline", "solve", "cold", "cord", "--export", str(tiny_export)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        preexec_fn=lambda: __import__("os").close(1),
    )
    assert child.returncode == 4 and child.stderr == (
        "error: Bad file descriptor: standard output (it is closed); give the command somewhere to write\n"
    )


def test_a_newline_in_a_path_keeps_a_success_line_one_line(tiny_export, tmp_path):
    """`wrote <path>` printed a path's newline as it is: one message, two lines (a crafted name could
    forge an `error:` line of its own)."""
    target = tmp_path / "a\nerror: forged.sql"
    result = invoke("export-sql", "--export", str(tiny_export), "--out", str(target))
    assert result.exit_code == 0 and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"wrote {tmp_path}/a\\nerror: forged.sql (")
