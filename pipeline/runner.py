"""The runner: staleness by content, and each stage run as decide -> gather -> call -> write -> record.

The lock file (`<build dir>/ladders.lock`, JSON) records per stage the sha256
of each input file (raw files and upstream tables), of each config value the
stage uses, of its own source code, and of each output it wrote. A stage is
fresh when all of these still match; otherwise the status names what changed
(decide). The runner reads the stage's inputs (gather), calls its transform
(call), writes its outputs (write) and rewrites the lock atomically (record),
only after the outputs are in place, so a failed or killed stage leaves the
previous outputs and lock as they were. The build folder's safety (the guard,
the mutex, scratch folders, the atomic swap of a folder output and recovery
after a kill) is pipeline/buildfolder.py's.

A build runs stages side by side (at most `jobs` at a time, one thread each): a
stage starts once every stage that writes a table it reads has finished, so
stage 2 runs beside 3 -> 4 -> 5 -> 6. Threads, not processes: the heavy work is
polars', which releases the interpreter lock, and one process keeps one copy of
the imported libraries and dies whole under kill -9. Writing outputs and
recording them in the lock happen one stage at a time under `_writing`. When a
build stops (Ctrl-C, or a failure of the scheduling thread itself) it sets
`_cancel` and waits for every running stage to reach a safe point: a transform
runs to its end and then writes nothing; a write in progress ends with its lock
record. Only then is the folder recovered and its mutex released, so no stage's
thread outlives the build. A second Ctrl-C stops the process at once, as kill -9
would. The outputs are the same bytes whatever the order: each stage reads only
what it declares.
"""

from __future__ import annotations

import ctypes
import os
import queue
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from pipeline import io, lock
from pipeline.buildfolder import ERROR_LOG, MARKER_FILE, MUTEX_FILE, SCRATCH_PREFIX, BuildFolder  # noqa: F401 (tests' names)
from pipeline.config import LEXICON_FILES, PATH_KEYS, Config
from pipeline.errors import InternalError, Interrupted, PipelineError, StaleInputError
from pipeline.lock import LOCK_FILE
from pipeline.registry import all_stages, writer_of
from pipeline.schemas import check_schema
from pipeline.stage import Output, Stage

# Fault injection for the crash tests: "STAGE:POINT" (several separated by commas) makes the runner
# announce the point on stderr and sleep there, so that a test can kill -9 it at a known place.
FAULT_ENV = "LADDERS_TEST_FAULT"


class Cancelled(Exception):
    """Raised in a stage's thread when the build was interrupted: the stage writes nothing more."""


def _fault_point(stage: Stage, point: str, cancel: threading.Event) -> None:
    if f"{stage.name}:{point}" in os.environ.get(FAULT_ENV, "").split(","):
        sys.stderr.write(f"fault point {stage.name}:{point}\n")
        sys.stderr.flush()
        if cancel.wait(600):
            raise Cancelled


