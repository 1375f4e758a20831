"""Progress bars that can be switched off.

Bars are shown only when the CLI enabled them (no --quiet) and stderr is a
terminal, so CI logs and tests stay clean. Stages call `track` on their long
loops, a search of unknown length `counter` (shown only past a second);
nothing else in the code base touches tqdm.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
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


@contextmanager
def counter(total: int, desc: str, delay: float = 1.0) -> Iterator[Callable[[], None]]:
    """A bar of `total` items, shown only when the work takes longer than `delay` seconds; yields the
    function that counts one item done."""
    if not _enabled:
        yield lambda: None
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, leave=False, file=sys.stderr, delay=delay) as bar:
        yield lambda: bar.update(1)
