"""Stages side by side: each run in a thread of its own once the stages it reads from have finished.

The runner hands the scheduler the stages of one build, which of them each waits on, and the function
that runs one stage and returns its `Report`. At most `jobs` stages run at a time, lowest number first.
Threads, not processes: the heavy work is polars', which releases the interpreter lock, and one process
keeps one copy of the imported libraries and dies whole under kill -9. Each report is printed (its line
and its notes together) as its stage finishes. After a stage fails no new one starts; those running
finish (they are independent of it) and the failure of the lowest-numbered stage is handed back.

When the build stops (Ctrl-C, or a failure of the scheduling thread itself) the scheduler sets `cancel`
and waits for every running stage to reach a safe point, where its thread raises `Cancelled` (a
transform runs to its end and then writes nothing; a write in progress ends with its lock record); only
then is the build folder recovered, so no stage's thread outlives the build. A second Ctrl-C stops the
process at once, as kill -9 would. Ctrl-C ends in an `Interrupted` that says which stages finished and
whether the export was replaced; another cause is raised again.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline import progress
from pipeline.errors import Interrupted
from pipeline.stage import Stage


class Cancelled(Exception):
    """Raised in a stage's thread when the build was interrupted: the stage writes nothing more."""


def usable_cores() -> int:
    """The cores this process may run on (its affinity, e.g. under taskset or a container's cpuset)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Report:
    stage: Stage
    action: str  # ran | skipped
    rows: int
    seconds: float
    notes: tuple[str, ...] = ()
    wrote: str = ""  # what a stage that writes no table wrote ("1 file, 2.3 MB"); else its rows are said

    def line(self) -> str:
        from pipeline.wording import counted

        what = self.wrote or counted(self.rows, "row")
        return f"{self.stage.number} {self.stage.name:<12} {what:>15} {self.seconds:>8.2f} s  {self.action}"


class Scheduler:
    def __init__(
        self,
        jobs: int,
        echo: Callable[[str], None],
        echo_lock: threading.RLock,
        cancel: threading.Event,
        recover: Callable[[], None],
        export: Path,
    ):
        """`echo` prints whole lines under `echo_lock`; `cancel` is set when the build stops (a stage's
        thread then raises Cancelled at its next safe point); `recover` undoes what a half-written folder
        left; `export` is the export folder an Interrupted names."""
        self.jobs, self.echo, self._echo_lock, self._cancel = jobs, echo, echo_lock, cancel
        self._recover, self._export = recover, export
        self.show_skipped = True  # print the line of a stage that was fresh and left as it was
        self._started: dict[str, float] = {}  # when each running stage started (progress.clock)

    def run(
        self,
        stages: list[Stage],
        after: dict[str, set[str]],
        run_one: Callable[[Stage], Report],
        reports: dict[str, Report],
    ) -> BaseException | None:
        """Run each stage (`run_one`, in a thread) once the stages named in `after[stage]` have reports, at
        most `jobs` at a time, lowest number first; their reports go into `reports`. The failure of the
        lowest-numbered stage that failed, or None. No stage's thread outlives this call, whatever ends
        it: the build folder's mutex is released only after."""
        waiting = list(stages)
        running: dict[str, Stage] = {}
        failed: dict[int, BaseException] = {}
        finished: queue.Queue[tuple[Stage, Report | None, BaseException | None]] = queue.Queue()
        ticker = progress.Ticker(self._quietly)  # without a terminal: which stages run, every few seconds

        def still() -> str:
            now = progress.clock()
            return "still running: " + ", ".join(
                f"{s.label} ({now - self._started[s.name]:.0f} s)" for s in running.values()
            )

        try:
            while waiting or running:
                while not failed and len(running) < self.jobs:
                    ready = next((s for s in waiting if after[s.name] <= reports.keys()), None)
                    if ready is None:
                        break
                    waiting.remove(ready)
                    running[ready.name] = ready
                    self._started[ready.name] = progress.clock()
                    threading.Thread(
                        target=_worker, args=(ready, run_one, finished), name=f"stage-{ready.name}", daemon=True
                    ).start()
                if not running:
                    break  # a failure left stages waiting
                self._settle(*_next(finished, lambda: ticker.tick(still)), running, reports, failed)
        except BaseException as e:  # Ctrl-C, or this thread's own failure (a closed stderr)
            self._stop(e, stages, running, finished, reports)
        return failed[min(failed)] if failed else None

    def _settle(self, stage: Stage, report: Report | None, error: BaseException | None, running, reports, failed):
        """A stage's thread ended: its report is counted and printed, or its failure kept."""
        del running[stage.name]
        if report is not None:
            reports[stage.name] = report
            with self._echo_lock:  # its line and its notes together, once the build counts it done
                if report.action != "skipped" or self.show_skipped:
                    self.echo(report.line())
                for note in report.notes:
                    self.echo(f"    {note}")
        elif not isinstance(error, Cancelled):
            failed[stage.number] = error

    def _stop(self, cause: BaseException, stages: list[Stage], running: dict[str, Stage], finished, reports) -> None:
        """The build stops: no stage writes from now on. Each running stage ends at its next safe point
        (before its writes, or after a write in progress with its lock record); then what a half-written
        folder left is undone. A second Ctrl-C meanwhile stops the process at once, as a kill would
        (the next start recovers). Ctrl-C then says what finished; another cause is raised again."""
        restore = _second_interrupt_exits()
        self._cancel.set()
        cut = list(running.values())
        try:
            if running:
                labels = ", ".join(s.label for s in running.values())
                self._quietly(f"stopping: waiting for {labels} to reach a safe point (Ctrl-C again stops at once)")
            while running:
                stage, report, error = _next(finished)
                try:
                    self._settle(stage, report, error, running, reports, {})
                except OSError:
                    pass  # a closed stderr: the report is counted all the same
            self._recover()
        finally:
            restore()
        if not isinstance(cause, KeyboardInterrupt):
            raise cause
        done = ", ".join(s.label for s in stages if s.name in reports) or "none"
        cut = [s.label for s in sorted(cut, key=lambda s: s.number) if s.name not in reports]  # in stage order
        which = (
            "no stage was cut short"
            if not cut
            else f"the stages that were running ({', '.join(cut)}) left nothing behind"
            if len(cut) > 1
            else "the stage that was running left nothing behind"
        )
        replaced = any(s.name in reports and reports[s.name].action == "ran" and _writes_export(s) for s in stages)
        raise Interrupted(
            f"stages finished: {done}; {which}, and {self._export} "
            + ("is the new export" if replaced else "is as it was")
        ) from None

    def _quietly(self, line: str) -> None:
        try:
            self.echo(line)
        except OSError:
            pass


