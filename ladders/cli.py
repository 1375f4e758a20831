"""The `ladders` command line: a thin layer over the runner, the solver, verify and diff.

Each command loads the config, calls the library and prints. Every failure
becomes one line on stderr and the exit code of its kind (pipeline/errors.py);
a traceback only with --debug.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer

from pipeline.errors import exit_code_help

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    help="Compile word-ladder dictionaries from word lists, and check them.\n\n" + exit_code_help(),
)
DEBUG = {"on": False}
# Bounds of the commands whose work grows with a number given (issue 38: `solve --all --limit 100000000`
# took 6.4 GB in 60 s, `puzzle --count 100000` ran on past 120 s).
MAX_LIMIT = 10_000
MAX_COUNT = 20  # 1,000 start words at most: 34 ms each for 6 letters, 12 steps, --common on raw/


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


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            say(f"ladders {version('ladders')}")
        except PackageNotFoundError:
            say("ladders (not installed: run from a source tree)")
        raise typer.Exit()


@app.callback()
def options(
    debug: Annotated[bool, typer.Option("--debug", help="On an unexpected error, show its traceback.")] = False,
    show_version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit.")
    ] = False,
) -> None:
    DEBUG["on"] = debug


ConfigOpt = Annotated[
    Optional[Path],
    typer.Option("--config", help="A TOML file of ladders keys (top-level, or in a [tool.ladders] table)."),
]
BuildDirOpt = Annotated[
    Optional[Path], typer.Option("--build-dir", help="Build into this folder [default: build_dir of the config].")
]
ReadDirOpt = Annotated[
    Optional[Path], typer.Option("--build-dir", help="The build folder to read [default: build_dir of the config].")
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars or stage notes.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Run even if fresh.")]
LenientOpt = Annotated[
    bool,
    typer.Option(
        "--lenient",
        help="Skip word-list lines whose word is not A-Z (listed in 01_skipped.parquet) "
        "instead of failing. Definition trouble never fails: it is listed in 01_warnings.parquet.",
    ),
]


@contextmanager
def reported(as_json: bool = False) -> Iterator[None]:
    """Turn any failure into one line on stderr and the exit code of its kind; with --json, into
    {"error": {"code", "message", ...}} on stdout with the same exit code."""
    from pipeline.errors import InternalError, PipelineError
    from pipeline.limits import describe_os_error

    def fail(code: int, message: str, **details) -> None:
        if as_json:
            import json

            say(json.dumps({"error": {"code": code, "message": message, **details}}))
        else:
            # One line, whatever it names: a newline in a path is written as \n, as the other controls are.
            say(f"{'interrupted' if code == 130 else 'error'}: {message}".replace("\n", "\\n"), err=True)
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


def _echo(quiet: bool):
    def echo(line: str) -> None:
        if not (quiet and line.startswith("    ")):
            say(line, err=True)

    return echo


def _runner(
    config: Optional[Path],
    build_dir: Optional[Path],
    quiet: bool,
    lenient: bool = False,
    jobs: Optional[int] = None,
    with_: tuple[str, ...] = (),
):
    from pipeline import progress
    from pipeline.config import load_config
    from ladders.compose import runner

    progress.configure(quiet)
    return runner(load_config(config, build_dir, lenient), echo=_echo(quiet), jobs=jobs, with_=with_)


def _warn_address_space(what: str = "a build of raw/", stops: str = "the build stops") -> None:
    """Before work in polars: it aborts on a failed allocation, past any one-line error, so say it first."""
    from pipeline.limits import address_space_warning

    warning = address_space_warning(what, stops)
    if warning:
        say(warning, err=True)


@app.command()
def build(
    force: ForceOpt = False,
    quiet: QuietOpt = False,
    lenient: LenientOpt = False,
    config: ConfigOpt = None,
    build_dir: BuildDirOpt = None,
    jobs: Annotated[
        Optional[int],
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Stages at a time: a stage starts once the stages it reads from are done "
            "[default: the usable cores; 1 runs them one after another].",
        ),
    ] = None,
    with_: Annotated[
        Optional[str],
        typer.Option(
            "--with",
            help="Also build these targets from the export, comma-separated: sql (<build dir>/ladder-mysql.sql, "
            "as export-sql writes it), web (<build dir>/web/, as export-web writes it); rebuilt only when the "
            "export changed.",
        ),
    ] = None,
) -> None:
    """Run every stale stage, independent ones side by side; one line per stage as it ends."""
    _warn_address_space()
    with reported():
        names = tuple(n.strip() for n in (with_ or "").split(",") if n.strip())
        _runner(config, build_dir, quiet, lenient, jobs, names).build(force=force)


@app.command()
def run(
    stage: Annotated[str, typer.Argument(help="Stage number or name, e.g. 4 or links.")],
    force: ForceOpt = False,
    quiet: QuietOpt = False,
    lenient: LenientOpt = False,
    config: ConfigOpt = None,
    build_dir: BuildDirOpt = None,
) -> None:
    """Run one stage from the inputs already on disk (if it is not fresh, or with --force)."""
    from pipeline.registry import find

    _warn_address_space()
    with reported():
        runner = _runner(config, build_dir, quiet, lenient)
        runner.run(find(runner.stages, stage), force=force)


JsonOpt = Annotated[
    bool,
    typer.Option(
        "--json",
        help="Print one JSON object on stdout instead, and an error as "
        '{"error": {"code", "message", ...}} with the same exit code.',
    ),
]
ExportOpt = Annotated[Optional[Path], typer.Option("--export", help="Export folder [default: <build dir>/export].")]


@app.command()
def status(
    config: ConfigOpt = None, build_dir: ReadDirOpt = None, lenient: LenientOpt = False, as_json: JsonOpt = False
) -> None:
    """Say for each stage: fresh, stale (and why), missing or altered. Exit 1 unless all are fresh.

    A build made with --lenient is fresh for `status --lenient`. --json prints
    {"build_dir", "fresh": bool, "stages": [{"number", "name", "state",
    "reason"}], "skipped_lines", "definition_warnings"}."""
    import json

    with reported(as_json):
        runner = _runner(config, build_dir, True, lenient)
        statuses = runner.status_all()
        problems = {name: runner.table_rows(name) for name in ("skipped", "warnings")}
    fresh = all(s.state == "fresh" for s in statuses)
    if as_json:
        say(
            json.dumps(
                {
                    "build_dir": str(runner.build_dir),
                    "fresh": fresh,
                    "stages": [
                        {"number": s.stage.number, "name": s.stage.name, "state": s.state, "reason": s.reason}
                        for s in statuses
                    ],
                    "skipped_lines": problems["skipped"] or 0,
                    "definition_warnings": problems["warnings"] or 0,
                }
            )
        )
        if not fresh:
            raise typer.Exit(1)
        return
    for s in statuses:
        say(f"{s.stage.number} {s.stage.name:<12} {s.state}" + (f": {s.reason}" if s.reason else ""))
    if problems["warnings"]:
        say(f"{problems['warnings']:,} definition warnings (words kept) in {runner.table_path('warnings')}")
    if problems["skipped"]:
        say(f"{problems['skipped']:,} word-list lines skipped (--lenient) in {runner.table_path('skipped')}")
    if any(s.state != "fresh" for s in statuses):
        raise typer.Exit(1)


def _export_dir(export: Optional[Path], config: Optional[Path], build_dir: Optional[Path] = None) -> Path:
    if export is not None:
        return export
    from pipeline.config import load_config

    return load_config(config, build_dir).path("build_dir") / "export"


def _rung_lines(ladder, width: int | None = None) -> list[str]:
    """One line per rung, its definition cut to the terminal's width (at least 40 characters of it)."""
    import shutil

    from pipeline.terminal import inert

    width = width or shutil.get_terminal_size((100, 24)).columns
    longest = max(len(w) for w in ladder.words)
    out = []
    for r in ladder.rungs:
        # Escaped before it is cut, a newline too: a hand-edited definition must not print a rung of its own.
        text = inert(r.definition).replace("\n", "\\n") if r.definition else "(no definition)"
        head = f"  {r.word:<{longest}} {r.label:<8} {r.rareness:>9,}  "
        room = max(width - len(head) - 1, 40)
        out.append(head + (text if len(text) <= room else text[: room - 3] + "..."))
    return out


