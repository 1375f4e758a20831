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
        runner_for(config, build_dir, quiet, lenient, jobs, names).build(force=force)


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
        runner.run(find(runner.stages, stage), force=force)


def status(
    config: ConfigOpt = None, build_dir: ReadDirOpt = None, lenient: LenientOpt = False, as_json: JsonOpt = False
) -> None:
    """Say for each stage: fresh, stale (and why), missing or altered. Exit 1 unless all are fresh.

    A build made with --lenient is fresh for `status --lenient`. --json prints
    {"build_dir", "fresh": bool, "stages": [{"number", "name", "state",
    "reason"}], "skipped_lines", "definition_warnings"}."""
    import json

    with reported(as_json):
        runner = runner_for(config, build_dir, True, lenient)
        runner.folder.inspect()  # what build would refuse, refused here alike (a file, a link, a foreign file)
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
