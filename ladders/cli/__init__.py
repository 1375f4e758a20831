"""The `ladders` command line: a thin layer over the runner, the solver, verify and diff.

Each command loads the config, calls the library and prints. Every failure
becomes one line on stderr (with --json, a JSON error object on stdout) and the
exit code of its kind (pipeline/errors.py); a traceback only with --debug.

This module is the table of commands (`app`, in the order `ladders --help` lists them), the global
options and `main`, the console entry point. The commands live by family: building.py (build, run,
status, config), solving.py (solve, puzzle), exports.py (export-sql, export-web, release, verify,
diff); options.py holds the options they share, output.py how every line is printed and every
failure reported. This module reads and writes no file.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from ladders.cli import building, exports, solving
from ladders.cli.output import DEBUG, INTERRUPT, STDOUT_GONE, StdoutGone, say, say_failure
from pipeline.errors import exit_code_help

app = typer.Typer(
    add_completion=False,
    rich_markup_mode=None,
    help="Compile word-ladder dictionaries from word lists, and check them.\n\n" + exit_code_help(),
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            say(f"ladders {version('ladders')}")
        except PackageNotFoundError:
            say("ladders (not installed: run from a source tree)")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def options(
    ctx: typer.Context,
    debug: Annotated[bool, typer.Option("--debug", help="On an unexpected error, show its traceback.")] = False,
    show_version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    DEBUG["on"] = debug
    if ctx.invoked_subcommand is None:  # `ladders` alone: the help itself, as --help gives it, exit 2 (usage)
        say(ctx.get_help())
        raise typer.Exit(2)


app.command()(building.build)
app.command()(building.run)
app.command()(building.status)
app.command()(building.warnings)
app.command()(solving.solve)
app.command()(solving.puzzle)
app.command("export-sql")(exports.export_sql)
app.command("export-web")(exports.export_web)
app.command()(exports.release)
app.command()(exports.verify)
app.command()(exports.diff)
app.command("config")(building.show_config)


def main() -> None:
    """The `ladders` command. Typer's own usage errors (a missing argument, an unknown option) are one line
    and exit 2, as every failure, and JSON too when --json is among the arguments."""
    from typer.exceptions import Abort, TyperException

    import os

    _interruptible()
    INTERRUPT["said"] = False
    try:
        code = typer.main.get_command(app).main(standalone_mode=False)
    except (StdoutGone, BrokenPipeError):  # the reader of stdout went away (a command's output, or --help's)
        # Python's own flush of stdout at exit would fail again and print a traceback: write it to nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        sys.exit(STDOUT_GONE)
    except OSError as e:  # --help or a usage line written to a full or failing stdout (commands say their own)
        from pipeline.limits import describe_os_error

        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        e.filename = e.filename or "standard output"
        say(f"error: {describe_os_error(e)}", err=True)
        sys.exit(4)
    except TyperException as e:
        if "--json" in sys.argv[1:]:
            say_failure(e.exit_code, e.format_message(), True)
        else:  # one line, as every other failure: what is wrong, and where the help is
            ctx = getattr(e, "ctx", None)
            where = f"; see '{ctx.command_path} --help'" if ctx is not None else ""
            say(f"error: {e.format_message().rstrip('.')}{where}".replace("\n", " "), err=True)
        sys.exit(e.exit_code)
    except Abort:  # Ctrl-C while click parsed the arguments, before a command's own handler
        _interrupted()
    if code == 130 and not INTERRUPT["said"]:  # typer's silent exit for a Ctrl-C outside `reported`
        _interrupted()
    sys.exit(code if isinstance(code, int) else 0)


def _interruptible() -> None:
    """Ctrl-C (SIGINT) stops a command the same way with or without a terminal. A command started in the
    background by a script (`ladders build &` in CI) inherits SIGINT ignored, and Python then installs no
    handler: `kill -INT` did nothing, and the build ran on. Here it is the usual KeyboardInterrupt again, so
    the stages reach their safe point and the same lines are said as at a terminal."""
    import signal

    try:
        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:  # not the main thread (a test calling main): no signal handling to change
        pass


def _interrupted() -> None:
    """Say a Ctrl-C that no command's handler said (one line, or JSON under --json), and exit 130."""
    say_failure(130, "interrupted", "--json" in sys.argv[1:])
    sys.exit(130)