def _steps(n: int) -> str:
    return f"{n} step" + ("" if n == 1 else "s")


def _ladder_json(ladder) -> dict:
    from pipeline.columns import Col  # each rung as the export's columns name it

    return {
        "steps": ladder.steps,
        "cost": ladder.cost,
        "ties": ladder.count,
        "words": [
            {Col.word: r.word, Col.rareness: r.rareness, "label": r.label, Col.definition: r.definition}
            for r in ladder.rungs
        ],
    }


@app.command()
def solve(
    start: Annotated[str, typer.Argument(help="The first word.", show_default=False)],
    end: Annotated[str, typer.Argument(help="The last word.", show_default=False)],
    lexicon: Annotated[
        str, typer.Option(help="Word list: any lexicon the export holds (csw, owl, everyday by default; any case).")
    ] = "csw",
    edit: Annotated[bool, typer.Option("--edit", help="Also insert or delete a letter per step.")] = False,
    clean: Annotated[bool, typer.Option("--clean", help="Never step on a word flagged offensive.")] = False,
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="Clean, and never step on an everyday word with a "
            "vulgar sense either (flagged vulgar_sense: ASS, COCK).",
        ),
    ] = False,
    seed: Annotated[Optional[int], typer.Option(help="Break ties reproducibly.")] = None,
    as_json: JsonOpt = False,
    all_ladders: Annotated[bool, typer.Option("--all", help="Count the shortest ladders and list some.")] = False,
    count_only: Annotated[
        bool, typer.Option("--count-only", help="Print only how many ladders of the fewest steps there are.")
    ] = False,
    limit: Annotated[
        Optional[int], typer.Option(min=1, help=f"With --all: how many to list, at most {MAX_LIMIT:,} [default: 10].")
    ] = None,
    export: ExportOpt = None,
    config: ConfigOpt = None,
    build_dir: ReadDirOpt = None,
) -> None:
    """Find the shortest ladder and the common-word ladder from START to END.

    The shortest ladder has the fewest steps, then the least sum of rareness
    over its words. The common-word ladder costs each everyday word (SCOWL's
    main lists up to level 35) 1 and any other word its rareness: the least
    cost, then the fewest steps, then the least rareness. Exact ties are drawn
    at random; --seed makes the draw repeatable.

    --json prints {"from", "to", "lexicon", "edit", "group": {"column", "id",
    "size"}, "shortest": LADDER, "common": LADDER}, where LADDER is {"steps",
    "cost" (sum of rareness), "ties" (how many ladders tie exactly), "words":
    [{"word", "rareness", "label", "definition"}]}, label being common,
    uncommon, rare or obscure (from the word's SCOWL level). With --all:
    {"from", "to", "count", "ladders": [[word, ...], ...]}, the ladders in a
    stable order (walked back from END, alphabetically): every ladder of the
    fewest steps. --count-only prints the exact number of ladders of the fewest
    steps ({"from", "to", "steps", "count"}
    with --json).

    Exit codes: 0 found; 2 bad usage; 3 a missing or damaged export; 10
    unknown word (with suggestions); 11 lengths differ (without --edit); 12 the
    words are in different groups, so no ladder exists (or, with --clean, none
    avoids the flagged words); 13 the same word twice; 14 with --clean or
    --strict, an end word is flagged (the message says offensive or
    vulgar_sense).
    """
    import json

    from ladders.solve.solver import Ladders

    lexicon = lexicon.lower()
    clean = "strict" if strict else "on" if clean else "off"
    with reported(as_json):
        _refuse_idle(
            {
                "--limit": (limit is not None and not all_ladders, "it says how many ladders --all lists"),
                "--seed": (
                    seed is not None and (all_ladders or count_only),
                    "--all and --count-only list or count every shortest ladder: no tie to break",
                ),
                "--all": (all_ladders and count_only, "--count-only prints the count alone"),
            }
        )
        _refuse_over(
            "--limit", limit or 0, MAX_LIMIT, "each ladder listed is held in memory; --count-only counts them all"
        )
        ladders = Ladders.open(_export_dir(export, config, build_dir))
        if count_only:
            count, found = ladders.all_shortest(start, end, lexicon, edit, 1, clean)
            say(
                json.dumps(
                    {"from": found[0].words[0], "to": found[0].words[-1], "steps": found[0].steps, "count": count}
                )
                if as_json
                else f"{count}"
            )
            return
        if all_ladders:
            count, found = ladders.all_shortest(start, end, lexicon, edit, limit or 10, clean)
            if as_json:
                say(
                    json.dumps(
                        {
                            "from": found[0].words[0],
                            "to": found[0].words[-1],
                            "count": count,
                            "ladders": [f.words for f in found],
                        }
                    )
                )
                return
            say(
                f"{count:,} shortest ladder{'s' if count != 1 else ''} of {_steps(found[0].steps)}"
                + (":" if len(found) == count else f"; the first {len(found)}:")
            )
            for f in found:
                say("  " + " ".join(f.words))
            return
        short = ladders.shortest(start, end, lexicon, edit, seed, clean)
        common = ladders.common(start, end, lexicon, edit, seed, clean)
    if as_json:
        # The request as given, then its group; these keys are solve's own output, not the export's columns.
        asked = {"from": short.words[0], "to": short.words[-1], "lexicon": lexicon, "edit": edit}  # not a column
        group = {"column": short.group_column, "id": short.group_id, "size": short.group_size}  # not a column
        say(
            json.dumps(
                {
                    **asked,
                    "clean": clean != "off",
                    "strict": clean == "strict",
                    "group": group,
                    "shortest": _ladder_json(short),
                    "common": _ladder_json(common),
                },
                ensure_ascii=False,
            )
        )
        return
    mode = "letters changed, inserted or deleted" if edit else "letters changed"
    say(f"{short.words[0]} -> {short.words[-1]}: {lexicon.upper()}, {mode}; a group of {short.group_size:,} words")
    for title, ladder in (("Shortest ladder", short), ("Common-word ladder", common)):
        ties = f", one of {ladder.count:,}" if ladder.count > 1 else ""
        say(f"\n{title}: {_steps(ladder.steps)}, rareness {ladder.cost:,}{ties}")
        for line in _rung_lines(ladder):
            say(line)


