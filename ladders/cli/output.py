"""How a command prints and how it fails.

Every line of text goes out through `say`, inert (pipeline/terminal.py); `write_stdout` writes bytes
whole and unescaped (export-sql's dump to stdout, `--out -`).
Results go to stdout, notes and warnings to stderr. `reported` turns any failure inside a command into
one line on stderr (or a JSON error object on stdout, with --json) and the exit code of its kind
(pipeline/errors.py); a traceback only with --debug (DEBUG, set by the global option). A reader of
stdout gone away (`| head -1`) is StdoutGone, which main() ends with STDOUT_GONE. `warn_address_space`
says before polars' work that the address-space limit may stop it (polars aborts past any message).
Reads and writes no file.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import typer

DEBUG = {"on": False}
# Whether a Ctrl-C was said: typer turns one that arrives outside `reported` (while it parses the
# arguments, or imports a command's modules) into a silent exit 130, which main() then says.
INTERRUPT = {"said": False}


class StdoutGone(BaseException):
    """The reader of stdout went away (`ladders solve ... | head -1`): the command ends quietly with
    STDOUT_GONE. A BaseException, so that no error handler reports it as a failure."""


STDOUT_GONE = 141  # 128 + SIGPIPE: what a shell reports for a command whose reader went away


def say(text: str, err: bool = False) -> None:
    """Print a line with its control and invisible characters escaped (pipeline/terminal.py): every
    command prints through here, so text from a list reaches a terminal as text, never as a command."""
    from pipeline.terminal import inert

    if err:
        try:
            typer.echo(inert(text), err=True)
        except BrokenPipeError:  # no one reads stderr any more: nothing to tell, and the work goes on
            pass
        return
    out = sys.stdout
    if out is None:  # started with stdout closed (>&-): Python has none
        say("error: Bad file descriptor: standard output (it is closed); give the command somewhere to write", True)
        raise typer.Exit(4)
    write_stdout((inert(text) + "\n").encode(out.encoding or "utf-8", out.errors or "strict"))


def say_line(text: str) -> None:
    """One line on stderr, a newline in it (a path's) written as \\n like every other control character: a
    message about a folder named with a newline stays one line, and cannot forge a line of its own."""
    say(text.replace("\n", "\\n"), err=True)


def write_stdout(data: bytes) -> None:
    """`data` on stdout, every byte or an error: a short write (a file size limit, a full disk) is one
    line on stderr and exit 4 (Python's buffered stdout took a short write for a whole one and exited 0
    with the output cut); a reader gone (EPIPE) is StdoutGone."""
    import os

    if sys.stdout is None:
        say("error: Bad file descriptor: standard output (it is closed); give the command somewhere to write", True)
        raise typer.Exit(4)
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, ValueError, OSError):  # not a file (a test's capture): its own write
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    try:
        sys.stdout.flush()
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            if written <= 0:
                raise OSError(5, "Input/output error")
            view = view[written:]
    except BrokenPipeError:
        raise StdoutGone from None
    except OSError as e:
        from pipeline.limits import describe_os_error

        say(f"error: {describe_os_error(OSError(e.errno, e.strerror, 'standard output'))}", err=True)
        raise typer.Exit(4) from None


def warn_address_space(what: str = "a build of raw/", stops: str = "the build stops") -> None:
    """Before work in polars: it aborts on a failed allocation, past any one-line error, so say it first."""
    from pipeline.limits import address_space_warning

    warning = address_space_warning(what, stops)
    if warning:
        say(warning, err=True)


def say_failure(code: int, message: str, as_json: bool, **details) -> None:
    """A failure as the user reads it: `{"error": {"code", "message", ...}}` on stdout with --json, else
    one line on stderr, `error: ...` (`interrupted...` for a Ctrl-C, the bare word when nothing more is
    known), whatever the message names."""
    INTERRUPT["said"] = code == 130
    if as_json:
        import json

        say(json.dumps({"error": {"code": code, "message": message, **details}}))
    elif message == "interrupted":
        say_line(message)
    else:
        say_line(f"{'interrupted' if code == 130 else 'error'}: {message}")


@contextmanager
def reported(as_json: bool = False) -> Iterator[None]:
    """Turn any failure into one line on stderr and the exit code of its kind; with --json, into
    {"error": {"code", "message", ...}} on stdout with the same exit code."""
    from pipeline.errors import InternalError, PipelineError
    from pipeline.limits import describe_os_error

    def fail(code: int, message: str, **details) -> None:
        say_failure(code, message, as_json, **details)
        raise typer.Exit(code)

    try:
        yield
    except (typer.Exit, typer.Abort, typer.BadParameter):
        raise
    except InternalError as e:
        if DEBUG["on"]:
            import traceback

            say("".join(traceback.format_exception(e)).rstrip(), err=True)
        command = " ".join(["ladders", *sys.argv[1:]])
        fail(
            e.exit_code,
            f"internal error (a bug in ladders, not in your input): {e}; please report it with "
            f"the command you ran ({command}){'' if DEBUG['on'] else ' and its --debug output'}",
            **e.details,
        )
    except PipelineError as e:
        fail(e.exit_code, str(e), **e.details)
    except KeyboardInterrupt:
        fail(130, "interrupted")
    except OSError as e:
        if DEBUG["on"]:
            raise
        fail(4, describe_os_error(e))
    except Exception as e:  # a damaged file read by a library: one line, the traceback on request
        if DEBUG["on"]:
            raise
        fail(*_unexpected(e))


def _unexpected(e: Exception) -> tuple[int, str]:
    """The exit code and line of an exception no part of ladders raised (a library's)."""
    if isinstance(e, MemoryError) or "failed to map segment" in str(e):  # no memory for data or for code
        from pipeline.limits import out_of_memory

        return 4, out_of_memory()
    text = " ".join(str(e).split())[:200]
    return 3, f"unexpected {type(e).__name__}: {text} (a damaged file? --debug shows the traceback)"
