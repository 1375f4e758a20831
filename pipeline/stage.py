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
A stage that declares `pops_inputs` is called instead with one argument: a dict of those same keyword
arguments, which it owns (the runner keeps no other reference to its values), so that it can pop an input
once used and its memory goes before the stage's peak (stage 2's GCIDE entries, its lists' senses).
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

# Modules every stage's output depends on: they encode, name and check every table the runner writes, and
# terminal.py holds the one rule of unsafe characters (stage 1 strips them, the MySQL dump hex-codes them).
ALWAYS = ("pipeline.io", "pipeline.schemas", "pipeline.columns", "pipeline.sqlite", "pipeline.terminal")
# Messages, declarations, bars and resource limits: modules whose code shapes no byte of an output.
HARMLESS = frozenset({"pipeline.errors", "pipeline.stage", "pipeline.progress", "pipeline.limits"})
PROJECT = ("pipeline", "stages", "ladders")  # the top-level packages whose modules the scan follows


# An import statement at the start of a line, at any indentation (inside functions too): `from a.b import
# x, y` (or a parenthesised list over several lines) or `import a.b, c`. A docstring's line that reads like
# one only adds a file to the scan: never fewer.
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)|import[ \t]+([^\n#;]+))", re.M
)


@cache
def project_imports(module: str) -> frozenset[str]:
    """The project modules a module imports, inside functions too, and theirs in turn (the module itself
    included): what can shape the output of code that runs it. Read from the source files, importing
    nothing; packages (whose __init__.py holds a docstring, and stages/ the stage list) are followed, not
    listed."""
    seen, todo, packages = set(), [module], set()
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            packages.update([name] if _file(name).name == "__init__.py" else [])
            todo += _direct_imports(name)
    return frozenset(seen - packages)


@cache
def _direct_imports(module: str) -> tuple[str, ...]:
    """The project modules and packages one module's source imports."""
    found = []
    for source, names, plain in _IMPORT.findall(_file(module).read_text()):
        if plain:
            found += [n.split()[0] for n in plain.split(",") if n.strip()]
        else:  # `from pipeline import io` imports the module pipeline.io; `from pipeline.io import x` pipeline.io
            found += [source, *(f"{source}.{n.split()[0]}" for n in names.strip("()").split(",") if n.strip())]
    return tuple(n for n in found if _source(n) is not None)


def _file(name: str) -> Path:
    """A module's source file: a project module's by its name, another's (a test's transform) as imported."""
    return _source(name) or Path(importlib.import_module(name).__file__ or "")


@cache
def _source(name: str) -> Path | None:
    """The source file of a project module or package by its dotted name; None for any other name (a
    library's, a function's or a class's)."""
    top, *rest = name.split(".")
    if top not in PROJECT or not rest:
        return None
    for base in importlib.import_module(top).__path__:  # the top-level package: imported already
        stem = os.path.join(base, *rest)
        for path in (stem + ".py", os.path.join(stem, "__init__.py")):
            if os.path.isfile(path):
                return Path(path)
    return None


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
    assets: tuple[Path, ...] = ()  # data files (not modules) whose content shapes its output
    pops_inputs: bool = False  # called with one dict of its inputs, which it may pop (see above)
    # Stages (by name) that, when the same build runs them, finish before this one starts although it reads
    # nothing of theirs: a scheduling hint, so that two stages' peak memory does not meet. It changes no
    # output and no staleness.
    runs_after: tuple[str, ...] = ()

    def code_files(self) -> list[Path]:
        """The source files whose change can change this stage's output: the transform's module and every
        project module it imports (project_imports, functions' imports too), and ALWAYS, less HARMLESS."""
        names = (project_imports(self.transform.__module__) | set(ALWAYS)) - HARMLESS
        return sorted([*map(_file, names), *self.assets])

    @property
    def label(self) -> str:
        return f"{self.number} {self.name}"
