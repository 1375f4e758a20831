"""Progress that can be switched off: a bar at a terminal, a plain line every few seconds elsewhere.

`configure(quiet)` picks the mode once per command: nothing with --quiet; tqdm bars when stderr is a
terminal; otherwise (CI, a log file, `2> file`) a plain line every EVERY seconds, so that long work is not
silent for minutes, and work shorter than that says nothing. Stages call `track` on their long loops, a
search of unknown length `counter` (a bar shown only past a second); the scheduler's `Ticker` says which
stages are still running. `clock` is the time they read: a test hands in its own. Nothing else in the
code base touches tqdm. Writes only to stderr.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

T = TypeVar("T")
MODES = ("off", "bar", "plain")
_mode = {"now": "off"}
EVERY = 5.0  # seconds between two plain lines (and before the first: short work says nothing)
# Seconds between plain lines instead, 0 for none: for a log that wants fewer, and for the tests, whose
# stderr is compared whole and must not change with the machine's speed.
EVERY_ENV = "LADDERS_PROGRESS_SECONDS"
clock: Callable[[], float] = time.monotonic


def configure(quiet: bool, terminal: bool | None = None) -> None:
    """Nothing when quiet; bars on a terminal (`terminal`, default: whether stderr is one); plain lines else."""
    global EVERY
    import os

    if terminal is None:
        terminal = sys.stderr is not None and sys.stderr.isatty()
    try:
        EVERY = float(os.environ.get(EVERY_ENV, EVERY))
    except ValueError:
        pass  # not a number: the default
    _mode["now"] = "off" if quiet else "bar" if terminal else "plain" if EVERY > 0 else "off"


def mode() -> str:
    return _mode["now"]


def say(line: str) -> None:
    """One plain progress line on stderr (our own text: names of steps and counts)."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # no one reads stderr any more: the work goes on
        pass


class Ticker:
    """Says `what()` every EVERY seconds of `clock`, when the mode is plain; the first time EVERY seconds
    after it was made."""

    def __init__(self, echo: Callable[[str], None] = say):
        self.echo, self.last = echo, clock()

    def tick(self, what: Callable[[], str]) -> None:
        if _mode["now"] != "plain":
            return
        now = clock()
        if now - self.last >= EVERY:
            self.last = now
            self.echo(what())


def _count(desc: str, done: int, total: int | None) -> str:
    return f"{desc}: {done:,}" + (f" of {total:,} ({done / total:.0%})" if total else "")


def track(items: Iterable[T], desc: str, total: int | None = None) -> Iterator[T]:
    if _mode["now"] == "off":
        yield from items
        return
    if _mode["now"] == "plain":
        if total is None and hasattr(items, "__len__"):
            total = len(items)  # type: ignore[arg-type]
        ticker = Ticker()
        for done, item in enumerate(items):
            ticker.tick(lambda done=done: _count(desc, done, total))
            yield item
        return
    from tqdm import tqdm

    yield from tqdm(items, desc=desc, total=total, leave=False, file=sys.stderr)


@contextmanager
def counter(total: int, desc: str, delay: float = 1.0) -> Iterator[Callable[[], None]]:
    """A bar of `total` items, shown only when the work takes longer than `delay` seconds (plain: a line
    every EVERY seconds); yields the function that counts one item done."""
    if _mode["now"] == "off":
        yield lambda: None
        return
    if _mode["now"] == "plain":
        ticker, done = Ticker(), [0]

        def one_more() -> None:
            done[0] += 1
            ticker.tick(lambda: _count(desc, done[0], total))

        yield one_more
        return
    from tqdm import tqdm

    with tqdm(total=total, desc=desc, leave=False, file=sys.stderr, delay=delay) as bar:
        yield lambda: bar.update(1)


@contextmanager
def working(desc: str) -> Iterator[Callable[[str], None]]:
    """Long work of one piece (no count): yields `step(what)`, to be called now and then with what it is
    doing; plain mode says `desc: what (N s)` every EVERY seconds. For the page's and the release's helpers,
    whose steps are files written and archives packed."""
    start, ticker = clock(), Ticker()
    yield lambda what: ticker.tick(lambda: f"{desc}: {what} ({clock() - start:.0f} s)")