def usable_cores() -> int:
    """The cores this process may run on (its affinity, e.g. under taskset or a container's cpuset)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True)
class Status:
    stage: Stage
    state: str  # fresh | stale | missing | altered
    reason: str = ""


@dataclass(frozen=True)
class Report:
    stage: Stage
    action: str  # ran | skipped
    rows: int
    seconds: float
    notes: tuple[str, ...] = ()

    def line(self) -> str:
        return f"{self.stage.number} {self.stage.name:<12} {self.rows:>10,} rows {self.seconds:>8.2f} s  {self.action}"


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
        self.folder = BuildFolder(self.build_dir, self._protected, self.stages, self.echo)

    def _locked(self, echo: Callable[[str], None]) -> Callable[[str], None]:
        def say(line: str) -> None:
            with self._echo_lock:  # stages in two threads: whole lines, never interleaved
                echo(line)

        return say

    def _protected(self) -> dict[Path, str]:
        """Folders a build folder must neither be nor hold: the project's and each input's."""
        protected = {self.config.project: "the project folder"} if self.config.project else {}
        for key in PATH_KEYS:
            raw = self.config.path(key)
            protected[raw if raw.is_dir() else raw.parent] = f"the folder of input {key!r}"
        for label, path in self.config.lexicon_files().items():
            protected[path.parent] = f"the folder of word list {label!r}"
        return protected

    # ---- inputs and their hashes -------------------------------------------------

    def raw_files(self, key: str) -> dict[str, Path]:
        """Display path -> file, for a raw-input config key (a file or a folder)."""
        if key == LEXICON_FILES:
            return self.config.lexicon_files()
        path = self.config.path(key)
        shown = self.config.display(key)
        if path.is_dir():
            return {
                f"{shown.rstrip('/')}/{p.name}": p
                for p in sorted(path.iterdir())
                if p.is_file() and not p.name.startswith(".")
            }
        return {shown: path}

    def inputs(self, stage: Stage) -> dict[str, Path]:
        """Every input file of a stage, by the label the lock uses."""
        files: dict[str, Path] = {}
        for table in stage.reads:
            _, out = writer_of(self.stages, table)
            files.update({f: self.build_dir / f for f in out.files()})
        for key in stage.raw + stage.digests:
            files.update(self.raw_files(key))
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
                pl.scan_parquet(self.build_dir / writer_of(self.stages, table)[1].path)
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
        return self._run_all([stage], force)[0]

    def _run_all(self, stages: list[Stage], force: bool) -> list[Report]:
        self._cancel.clear()
        reports: dict[str, Report] = {}
        with self.folder.exclusive():
            try:
                self._schedule(stages, force, reports)
            finally:
                self._hashes.save()
        return [reports[s.name] for s in stages]

    def _schedule(self, stages: list[Stage], force: bool, reports: dict[str, Report]) -> None:
        """Run each stage once the stages it reads from (among `stages`) have finished, at most `jobs` at
        a time, lowest number first. After a stage fails no new one starts; those running finish (they
        are independent of it) and the failure of the lowest-numbered stage is raised. No stage's thread
        outlives this call, whatever ends it: the build folder's mutex is released only after."""
        names = {x.name for x in stages}
        after = {s.name: {writer_of(self.stages, t)[0].name for t in s.reads} & names for s in stages}
        waiting = list(stages)
        running: dict[str, Stage] = {}
        failed: dict[int, BaseException] = {}
        finished: queue.Queue[tuple[Stage, Report | None, BaseException | None]] = queue.Queue()
        try:
            while waiting or running:
                while not failed and len(running) < self.jobs:
                    ready = next((s for s in waiting if after[s.name] <= reports.keys()), None)
                    if ready is None:
                        break
                    waiting.remove(ready)
                    running[ready.name] = ready
                    threading.Thread(
                        target=self._worker, args=(ready, force, finished), name=f"stage-{ready.name}", daemon=True
                    ).start()
                if not running:
                    break  # a failure left stages waiting
                self._settle(*_next(finished), running, reports, failed)
        except BaseException as e:  # Ctrl-C, or this thread's own failure (a closed stderr)
            self._stop(e, running, finished, reports)
        if failed:
            raise self._logged(failed[min(failed)])

    def _settle(self, stage: Stage, report: Report | None, error: BaseException | None, running, reports, failed):
        """A stage's thread ended: its report is counted and printed, or its failure kept."""
        del running[stage.name]
        if report is not None:
            reports[stage.name] = report
            with self._echo_lock:  # its line and its notes together, once the build counts it done
                self.echo(report.line())
                for note in report.notes:
                    self.echo(f"    {note}")
        elif not isinstance(error, Cancelled):
            failed[stage.number] = error

    def _worker(self, stage: Stage, force: bool, finished: queue.Queue) -> None:
        try:
            finished.put((stage, self._maybe_run(stage, force), None))
        except BaseException as e:  # handed to the scheduler's thread, which raises it there
            finished.put((stage, None, e))

    def _stop(self, cause: BaseException, running: dict[str, Stage], finished: queue.Queue, reports) -> None:
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
            self.folder.recover()
        finally:
            restore()
        if not isinstance(cause, KeyboardInterrupt):
            raise cause
        done = ", ".join(s.label for s in self.stages if s.name in reports) or "none"
        cut = [s.label for s in cut if s.name not in reports]
        which = (
            "no stage was cut short"
            if not cut
            else f"the stages that were running ({', '.join(cut)}) left nothing behind"
            if len(cut) > 1
            else "the stage that was running left nothing behind"
        )
        export = self.build_dir / "export"
        replaced = any(s.name in reports and reports[s.name].action == "ran" and _writes_export(s) for s in self.stages)
        raise Interrupted(
            f"stages finished: {done}; {which}, and {export} " + ("is the new export" if replaced else "is as it was")
        ) from None

    def _quietly(self, line: str) -> None:
        try:
            self.echo(line)
        except OSError:
            pass

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
            report = Report(stage, "skipped", record[stage.name].get("rows", 0), 0.0)
        else:
            report = self._execute(stage)
            _give_back_memory()
        return report

    def _execute(self, stage: Stage) -> Report:
        start = time.perf_counter()
        kwargs, hashes = self._gather(stage)
        with self.folder.scratch(stage) as scratch:
            result = self._call(stage, {**kwargs, **({"scratch": scratch} if scratch else {})})
            del kwargs  # the inputs go before the outputs are encoded: the two peaks need not meet
            notes = tuple(result.pop("notes", ()))
            result = self._encode(stage, result)
            with self._writing:
                if self._cancel.is_set():
                    raise Cancelled
                outputs, rows = self._write_outputs(stage, result, scratch)
                rows = self._record(stage, hashes, outputs, rows)
        return Report(stage, "ran", rows, time.perf_counter() - start, notes)

    def _gather(self, stage: Stage) -> tuple[dict[str, Any], dict[str, str]]:
        """The transform's keyword arguments (tables, raw files' bytes, settings, digests), and the sha256
        of every input read, by the label the lock uses."""
        kwargs: dict[str, Any] = {key: self.config[key] for key in stage.settings}
        hashes: dict[str, str] = {}
        for table in stage.reads:
            _, out = writer_of(self.stages, table)
            if out.is_dir:  # a folder: its Path, its members hashed (the writer's lock holds them whole)
                for f in out.files():
                    hashes[f] = self.hash_file(self.build_dir / f) or io.sha256(self._read(self.build_dir / f, table))
                kwargs[table] = self.build_dir / out.path
                continue
            data = self._read(self.build_dir / out.path, f"stage {stage.label} needs {out.path}")
            hashes[out.path] = io.sha256(data)
            schema = out.columns(self.config["lexicons"])
            kwargs[table] = check_schema(io.read_parquet_bytes(data), schema, str(self.build_dir / out.path))
        for key in stage.raw:
            kwargs[key] = {}
            for label, path in self.raw_files(key).items():
                stamp = self._hashes.stamp(path)  # before the read: a change after it only costs a rehash
                data = self._read(path, f"config key {key!r}")
                hashes[label] = io.sha256(data)
                self._hashes.remember(path, hashes[label], stamp)
                kwargs[key][label] = data
        if stage.digests:
            kwargs["digests"] = {}
            for key in stage.digests:
                for label, path in self.raw_files(key).items():
                    hashes[label] = self.hash_file(path) or io.sha256(self._read(path, f"config key {key!r}"))
                    size = path.stat().st_size
                    kwargs["digests"][label] = {"key": key, "sha256": hashes[label], "size": size}  # not a column
        return kwargs, hashes

    def _call(self, stage: Stage, kwargs: dict[str, Any]) -> dict[str, Any]:
        """The transform's result; an exception of its own code is an internal error (an input it cannot
        parse is the stage's InputFormatError)."""
        _fault_point(stage, "transform", self._cancel)
        try:
            result = stage.transform(**kwargs)
        except (PipelineError, OSError, KeyboardInterrupt, MemoryError, Cancelled):
            raise
        except Exception as e:
            raise self._internal_error(stage, e) from e
        if set(result) - {"notes"} != set(stage.writes):
            raise InternalError(f"stage {stage.label} returned {sorted(result)}, declared {sorted(stage.writes)}")
        return result

    def _record(self, stage: Stage, hashes: dict[str, str], outputs: dict[str, str], rows: int | None) -> int:
        """Rewrite the lock with what the stage read and wrote; its rows."""
        record = self.read_lock()
        record[stage.name] = {**self.fingerprint(stage, inputs=hashes), "outputs": outputs, "rows": rows or 0}
        lock.write(self.build_dir / LOCK_FILE, record)
        return record[stage.name]["rows"]

    def _internal_error(self, stage: Stage, e: Exception) -> InternalError:
        """A stage's own code raised: the error names the stage and the exception, and carries the
        traceback that goes to ERROR_LOG in the build folder (for the bug report) if it is the one raised."""
        import traceback

        error = InternalError(f"stage {stage.label} raised {type(e).__name__}: {' '.join(str(e).split())[:200]}")
        error.traceback_text = f"ladders: stage {stage.label} raised\n{''.join(traceback.format_exception(e))}"
        return error

    def _encode(self, stage: Stage, result: dict[str, Any]) -> dict[str, Any]:
        """Each table output checked against its schema and encoded as Parquet (rows, bytes), before the
        writing lock is taken: a stage beside it need not wait for the encoding, nor Ctrl-C."""
        encoded = dict(result)
        for name, out in stage.writes.items():
            if not out.is_dir and out.schema is None:  # a file of bytes, no table
                encoded[name] = (None, result[name])
            elif not out.is_dir:
                df = check_schema(
                    result[name], out.columns(self.config["lexicons"]) or {}, f"stage {stage.label} output {name}"
                )
                encoded[name] = (df.height, io.parquet_bytes(df))
        return encoded

    def _write_outputs(
        self, stage: Stage, result: dict[str, Any], scratch: Path | None
    ) -> tuple[dict[str, str], int | None]:
        """Write a stage's outputs in place; the sha256 of each file written, and the rows of the first."""
        outputs: dict[str, str] = {}
        rows: int | None = None
        for name, out in stage.writes.items():
            value = result[name]
            if out.is_dir:
                files = {f: (v.encode() if isinstance(v, str) else v) for f, v in value.items()}
                if not out.named_by_transform and sorted(files) != sorted(out.members or {}):
                    raise InternalError(
                        f"stage {stage.label} wrote {sorted(files)} in {out.path}, declared {sorted(out.members or {})}"
                    )
                moved = {f for f, v in files.items() if isinstance(v, Path)}
                if any(not stage.scratch or files[f].parent != scratch for f in moved):
                    raise InternalError(f"stage {stage.label} handed over a file outside its scratch folder")
                self.folder.write_dir(
                    self.build_dir / out.path, files, lambda: _fault_point(stage, "write", self._cancel)
                )
                for f, v in files.items():  # what was just written, so that the next status need not read it
                    path = self.build_dir / out.path / f
                    outputs[f"{out.path}/{f}"] = io.sha256_file(path) if f in moved else io.sha256(v)
                    self._hashes.remember(path, outputs[f"{out.path}/{f}"], self._hashes.stamp(path))
                if rows is None:
                    rows = _first_table_rows(out, files, self.build_dir / out.path)
            else:
                height, data = value  # encoded by _encode, outside the writing lock
                if rows is None:
                    rows = height
                io.write_atomic(self.build_dir / out.path, data)
                outputs[out.path] = io.sha256(data)
                self._hashes.remember(
                    self.build_dir / out.path, outputs[out.path], self._hashes.stamp(self.build_dir / out.path)
                )
                _fault_point(stage, "write", self._cancel)  # some outputs written, the lock not yet
        return outputs, rows

    @staticmethod
    def _read(path: Path, why: str) -> bytes:
        try:
            return path.read_bytes()
        except FileNotFoundError:
            raise StaleInputError(f"{path} does not exist ({why}); run the stages before it") from None
        except IsADirectoryError:
            raise StaleInputError(f"{path} is a directory, not a file ({why})") from None


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


def _next(finished: queue.Queue) -> tuple:
    """The next stage to finish, waiting in short steps so that Ctrl-C reaches this thread at once."""
    while True:
        try:
            return finished.get(timeout=0.2)
        except queue.Empty:
            continue


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


def _first_table_rows(out: Output, files: dict[str, bytes | Path], folder: Path) -> int:
    """Rows of a folder output (now in `folder`): the height of its first Parquet member."""
    for member, schema in (out.members or {}).items():
        if schema is not None:
            data = files[member]
            return io.parquet_rows(folder / member if isinstance(data, Path) else data)
    return 0
