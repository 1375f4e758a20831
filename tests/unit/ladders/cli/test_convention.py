"""One convention for every command, read off the commands themselves (no build): an option is a flag everywhere
or takes a value everywhere, an export is read with --export everywhere, and a counter shows only past its delay.
The same convention on a built export and in child processes: tests/integration/test_cli_convention.py."""

from __future__ import annotations


import typer

from ladders.cli import app


def test_no_option_is_a_flag_in_one_command_and_takes_a_value_in_another():
    kinds: dict[str, set[bool]] = {}
    for command in typer.main.get_command(app).commands.values():
        for param in command.params:
            for opt in getattr(param, "opts", []):
                if opt.startswith("--"):
                    kinds.setdefault(opt, set()).add(bool(getattr(param, "is_flag", False)))
    assert "--count" in kinds and "--count-only" in kinds
    assert {opt: k for opt, k in kinds.items() if len(k) > 1} == {}


def test_export_is_read_with_export_everywhere():
    commands = typer.main.get_command(app).commands
    for name in ("solve", "puzzle", "verify", "export-sql", "export-web"):
        assert any("--export" in getattr(p, "opts", []) for p in commands[name].params), name
    for name in ("status", "solve", "puzzle", "verify", "export-sql", "export-web", "config"):
        build_dir = next(p for p in commands[name].params if "--build-dir" in getattr(p, "opts", []))
        assert "Build into" not in build_dir.help and "to read" in build_dir.help, name


def test_a_counter_shows_only_past_its_delay(capsys):
    """A bar (at a terminal) waits out its delay: none for work done within it, one past it. The delays are
    an hour and none, not a sleep against 0.3 s (which a loaded machine could miss)."""
    from pipeline import progress

    progress.configure(False, terminal=True)
    try:
        with progress.counter(3, "puzzles", delay=3600) as one_more:
            one_more()
        assert capsys.readouterr().err == ""  # done within the delay: no bar at all
        with progress.counter(3, "puzzles", delay=0) as one_more:
            one_more()
        assert "puzzles:" in capsys.readouterr().err
    finally:
        progress.configure(True)