@app.command()
def puzzle(
    length: Annotated[int, typer.Option(min=1, help="Letters in the start and end words.")] = 4,
    steps: Annotated[int, typer.Option(min=1, help="Steps of the shortest ladder, exactly.")] = 5,
    lexicon: Annotated[
        str, typer.Option(help="Word list of the start, end and steps: any lexicon the export holds (any case).")
    ] = "csw",
    moves: Annotated[
        Optional[str],
        typer.Option(help="Accept moves through another lexicon's words (e.g. --lexicon everyday --moves csw)."),
    ] = None,
    edit: Annotated[bool, typer.Option("--edit", help="Also insert or delete a letter per step.")] = False,
    common: Annotated[
        bool, typer.Option("--common", help="Start and end on everyday words, with a par ladder of everyday words.")
    ] = False,
    clean: Annotated[
        bool,
        typer.Option(
            "--clean/--no-clean",
            help="No word flagged offensive or vulgar_sense (the default: puzzles are for families); "
            "--no-clean allows every word.",
        ),
    ] = True,
    strict: Annotated[
        bool,
        typer.Option("--strict", help="The same as --clean, the default (kept for scripts that name it)."),
    ] = False,
    seed: Annotated[Optional[int], typer.Option(help="Draw the same puzzles again.")] = None,
    count: Annotated[
        int,
        typer.Option(min=1, help=f"How many puzzles, at most {MAX_COUNT} (fewer when fewer are found: it says so)."),
    ] = 1,
    as_json: JsonOpt = False,
    export: ExportOpt = None,
    config: ConfigOpt = None,
    build_dir: ReadDirOpt = None,
) -> None:
    """Draw start/end pairs whose shortest ladder is exactly --steps steps.

    Difficulty, from "odds": the odds per rung that a player picking each
    rung at random among the words one letter away finds a par ladder (easy
    from 0.2, medium from 0.14, hard from 0.1, fiendish below), one level
    harder when no par ladder keeps to everyday words. --json prints {"asked",
    "found", "puzzles": [{"start", "end", "steps", "ladders", "all_common",
    "difficulty", "odds", "moves_steps"}]} (moves_steps: with --moves, the
    shortest ladder through that lexicon's words; else null). When
    fewer puzzles than --count are found, a line on stderr says so (exit 0).
    Exit 2 when no ladder of that many steps exists between words of that
    length (the message names the longest). A progress bar shows after a
    second (on a terminal).
    """
    import json
    from dataclasses import asdict

    from pipeline import progress
    from ladders.solve.puzzle import ATTEMPTS, puzzles
    from ladders.solve.solver import Ladders

    progress.configure(False)  # a bar on stderr, only on a terminal and only past a second
    _warn_address_space("a puzzle of raw/'s export", "it stops")
    with reported(as_json):
        _refuse_idle({"--strict": (strict and not clean, "--no-clean allows every word, --strict refuses some")})
        _refuse_over("--count", count, MAX_COUNT, f"each puzzle tries up to {ATTEMPTS} start words")
        found = puzzles(
            Ladders.open(_export_dir(export, config, build_dir)),
            length,
            steps,
            lexicon.lower(),
            edit,
            common,
            "strict" if clean or strict else "off",
            seed,
            count,
            moves.lower() if moves else None,
        )
    if len(found) < count:
        say(
            f"found {len(found)} of the {count} puzzles asked for: {ATTEMPTS * count:,} start words tried "
            f"(fewer pairs of {length}-letter words are {_steps(steps)} apart)",
            err=True,
        )
    if as_json:
        say(json.dumps({"asked": count, "found": len(found), "puzzles": [asdict(p) for p in found]}))
        return
    for p in found:
        say(
            f"{p.start} -> {p.end}: {_steps(p.steps)}, {p.ladders:,} shortest ladder"
            f"{'s' if p.ladders != 1 else ''}, {p.difficulty}"
            + (f"; {_steps(p.moves_steps)} through {moves.lower()} words" if p.moves_steps is not None else "")
        )


