"""The `ladders` command line: a thin layer over the runner (and, later, the solver).

Each command loads the config, calls the library and prints; a PipelineError
becomes one line on stderr and exit code 1, never a traceback.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Optional

import typer

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Compile word-ladder dictionaries from word lists, and check them.")

ConfigOpt = Annotated[Optional[Path], typer.Option("--config", help="TOML file of [tool.ladders] keys.")]
BuildDirOpt = Annotated[Optional[Path], typer.Option("--build-dir", help="Build into this folder instead.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars or stage notes.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Run even if fresh.")]
LenientOpt = Annotated[bool, typer.Option(
    "--lenient", help="Skip bad word-list lines (listed in 01_skipped.parquet) instead of failing.")]


@contextmanager
def reported() -> Iterator[None]:
    """Turn a PipelineError into one line on stderr and exit code 1."""
    from pipeline.errors import PipelineError

    try:
        yield
    except PipelineError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from None


def _echo(quiet: bool):
    def echo(line: str) -> None:
        if not (quiet and line.startswith("    ")):
            typer.echo(line, err=True)

    return echo


def _runner(config: Optional[Path], build_dir: Optional[Path], quiet: bool, lenient: bool = False):
    from pipeline import progress
    from pipeline.config import load_config
    from pipeline.runner import Runner

    progress.configure(quiet)
    return Runner(load_config(config, build_dir, lenient), echo=_echo(quiet))


@app.command()
def build(force: ForceOpt = False, quiet: QuietOpt = False, lenient: LenientOpt = False,
          config: ConfigOpt = None, build_dir: BuildDirOpt = None) -> None:
    """Run every stale stage in order; one line per stage."""
    with reported():
        _runner(config, build_dir, quiet, lenient).build(force=force)


@app.command()
def run(stage: Annotated[str, typer.Argument(help="Stage number or name, e.g. 4 or links.")],
        force: ForceOpt = False, quiet: QuietOpt = False, lenient: LenientOpt = False,
        config: ConfigOpt = None, build_dir: BuildDirOpt = None) -> None:
    """Run one stage from the inputs already on disk (if it is not fresh, or with --force)."""
    from pipeline.registry import find

    with reported():
        runner = _runner(config, build_dir, quiet, lenient)
        runner.run(find(runner.stages, stage), force=force)


@app.command()
def status(config: ConfigOpt = None, build_dir: BuildDirOpt = None) -> None:
    """Say for each stage: fresh, stale (and why), missing or altered. Exit 1 unless all are fresh."""
    with reported():
        statuses = _runner(config, build_dir, True).status_all()
    for s in statuses:
        typer.echo(f"{s.stage.number} {s.stage.name:<12} {s.state}" + (f": {s.reason}" if s.reason else ""))
    if any(s.state != "fresh" for s in statuses):
        raise typer.Exit(1)


def main() -> None:
    app()
