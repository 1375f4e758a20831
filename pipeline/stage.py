"""How a stage declares itself: what it reads, what it writes, which transform to call.

A stage module defines a pure transform and a `STAGE = Stage(...)`. The runner
calls the transform with keyword arguments: one DataFrame per table in
`reads`, one `{path: bytes}` dict per raw-input config key in `raw` (a file
key gives one entry, a folder key one per file), the value of each config
key in `settings`, and, when it declares `digests`, one dict `digests`
{path: {"key", "sha256", "size"}} of the files of those keys (hashed once per
build by the runner, never read again). The transform returns one value per name in `writes`: a
DataFrame for a table, `bytes` for a file declared without a schema, or `{file name: bytes}` for a
folder (a folder declared `named_by_transform` holds whatever names the transform returns, in
subfolders too). A table in `reads` that is a folder is passed as the Path of that folder in the build
folder (its member files are hashed as its inputs, never loaded by the runner). It may add
`"notes": [str, ...]`, lines the runner shows under the stage's summary line.
A stage that declares `scratch` is also passed `scratch`, an empty folder of
its own inside the build folder (removed after the stage, whatever happens);
a folder member's value may then be the Path of a finished file in it, which
the runner moves into place instead of holding its bytes in memory.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Modules every stage's output depends on: they encode, name and check every table the runner writes, and
# terminal.py holds the one rule of unsafe characters (stage 1 strips them, the MySQL dump hex-codes them).
ALWAYS = ("pipeline.io", "pipeline.schemas", "pipeline.columns", "pipeline.sqlite", "pipeline.terminal")


@dataclass(frozen=True)
class Output:
    """A file under the build dir, or a folder (`members`: file name -> schema or None)."""

    path: str
    # A table's columns, or a function of the config's lexicons ({name: entry}) giving them when they
    # depend on which lexicons the build makes (a column per lexicon).
    schema: dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]] | None = None
    members: dict[str, dict[str, Any] | None] | None = None
    named_by_transform: bool = False  # a folder whose member names the transform decides (members={})
    # Its per-lexicon columns are those of the lexicons stage 5 made: the config's, less a default lexicon that
    # ended empty (schemas.made_lexicons, read off the table's own in_<name> columns).
    made: bool = False

    def columns(self, lexicons: dict[str, Any]) -> dict[str, Any] | None:
        """The table's schema for a build of these lexicons."""
        return self.schema(lexicons) if callable(self.schema) else self.schema

    @property
    def is_dir(self) -> bool:
        return self.members is not None

    def files(self) -> list[str]:
        """Paths relative to the build dir of every file this output holds."""
        if self.members is None:
            return [self.path]
        return [f"{self.path}/{name}" for name in self.members]


@dataclass(frozen=True)
class Stage:
    number: int
    name: str
    transform: Callable[..., dict[str, Any]]
    writes: dict[str, Output]
    reads: tuple[str, ...] = ()
    raw: tuple[str, ...] = ()
    settings: tuple[str, ...] = field(default=())
    digests: tuple[str, ...] = ()  # raw-input keys the stage only records: passed as `digests`, no bytes
    scratch: bool = False  # passed `scratch`, an empty folder of its own in the build folder (see above)
    helpers: tuple[str, ...] = ()  # project modules (beyond its own) whose code shapes its output
    assets: tuple[Path, ...] = ()  # data files (not modules) whose content shapes its output

    def code_files(self) -> list[Path]:
        """The source files whose change can change this stage's output: the stage's module, the
        project modules it declares in `helpers`, and ALWAYS. (tests/test_runner.py checks the
        declaration against the modules the stage actually takes names from.)"""
        import importlib

        names = (self.transform.__module__, *self.helpers, *ALWAYS)
        modules = [Path(importlib.import_module(n).__file__ or "") for n in dict.fromkeys(names)]
        return sorted([*modules, *self.assets])

    @property
    def label(self) -> str:
        return f"{self.number} {self.name}"