def _worker(stage: Stage, run_one: Callable[[Stage], Report], finished: queue.Queue) -> None:
    try:
        finished.put((stage, run_one(stage), None))
    except BaseException as e:  # handed to the scheduler's thread, which raises it there
        finished.put((stage, None, e))


def _writes_export(stage: Stage) -> bool:
    return any(out.is_dir and out.path == "export" for out in stage.writes.values())


def _second_interrupt_exits() -> Callable[[], None]:
    """While a stopping build waits for its stages, a second Ctrl-C ends the process at once, as kill -9
    would (every write is atomic and the next start recovers); returns what puts the handler back."""
    import signal

    def at_once(signum, frame) -> None:
        os.write(2, b"interrupted again: stopped at once; the next build cleans up what was half done\n")
        os._exit(130)

    try:
        previous = signal.signal(signal.SIGINT, at_once)
    except ValueError:  # not the main thread (a test's runner): no signal handling to change
        return lambda: None
    return lambda: signal.signal(signal.SIGINT, previous)


def _next(finished: queue.Queue, tick: Callable[[], None] = lambda: None) -> tuple:
    """The next stage to finish, waiting in short steps so that Ctrl-C reaches this thread at once (and
    `tick`, the progress line, is called between them)."""
    while True:
        try:
            return finished.get(timeout=0.2)
        except queue.Empty:
            tick()