@app.command("export-sql")
def export_sql(
    dialect: Annotated[str, typer.Option(help="SQL dialect: mysql (MySQL and MariaDB).")] = "mysql",
    out: Annotated[
        Optional[Path], typer.Option(help="Dump file [default: <build dir>/ladder-mysql.sql]; - for stdout.")
    ] = None,
    export: ExportOpt = None,
    config: ConfigOpt = None,
    build_dir: ReadDirOpt = None,
) -> None:
    """Write the export as a SQL dump that `mysql DB < FILE` loads: tables words, links and ladder_groups,
    utf8mb4, batched INSERTs, the same indexes as ladder.sqlite, and a final row-count check."""

    from pipeline import io
    from ladders.artifact.sqldump import check_target, mysql_dump
    from pipeline.swap import read_consistently

    _warn_address_space("the dump of raw/'s export", "it stops")
    with reported():
        from pipeline.errors import UsageError

        if dialect.lower() not in ("mysql", "mariadb"):
            raise UsageError(f"unknown --dialect {dialect!r}: only mysql (MySQL and MariaDB) is written")
        folder = _export_dir(export, config, build_dir)
        # Whole before it is written anywhere: a dump read across a rebuild's swap is read again.
        dump = read_consistently(lambda: "".join(mysql_dump(folder)), folder)
        if out is not None and str(out) == "-":
            write_stdout(dump.encode())
            return
        if out is not None and out.is_dir():
            raise UsageError(f"--out {out} is a folder: name a file (or - for stdout)")
        default = folder.parent / "ladder-mysql.sql"
        if out is not None and out.resolve().parent in (folder.resolve(), folder.parent.resolve()):
            if out.resolve() != default.resolve() and (out.resolve().parent == folder.resolve() or out.exists()):
                raise UsageError(f"--out {out} would replace a file of the export or its build folder; name another")
        target = out or default
        check_target(target)
        io.write_atomic(target, dump.encode(), named_by_user=out is not None)
        say(f"wrote {target} ({target.stat().st_size / 1e6:,.1f} MB)", err=True)


