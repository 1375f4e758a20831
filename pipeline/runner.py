"""The runner: staleness by content, and each stage run as decide -> gather -> call -> write -> record.

The lock file (`<build dir>/ladders.lock`, JSON) records per stage the sha256
of each input file (raw files and upstream tables), of each config value the
stage uses, of its own source code, and of each output it wrote. A stage is
fresh when all of these still match; otherwise the status names what changed
(decide, here). The runner then has the stage's inputs read (gather), its
transform called (call) and its outputs written (write) by pipeline/execute.py,
and rewrites the lock atomically (record), only after the outputs are in place,
so a failed or killed stage leaves the lock as it was; an output it had already
replaced no longer matches the lock, so the next status calls the stage altered
and runs it again. Each lock entry also holds the rows the stage wrote (the
first output's), shown for a skipped stage. The runner also keeps the hash
cache, `<build dir>/.hashes.json` (pipeline/lock.py), and writes a stage's
internal error's traceback to `<build dir>/ladders-error.log`.
The build folder's safety (the guard, the mutex, scratch folders, the atomic
swap of a folder output and recovery after a kill) is pipeline/buildfolder.py's.

A build runs stages side by side (at most `jobs` at a time, one thread each,
pipeline/schedule.py): a stage starts once every stage that writes a table it
reads has finished, so stage 0 runs beside stage 1, stages 3 and 4 once stage 1 is done
and 2 once 0 and 1 are (a ready stage earlier in the order goes first), then 5 (after 3 and 4), then 6
(after 5, and after 2: its `runs_after` hint keeps their peaks of memory apart), then 7. Writing outputs
and recording them in the lock happen one stage at a time under `_writing`;
a stopped build (Ctrl-C) lets each running stage reach a safe point, where it
writes nothing more, before the folder is recovered. The outputs are the same
bytes whatever the order: each stage reads only what it declares.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from pipeline import io, lock
from pipeline.buildfolder import ERROR_LOG, MARKER_FILE, MUTEX_FILE, SCRATCH_PREFIX, BuildFolder  # noqa: F401 (tests' names)
from pipeline.config import PATH_KEYS, Config
from pipeline.errors import InternalError, Interrupted, StaleUpstream
from pipeline.execute import Executor
from pipeline.lock import LOCK_FILE
from pipeline.registry import all_stages, writer_of
from pipeline.schedule import Cancelled, Report, Scheduler, usable_cores
from pipeline.stage import Stage


@dataclass(frozen=True)
class Status:
    stage: Stage
    state: str  # fresh | stale | missing | altered
    reason: str = ""


class Runner:
    def __init__(
        self,
        config: Config,
        echo: Callable[[str], None] = lambda s: None,
        jobs: int | None = None,
        *,
        stage_modules: tuple[str, ...],
        targets: tuple[Stage, ...] = (),
    ):
        """`jobs`: at most this many stages at a time (default: the usable cores); `stage_modules`: the
        stages' module names in DAG order (the engine names none: ladders/compose.py hands them in);
        `targets`: stages after them that the product adds to this build (the MySQL dump, the web folder),
        run, locked, checked for staleness and swapped in like the others."""
        self.config = config
        self.build_dir = config.path("build_dir")
        self.stages = all_stages(stage_modules, targets)
        self.jobs = max(1, jobs if jobs is not None else usable_cores())
        self._echo_lock = threading.RLock()
        self.echo = self._locked(echo)
        self._writing = threading.Lock()  # outputs and lock records, one stage at a time
        self._cancel = threading.Event()
        self._hashes = lock.HashCache(self.build_dir / lock.HASH_CACHE_FILE)
        self._lock_warned = False
        self.show_skipped = True  # the line of a fresh stage left as it was (--quiet: only what ran is said)
        self.folder = BuildFolder(self.build_dir, self._protected, self.stages, self.echo)
        self._steps = Executor(config, self.stages, self._hashes, self.folder, self._cancel)

    def _locked(self, echo: Callable[[str], None]) -> Callable[[str], None]:
        def say(line: str) -> None:
            with self._echo_lock:  # stages in two threads: whole lines, never interleaved
                echo(line)

        return say

    def _protected(self) -> dict[Path, str]:
        """Folders a build folder must neither be nor hold: the project's and each input's."""
        protected = {self.config.project: "the project folder"} if self.config.project else {}
        for key in (k for k in PATH_KEYS if k in self.config.values):  # an optional input may be left out
            raw = self.config.path(key)
            protected[raw if raw.is_dir() else raw.parent] = f"the folder of input {key!r}"
        for label, path in self.config.lexicon_files().items():
            protected[path.parent] = f"the folder of word list {label!r}"
        return protected

    # ---- inputs and their hashes -------------------------------------------------

    def inputs(self, stage: Stage) -> dict[str, Path]:
        """Every input file of a stage, by the label the lock uses."""
        files: dict[str, Path] = {}
        for table in stage.reads:
            _, out = writer_of(self.stages, table)
            files.update({f: self.build_dir / f for f in out.files()})
        for key in stage.raw + stage.digests:
            files.update(self.config.raw_files(key))
        return files

    def hash_file(self, path: Path) -> str | None:
        return self._hashes.sha256(path)

    def fingerprint(self, stage: Stage, inputs: dict[str, str | None] | None = None) -> dict[str, Any]:
        """What the lock records of a stage: code, config and input hashes (given, or hashed now)."""
        if inputs is None:
            inputs = {label: self.hash_file(p) for label, p in self.inputs(stage).items()}
        return {
            "code": {f"{p.parent.name}/{p.name}": self.hash_file(p) for p in stage.code_files()},
            "config": {k: self.config.digest((k,)) for k in stage.settings + stage.raw + stage.digests},
            "inputs": inputs,
        }

    # ---- the lock ------------------------------------------------------------------

    def read_lock(self) -> dict[str, Any]:
        return lock.read(self.build_dir / LOCK_FILE, self._warn_once)

    def _warn_once(self, message: str) -> None:
        if not self._lock_warned:
            self.echo(message)
            self._lock_warned = True

    # ---- status --------------------------------------------------------------------

    def status(self, stage: Stage, record: dict[str, Any], upstream: dict[str, Status] | None = None) -> Status:
        """Fresh, or the first reason it is not: its outputs, then what it waits on, then its code, config
        and inputs against the lock's entry."""
        entry = record.get(stage.name)
        found = self._outputs_status(stage, entry)
        if found is not None:
            return found
        if entry is None:
            return Status(stage, "stale", "never built into this folder")
        for table in stage.reads:
            before = (upstream or {}).get(writer_of(self.stages, table)[0].name)
            if before is not None and before.state != "fresh":
                return Status(stage, "stale", f"waits on stage {before.stage.label}")
        now = self.fingerprint(stage)
        for part in ("code", "config"):
            changed = lock.changed(now[part], entry[part])
            if changed:
                return Status(stage, "stale", f"{part} changed: {', '.join(changed)}")
        reason = _input_change(entry["inputs"], now["inputs"])
        return Status(stage, "stale", reason) if reason else Status(stage, "fresh")

    def _outputs_status(self, stage: Stage, entry: dict[str, Any] | None) -> Status | None:
        """Missing or altered when an output is, else None."""
        for out in stage.writes.values():
            files = out.files()
            if out.named_by_transform:  # the files the lock says it wrote, or the folder itself
                files = [f for f in (entry or {}).get("outputs", {}) if f.startswith(f"{out.path}/")]
                if not (self.build_dir / out.path).is_dir():
                    return Status(stage, "missing", f"{out.path} does not exist")
            for f in files:
                digest = self.hash_file(self.build_dir / f)
                if digest is None:
                    return Status(stage, "missing", f"{f} does not exist")
                if entry and entry["outputs"].get(f) != digest:
                    return Status(stage, "altered", f"{f} is not what the stage wrote")
        return None

    def status_all(self) -> list[Status]:
        record = self.read_lock()
        result: dict[str, Status] = {}
        for stage in self.stages:
            result[stage.name] = self.status(stage, record, result)
        return list(result.values())

    def table_path(self, table: str) -> Path:
        """Where the stage that writes `table` puts it (relative to the current folder when inside it)."""
        path = self.build_dir / writer_of(self.stages, table)[1].path
        try:
            return path.relative_to(Path.cwd())
        except ValueError:
            return path

    def table_rows(self, table: str) -> int | None:
        """Rows of an intermediate table from its Parquet footer; None when it is missing or unreadable."""
        try:
            return (
                pl.scan_parquet(self.build_dir / writer_of(self.stages, table)[1].path, glob=False)
                .select(pl.len())
                .collect()
                .item()
            )
        except (OSError, pl.exceptions.PolarsError):
            return None

    # ---- running -------------------------------------------------------------------

    def build(self, force: bool = False) -> list[Report]:
        return self._run_all(self.stages, force)

    def run(self, stage: Stage, force: bool = False) -> Report:
        """One stage from the inputs on disk. Refused (StaleUpstream, exit 2) when a stage it reads from,
        directly or not, is not fresh: its inputs would be old ones, and the stage would be recorded fresh
        on them. --force runs it anyway, on the inputs as they are."""
        if not force:
            blocker = self.stale_upstream(stage)
            if blocker is not None:
                what = f"{blocker.state} ({blocker.reason})" if blocker.reason else blocker.state
                raise StaleUpstream(
                    f"stage {blocker.stage.label} is {what}, and stage {stage.label} reads what it writes: run "
                    f"`ladders build`, or `ladders run {blocker.stage.number}` first (--force runs stage "
                    f"{stage.number} now on the inputs on disk, stale or not)",
                    stale=blocker.stage.label,
                )
        return self._run_all([stage], force)[0]

    def stale_upstream(self, stage: Stage) -> Status | None:
        """The lowest-numbered stage that `stage` reads from, directly or through others, that is not fresh."""
        wanted: set[str] = set()
        todo = [stage]
        while todo:
            for table in todo.pop().reads:
                writer = writer_of(self.stages, table)[0]
                if writer.name not in wanted:
                    wanted.add(writer.name)
                    todo.append(writer)
        return next((s for s in self.status_all() if s.stage.name in wanted and s.state != "fresh"), None)

    def _run_all(self, stages: list[Stage], force: bool) -> list[Report]:
        """Each stage once the stages it reads from (among `stages`) have finished (schedule.py); the
        failure of the lowest-numbered stage that failed is raised once no stage's thread runs."""
        self._cancel.clear()
        reports: dict[str, Report] = {}
        scheduler = Scheduler(
            self.jobs, self.echo, self._echo_lock, self._cancel, self.folder.recover, self.build_dir / "export"
        )
        scheduler.show_skipped = self.show_skipped
        try:
            with self.folder.exclusive():
                try:
                    after = waits_for(self.stages, stages)
                    failure = scheduler.run(stages, after, lambda stage: self._maybe_run(stage, force), reports)
                    if failure is not None:
                        raise self._logged(failure)
                finally:
                    self._hashes.save()
        except KeyboardInterrupt:  # outside the stages (waiting for another build, recovering): said alike
            done = ", ".join(s.label for s in stages if s.name in reports)
            raise Interrupted(
                f"stages finished: {done}; no stage was cut short"
                if done
                else f"stages finished: none; no stage had started, and {self.build_dir / 'export'} is as it was"
            ) from None
        return [reports[s.name] for s in stages]

    def _logged(self, error: BaseException) -> BaseException:
        """The failure that is raised: a stage's internal error gets its traceback written to ERROR_LOG
        (here, once, so that two stages failing side by side cannot leave the other one's)."""
        if not isinstance(error, InternalError) or not hasattr(error, "traceback_text"):
            return error
        log = self.build_dir / ERROR_LOG
        try:
            io.write_atomic(log, error.traceback_text.encode())
        except OSError:
            return error
        logged = InternalError(f"{error}; its traceback is in {log}")
        logged.__cause__ = error.__cause__
        return logged

    def _maybe_run(self, stage: Stage, force: bool) -> Report:
        if self._cancel.is_set():
            raise Cancelled
        record = self.read_lock()
        status = self.status(stage, record)
        if status.state == "fresh" and not force:
            entry = record[stage.name]
            report = Report(stage, "skipped", entry.get("rows", 0), 0.0, wrote=self._wrote(stage, entry["outputs"]))
        else:
            report = self._execute(stage)
            _give_back_memory()
        return report

    def _execute(self, stage: Stage) -> Report:
        start = time.perf_counter()
        kwargs, hashes = self._steps.gather(stage)
        with self.folder.scratch(stage) as scratch:
            if scratch:
                kwargs["scratch"] = scratch
            # The very dict: a stage that pops_inputs frees what it pops (stage.py); for the others, the
            # inputs go here, before the outputs are encoded: the two peaks need not meet.
            result = self._steps.call(stage, kwargs)
            del kwargs
            notes = tuple(result.pop("notes", ()))
            result = self._steps.encode(stage, result)
            with self._writing:
                if self._cancel.is_set():
                    raise Cancelled
                outputs, rows = self._steps.write(stage, result, scratch)
                rows = self._record(stage, hashes, outputs, rows)
        return Report(stage, "ran", rows, time.perf_counter() - start, notes, self._wrote(stage, outputs))

    def _wrote(self, stage: Stage, outputs: dict[str, str]) -> str:
        """What a stage that writes no table wrote, its files and their size ("" for a stage of tables,
        whose line says its rows): the MySQL dump's line said "0 rows"."""
        from pipeline.wording import counted, size_text

        if any(o.schema is not None or any((o.members or {}).values()) for o in stage.writes.values()):
            return ""
        size = sum(p.stat().st_size for p in (self.build_dir / f for f in outputs) if p.is_file())
        return f"{counted(len(outputs), 'file')}, {size_text(size)}"

    def _record(self, stage: Stage, hashes: dict[str, str], outputs: dict[str, str], rows: int | None) -> int:
        """Rewrite the lock with what the stage read and wrote; its rows."""
        record = self.read_lock()
        record[stage.name] = {**self.fingerprint(stage, inputs=hashes), "outputs": outputs, "rows": rows or 0}
        lock.write(self.build_dir / LOCK_FILE, record)
        return record[stage.name]["rows"]


def _input_change(was: dict[str, str | None], now: dict[str, str | None]) -> str | None:
    """How the first input (by label) differs from what the lock recorded, or None."""
    for label in sorted(set(was) | set(now)):
        if label not in was:
            return f"new input {label}"
        if now.get(label) is None:
            return f"input {label} is gone"
        if was[label] != now[label]:
            return f"input {label} changed"
    return None


def _give_back_memory() -> None:
    """Return the C heap's free pages to the system between stages (glibc's malloc_trim; elsewhere a
    no-op). A stage's freed Python objects and buffers otherwise stay in the process, and the next stage's
    peak lands on top of them: a cold build of raw/ peaked at 657 MiB in export, 527 MiB with this."""
    try:
        ctypes.CDLL(None).malloc_trim(0)
    except (AttributeError, OSError):
        pass


def waits_for(every: list[Stage], build: list[Stage]) -> dict[str, set[str]]:
    """Per stage of `build`, the stages of `build` that finish before it starts: the writers of the tables it
    reads, and those it `runs_after` (a scheduling hint, stage.py)."""
    names = {s.name for s in build}
    return {s.name: ({writer_of(every, t)[0].name for t in s.reads} | set(s.runs_after)) & names for s in build}
