"""The stage registry: every stage in DAG order, found by number or name.

The engine names no stage: the stage modules' names are handed in (ladders/compose.py passes
stages.STAGE_MODULES). They are imported on first use, not at import time, so commands that need no
stage (solve) stay quick to start.
"""

from __future__ import annotations

import importlib

from pipeline.errors import InternalError, UsageError
from pipeline.stage import Output, Stage


def all_stages(modules: tuple[str, ...], extra: tuple[Stage, ...] = ()) -> list[Stage]:
    """The STAGE of each module named, in that order, then the `extra` stages (targets the product adds,
    e.g. the MySQL dump), checked: each table a stage reads is written by an earlier one, and no argument
    name is passed twice."""
    stages = [*(importlib.import_module(m).STAGE for m in modules), *extra]
    written: dict[str, Stage] = {}
    for stage in stages:
        names = (
            stage.reads + stage.raw + stage.settings + ("digests",) * bool(stage.digests) + ("scratch",) * stage.scratch
        )
        if len(set(names)) != len(names):
            raise InternalError(f"stage {stage.label} passes one argument name twice: {names}")
        for table in stage.reads:
            if table not in written:
                raise InternalError(f"stage {stage.label} reads {table!r}, which no earlier stage writes")
        written.update({name: stage for name in stage.writes})
    return stages


def find(stages: list[Stage], key: str) -> Stage:
    for stage in stages:
        if key in (str(stage.number), f"{stage.number:02d}", stage.name):
            return stage
    names = ", ".join(f"{s.number} {s.name}" for s in stages)
    raise UsageError(f"no stage {key!r}; stages are: {names}")


def writer_of(stages: list[Stage], table: str) -> tuple[Stage, Output]:
    for stage in stages:
        if table in stage.writes:
            return stage, stage.writes[table]
    raise InternalError(f"no stage writes table {table!r}")