@app.command("export-web")
def export_web(
    folder: Annotated[Path, typer.Argument(help="Folder for the page (new, empty, or written by export-web).")],
    export: ExportOpt = None,
    config: ConfigOpt = None,
    build_dir: ReadDirOpt = None,
) -> None:
    """Write a static solver page into FOLDER: index.html, app.js, style.css and data/ (a word index,
    buckets of groups with their links, definitions; files named by content, with gzip copies). Serve the folder over HTTP, e.g. `python -m http.server -d FOLDER`;
    ?from=COLD&to=WARM solves on load."""
    from ladders.artifact.webfolder import write_web
    from pipeline.swap import read_consistently

    _warn_address_space("the page of raw/'s export", "it stops")
    with reported():
        source = _export_dir(export, config, build_dir)
        size = read_consistently(lambda: write_web(source, folder, lambda line: say(line, err=True)), source)
    say(f"wrote {folder} ({size / 1e6:,.1f} MB)", err=True)


@app.command()
def release(
    folder: Annotated[Path, typer.Argument(help="The release folder: new, empty, or a release to replace.")],
    previous: Annotated[
        Optional[Path],
        typer.Option(help="The last release (a folder, .tar.gz or .zip): CHANGES.md says what changed since."),
    ] = None,
    quiet: QuietOpt = False,
    config: ConfigOpt = None,
    build_dir: BuildDirOpt = None,
) -> None:
    """Build what is stale, verify the export and write a release into FOLDER: the export's files, the MySQL
    dump (ladder-mysql.sql.gz), the web folder (web.tar.gz), NOTICE, CHANGES.md and SHA256SUMS; the same
    inputs give the same bytes. Exit 1 when the export fails verify; 2 when FOLDER holds files but is not a
    release; 3 when the previous release is damaged (a file not matching its SHA256SUMS)."""
    from ladders.artifact.release import input_paths, write_release

    _warn_address_space()
    with reported():
        runner = _runner(config, build_dir, quiet)
        runner.build()
        export = runner.build_dir / "export"
        sums = write_release(export, folder, previous, input_paths(runner.config, export))
    say(f"wrote {folder}: {len(sums)} files and SHA256SUMS", err=True)


