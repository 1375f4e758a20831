"""The commands that run the engine or report on it: `build`, `run`, `status` and `config`.

Each loads the config (pipeline/config.py) and, but `config`, the Runner over the composed stages
(ladders/compose.py); the Runner reads and writes the build folder. These commands print the stages'
notes on stderr, and `status` and `config` their report on stdout (text, or one JSON object).
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ladders.cli.options import (
    BuildDirOpt,
    ConfigOpt,
    ForceOpt,
    JsonOpt,
    LenientOpt,
    QuietOpt,
    ReadDirOpt,
    runner_for,
)
from ladders.cli.output import reported, say, warn_address_space
from pipeline.wording import counted, warnings_text


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
    warn_address_space()
    with reported():
        names = tuple(n.strip() for n in (with_ or "").split(",") if n.strip())
        runner = runner_for(config, build_dir, quiet, lenient, jobs, names)
        runner.show_skipped = not quiet  # quiet: the lines of the stages that ran, errors; nothing else
        runner.build(force=force)


def run(
    stage: Annotated[str, typer.Argument(help="Stage number or name, e.g. 4 or links.")],
    force: ForceOpt = False,
    quiet: QuietOpt = False,
    lenient: LenientOpt = False,
    config: ConfigOpt = None,
    build_dir: BuildDirOpt = None,
) -> None:
    """Run one stage from the inputs already on disk, if it is not fresh. Refused (exit 2) when a stage it
    reads from is stale, naming it and what to run; --force runs it anyway, on the inputs as they are."""
    from pipeline.registry import find

    warn_address_space()
    with reported():
        runner = runner_for(config, build_dir, quiet, lenient)
        runner.show_skipped = not quiet
        runner.run(find(runner.stages, stage), force=force)


def status(
    config: ConfigOpt = None, build_dir: ReadDirOpt = None, lenient: LenientOpt = False, as_json: JsonOpt = False
) -> None:
    """Say for each stage: fresh, stale (and why), missing or altered. Exit 1 unless all are fresh.

    A build made with --lenient is fresh for `status --lenient`. --json prints
    {"build_dir", "fresh": bool, "stages": [{"number", "name", "state",
    "reason"}], "skipped_lines", "definition_warnings", "remove_list_strays"}; `ladders warnings` lists them."""
    import json

    with reported(as_json):
        runner = runner_for(config, build_dir, True, lenient)
        runner.folder.inspect()  # what build would refuse, refused here alike (a file, a link, a foreign file)
        statuses = runner.status_all()
        problems = _problems(runner)
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
                    "skipped_lines": len(problems["skipped"]),
                    "definition_warnings": len(problems["warnings"]) - problems["strays"],
                    "remove_list_strays": problems["strays"],
                }
            )
        )
        if not fresh:
            raise typer.Exit(1)
        return
    for s in statuses:
        say(f"{s.stage.number} {s.stage.name:<12} {s.state}" + (f": {s.reason}" if s.reason else ""))
    if problems["warnings"]:
        named = warnings_text(len(problems["warnings"]), problems["strays"])
        say(f"{named} in {runner.table_path('warnings')} (`ladders warnings` lists them)")
    if problems["skipped"]:
        lines = counted(len(problems["skipped"]), "word-list line")
        say(f"{lines} skipped (--lenient) in {runner.table_path('skipped')} (`ladders warnings` lists them)")
    if any(s.state != "fresh" for s in statuses):
        raise typer.Exit(1)


def _problems(runner) -> dict:
    """The build's skipped lines and warnings (rows of 01_skipped/01_warnings.parquet, none when a table is
    missing or unreadable), and how many of the warnings are remove-list words that no list holds."""
    import polars as pl

    from pipeline.schemas import STRAY

    found: dict = {}
    for table in ("skipped", "warnings"):
        try:
            found[table] = pl.read_parquet(runner.build_dir / runner.table_path(table).name).rows(named=True)
        except (OSError, pl.exceptions.PolarsError):
            found[table] = []
    found["strays"] = sum(row["reason"] == STRAY for row in found["warnings"])
    return found


def warnings(config: ConfigOpt = None, build_dir: ReadDirOpt = None, as_json: JsonOpt = False) -> None:
    """List the build's warnings (definition trouble, remove-list words that no list holds: the words are kept)
    and the word-list lines --lenient skipped: one line each, `FILE, line N: REASON: TEXT`.

    Read from the build folder (01_warnings.parquet, 01_skipped.parquet); exit 3 when the build has neither.
    --json prints {"build_dir", "warnings": [{"list", "file", "line", "text", "reason"}], "skipped": [...]}."""
    import json

    from pipeline.errors import DamagedState

    with reported(as_json):
        runner = runner_for(config, build_dir, True)
        runner.folder.inspect()  # a file, a link, a foreign folder: refused as status refuses it
        paths = [runner.build_dir / runner.table_path(t).name for t in ("skipped", "warnings")]
        if not all(p.is_file() for p in paths):
            raise DamagedState(f"no word-list tables in {runner.build_dir} (it has no build): run `ladders build`")
        problems = _problems(runner)
    if as_json:
        say(
            json.dumps(
                {"build_dir": str(runner.build_dir), "warnings": problems["warnings"], "skipped": problems["skipped"]}
            )
        )
        return
    for kind, label in (("warnings", "warning"), ("skipped", "skipped")):
        for row in problems[kind]:
            say(f"{label}: {row['file']}, line {row['line']}: {row['reason']}: {row['text']}")
    named = warnings_text(len(problems["warnings"]), problems["strays"]) or "no warnings"
    say(f"{named}; {counted(len(problems['skipped']), 'word-list line')} skipped", err=True)


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
