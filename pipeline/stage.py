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

import inspect
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

    @property
    def source_file(self) -> Path:
        return Path(inspect.getsourcefile(self.transform) or "")

    @property
    def label(self) -> str:
        return f"{self.number} {self.name}"