@app.command()
def verify(
    folder: Annotated[
        Optional[Path], typer.Argument(hidden=True, help="The export, as --export (older usage).")
    ] = None,
    export: ExportOpt = None,
    config: ConfigOpt = None,
    build_dir: ReadDirOpt = None,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Check an export against its manifest and the contract's invariants.

    Exit 0 when every check holds; otherwise one line per failed check (its
    code, what failed, up to five examples) and exit 1. --json prints
    {"export", "checks": N, "failed": [{"code", "message", "examples"}]}.
    """
    import json

    from pipeline import progress
    from ladders.artifact.verify import CHECKS, verify as run_checks
    from pipeline.swap import read_consistently

    progress.configure(quiet or as_json)
    _warn_address_space("verify of raw/'s export", "it stops")
    with reported(as_json):
        if folder is not None and export is not None:
            from pipeline.errors import UsageError

            raise UsageError("give the export once: --export FOLDER")
        folder = _export_dir(export or folder, config, build_dir)
        failed = read_consistently(lambda: run_checks(folder), folder)
    if as_json:
        say(
            json.dumps(
                {
                    "export": str(folder),
                    "checks": len(CHECKS),
                    "failed": [{"code": c, "message": m, "examples": x} for c, m, x in failed],
                },
                ensure_ascii=False,
            )
        )
        if failed:
            raise typer.Exit(1)
        return
    for code, message, examples in failed:
        say(f"{code} {message}: {'; '.join(examples)}")
    if failed:
        raise typer.Exit(1)
    say(f"{folder}: all {len(CHECKS)} checks hold")


@app.command()
def diff(
    old: Annotated[Path, typer.Argument(help="The older export folder.")],
    new: Annotated[Path, typer.Argument(help="The newer export folder.")],
    as_json: JsonOpt = False,
) -> None:
    """What changed between two exports: words, links, groups (matched by members), rareness, rareness labels,
    definitions and flags.

    --json prints {"words": {LEXICON: {"added", "removed"}}, "links": {"added",
    "removed": [[A, B, KIND], ...]}, "groups": {"csw/sub"...: {"merged": [{"into",
    "from"}], "split": [{"from", "into"}], "appeared", "vanished"}}, each column pipeline/columns.py
    compares by value ("rareness", ...), "labels", "definitions": [{"word", "old", "new"}], "flags": [{"word", "flag",
    "old", "new"}]}; a group is
    named by its first word and size, e.g. "COLD (5378)". Exit 0 when the
    exports agree, 1 when they differ.
    """
    import json

    from ladders.artifact.diff import describe, diff_exports
    from pipeline.swap import read_consistently

    _warn_address_space("a diff of raw/'s exports", "it stops")
    with reported(as_json):
        result = read_consistently(lambda: diff_exports(old, new), old, new)
    if as_json:
        say(json.dumps(result, ensure_ascii=False))
    else:
        for line in describe(result):
            say(line)
    if _nonempty(result):
        raise typer.Exit(1)


@app.command("config")
def show_config(config: ConfigOpt = None, build_dir: ReadDirOpt = None, as_json: JsonOpt = False) -> None:
    """Print the effective configuration: every key, its value, and the file or option that set it.

    Defaults are built in; the project's ladders.toml (or pyproject.toml's
    [tool.ladders]) is found from the current folder upwards; --config and
    --build-dir override it. --json prints {KEY: {"value", "from"}}."""
    import json

    from pipeline.config import load_config

    with reported(as_json):
        loaded = load_config(config, build_dir)
    entries = {k: {"value": v, "from": loaded.sources.get(k, "")} for k, v in loaded.values.items()}
    if as_json:
        say(json.dumps(entries))
        return
    width = max(map(len, entries))
    for key, entry in entries.items():
        say(f"{key:<{width}} = {json.dumps(entry['value'])}  # {entry['from']}")


def _refuse_idle(options: dict[str, tuple[bool, str]]) -> None:
    """Refuse an option given where it would do nothing: {option: (idle, why)}."""
    from pipeline.errors import UsageError

    for option, (idle, why) in options.items():
        if idle:
            raise UsageError(f"{option} does nothing here: {why}")


def _refuse_over(option: str, value: int, most: int, why: str) -> None:
    from pipeline.errors import UsageError

    if value > most:
        raise UsageError(f"{option} {value:,} is more than {most:,}, the most it takes: {why}")


def _nonempty(value) -> bool:
    if isinstance(value, dict):
        return any(_nonempty(v) for v in value.values())
    return bool(value)


def main() -> None:
    """The `ladders` command. Typer's own usage errors (a missing argument, an unknown option) become JSON
    too when --json is among the arguments."""
    from typer.exceptions import Abort, TyperException

    try:
        code = typer.main.get_command(app).main(standalone_mode=False)
    except StdoutGone:
        import os

        # Python's own flush of stdout at exit would fail again and print a traceback: write it to nowhere.
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        sys.exit(STDOUT_GONE)
    except TyperException as e:
        if "--json" in sys.argv[1:]:
            import json

            say(json.dumps({"error": {"code": e.exit_code, "message": e.format_message()}}))
        elif hasattr(e, "show"):
            e.show()
        else:
            say(f"error: {e.format_message()}", err=True)
        sys.exit(e.exit_code)
    except Abort:
        say("interrupted", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)
