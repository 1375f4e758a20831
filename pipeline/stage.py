"""How a stage declares itself: what it reads, what it writes, which transform to call.

A stage module defines a pure transform and a `STAGE = Stage(...)`. The runner
calls the transform with keyword arguments: one DataFrame per table in
`reads`, one `{path: bytes}` dict per raw-input config key in `raw` (a file
key gives one entry, a folder key one per file), and the value of each config
key in `settings`. The transform returns one value per name in `writes`: a
DataFrame for a table, or `{file name: bytes}` for a folder; it may add
`"notes": [str, ...]`, lines the runner shows under the stage's summary line.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Output:
    """A file under the build dir, or a folder (`members`: file name -> schema or None)."""

    path: str
    schema: dict[str, Any] | None = None
    members: dict[str, dict[str, Any] | None] | None = None

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

    def code_files(self) -> list[Path]:
        """The source files whose change can change this stage's output.

        The stage's module, every module of this project it takes names from
        (a helper such as stages/wordnet.py), and pipeline/io.py and
        pipeline/schemas.py, which encode and check every table the runner writes.
        """
        module = sys.modules[self.transform.__module__]
        names = {module.__name__, "pipeline.io", "pipeline.schemas"}
        for value in vars(module).values():
            name = getattr(value, "__module__", None) or getattr(value, "__name__", "")
            if isinstance(name, str) and name.split(".")[0] in ("stages", "pipeline"):
                names.add(name)
        return sorted(Path(sys.modules[n].__file__ or "") for n in names if n in sys.modules)

    @property
    def label(self) -> str:
        return f"{self.number} {self.name}"
