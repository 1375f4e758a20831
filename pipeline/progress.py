"""Progress bars that can be switched off.

Bars are shown only when the CLI enabled them (no --quiet) and stderr is a
terminal, so CI logs and tests stay clean. Stages call `track` on their long
loops; nothing else in the code base touches tqdm.
"""
from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")
_enabled = False


def configure(quiet: bool) -> None:
    global _enabled
    _enabled = not quiet and sys.stderr.isatty()


def track(items: Iterable[T], desc: str, total: int | None = None) -> Iterator[T]:
    if not _enabled:
        yield from items
        return
    from tqdm import tqdm

    yield from tqdm(items, desc=desc, total=total, leave=False, file=sys.stderr)
