"""The options several commands share, and what they resolve to.

--config, --build-dir, --export, --quiet, --force, --lenient and --json are declared here once, with
their help texts; `runner_for` turns --config and --build-dir into the engine's Runner (the stages
composed by ladders/compose.py) and `export_dir` into the export folder to read (a config's build_dir
plus export/, unless --export names one). `refuse_idle` and `refuse_over` are the usage errors (exit 2)
of an option that would do nothing or asks for too much. Reads only the config (pipeline/config.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ladders.cli.output import say_line

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
        help="Skip word-list lines whose word is not of the alphabet, A-Z in English (listed in 01_skipped.parquet) "
        "instead of failing. Definition trouble never fails: it is listed in 01_warnings.parquet.",
    ),
]
JsonOpt = Annotated[
    bool,
    typer.Option(
        "--json",
        help="Print one JSON object on stdout instead, and an error as "
        '{"error": {"code", "message", ...}} with the same exit code.',
    ),
]
ExportOpt = Annotated[Optional[Path], typer.Option("--export", help="Export folder [default: <build dir>/export].")]


def _echo(quiet: bool):
    def echo(line: str) -> None:
        if not (quiet and line.startswith("    ")):
            say_line(line)

    return echo


def runner_for(
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


def export_dir(export: Optional[Path], config: Optional[Path], build_dir: Optional[Path] = None) -> Path:
    if export is not None:
        return export
    from pipeline.config import load_config

    return load_config(config, build_dir).path("build_dir") / "export"


def refuse_idle(options: dict[str, tuple[bool, str]]) -> None:
    """Refuse an option given where it would do nothing: {option: (idle, why)}."""
    from pipeline.errors import UsageError

    for option, (idle, why) in options.items():
        if idle:
            raise UsageError(f"{option} does nothing here: {why}")


def refuse_over(option: str, value: int, most: int, why: str) -> None:
    from pipeline.errors import UsageError

    if value > most:
        raise UsageError(f"{option} {value:,} is more than {most:,}, the most it takes: {why}")
