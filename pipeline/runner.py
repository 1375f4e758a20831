"""The runner: staleness by content, stage execution, atomic outputs, the lock.

The lock file (`<build dir>/ladders.lock`, JSON) records per stage the sha256
of each input file (raw files and upstream tables), of each config value the
stage uses, of its own source code, and of each output it wrote. A stage is
fresh when all of these still match; otherwise the status names what changed.
The lock is rewritten (atomically) only after a stage's outputs are in place,
so a failed or killed stage leaves the previous outputs and lock as they were.
A second process building the same folder waits on `<build dir>/.mutex`.
A folder output (the export) is written beside its place and swapped in whole
(pipeline/swap.py), so that a reader never finds it missing or half written.
A stage that declares `scratch` works in `<build dir>/.scratch-<stage>`, emptied
before it runs and removed after (and at the next start, after a kill).
"""
from __future__ import annotations

import ctypes
import fcntl
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from pipeline import io, lock, swap
from pipeline.config import Config
from pipeline.lock import LOCK_FILE
from pipeline.errors import DamagedState, InternalError, Interrupted, PipelineError, StaleInputError, UsageError
from pipeline.registry import all_stages, writer_of
from pipeline.schemas import check_schema
from pipeline.stage import Output, Stage

MUTEX_FILE = ".mutex"
SCRATCH_PREFIX = ".scratch-"  # + a stage's name: the scratch folder of a stage that declares one
ERROR_LOG = "ladders-error.log"  # the traceback of the last internal error of a stage, for a bug report
MARKER_FILE = ".ladders-build"  # in every build folder ladders made: the only folders it writes into
MARKER_TEXT = "This folder is a ladders build folder: `ladders` writes and replaces files here.\n"
# Fault injection for the crash tests: "STAGE:POINT" makes the runner announce the point on
# stderr and sleep there, so that a test can kill -9 it at a known place.
FAULT_ENV = "LADDERS_TEST_FAULT"


def _fault_point(stage: Stage, point: str) -> None:
    if os.environ.get(FAULT_ENV) == f"{stage.name}:{point}":
        sys.stderr.write(f"fault point {stage.name}:{point}\n")
        sys.stderr.flush()
        time.sleep(600)


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
    def __init__(self, config: Config, echo: Callable[[str], None] = lambda s: None):
        self.config = config
        self.build_dir = config.path("build_dir")
        self.stages = all_stages()
        self.echo = echo
        self._hashes = lock.HashCache(self.build_dir / lock.HASH_CACHE_FILE)
        self._lock_warned = False

    # ---- inputs and their hashes -------------------------------------------------

    def raw_files(self, key: str) -> dict[str, Path]:
        """Display path -> file, for a raw-input config key (a file or a folder)."""
        path = self.config.path(key)
        shown = self.config.display(key)
        if path.is_dir():
            return {f"{shown.rstrip('/')}/{p.name}": p
                    for p in sorted(path.iterdir()) if p.is_file() and not p.name.startswith(".")}
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
        entry = record.get(stage.name)
        for out in stage.writes.values():
            for f in out.files():
                digest = self.hash_file(self.build_dir / f)
                if digest is None:
                    return Status(stage, "missing", f"{f} does not exist")
                if entry and entry["outputs"].get(f) != digest:
                    return Status(stage, "altered", f"{f} is not what the stage wrote")
        if entry is None:
            return Status(stage, "stale", "never built into this folder")
        for table in stage.reads:
            before = (upstream or {}).get(writer_of(self.stages, table)[0].name)
            if before is not None and before.state != "fresh":
                return Status(stage, "stale", f"waits on stage {before.stage.label}")
        now = self.fingerprint(stage)
        changed = lock.changed(now["code"], entry["code"])
        if changed:
            return Status(stage, "stale", f"code changed: {', '.join(changed)}")
        changed = lock.changed(now["config"], entry["config"])
        if changed:
            return Status(stage, "stale", f"config changed: {', '.join(changed)}")
        was, now_inputs = entry["inputs"], now["inputs"]
        for label in sorted(set(was) | set(now_inputs)):
            if label not in was:
                return Status(stage, "stale", f"new input {label}")
            if now_inputs.get(label) is None:
                return Status(stage, "stale", f"input {label} is gone")
            if was[label] != now_inputs[label]:
                return Status(stage, "stale", f"input {label} changed")
        return Status(stage, "fresh")

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
            return pl.scan_parquet(self.build_dir / writer_of(self.stages, table)[1].path).select(pl.len()).collect().item()
        except (OSError, pl.exceptions.PolarsError):
            return None

    # ---- running -------------------------------------------------------------------

    def check_build_dir(self) -> None:
        """Refuse a build folder whose files ladders must not replace: the current folder, a filesystem
        root, the home folder, the project or an input folder (or one holding them), a file, and any
        folder with files in it that carries neither ladders' marker nor its lock."""
        path = self.build_dir
        home = Path.home().resolve()
        if path.exists() and not path.is_dir():
            raise UsageError(f"build folder {path} is a file, not a folder")
        if path == Path(path.anchor) or path == home or path == Path.cwd().resolve():
            what = {Path(path.anchor): "a filesystem root", home: "your home folder"}.get(path, "the current folder")
            raise UsageError(f"build folder {path} is {what}: ladders replaces files in its build folder; "
                             "choose a folder of its own, e.g. --build-dir build")
        from pipeline.config import PATH_KEYS

        protected = {self.config.project: "the project folder"} if self.config.project else {}
        for key in PATH_KEYS:
            raw = self.config.path(key)
            protected[raw if raw.is_dir() else raw.parent] = f"the folder of input {key!r}"
        for folder, what in protected.items():
            if path == folder or folder.is_relative_to(path):
                raise UsageError(f"build folder {path} is or holds {what} ({folder}); choose another --build-dir")
        if path.is_dir() and any(path.iterdir()) and not (path / MARKER_FILE).exists() \
                and not (path / LOCK_FILE).exists():
            raise UsageError(f"build folder {path} holds files ladders did not write; "
                             "choose an empty or new folder (ladders never replaces what it did not write)")

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Hold the build folder's mutex; a second process waits here, saying so."""
        self.check_build_dir()
        self.build_dir.mkdir(parents=True, exist_ok=True)
        if not (self.build_dir / MARKER_FILE).exists():
            io.write_atomic(self.build_dir / MARKER_FILE, MARKER_TEXT.encode())
        with open(self.build_dir / MUTEX_FILE, "w") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self.echo(f"waiting: another ladders process is building {self.build_dir}")
                fcntl.flock(f, fcntl.LOCK_EX)
            self._restore_interrupted_swaps()
            yield

    def build(self, force: bool = False) -> list[Report]:
        return self._run_all(self.stages, force)

    def run(self, stage: Stage, force: bool = False) -> Report:
        return self._run_all([stage], force)[0]

    def _run_all(self, stages: list[Stage], force: bool) -> list[Report]:
        reports: list[Report] = []
        with self.exclusive():
            try:
                for stage in stages:
                    reports.append(self._maybe_run(stage, force))
            except KeyboardInterrupt:
                self._restore_interrupted_swaps()  # a folder half written or half swapped in: as it was
                done = ", ".join(r.stage.label for r in reports) or "none"
                raise Interrupted(f"stages finished: {done}; the stage that was running left nothing "
                                  f"behind, and {self.build_dir / 'export'} is as it was") from None
            finally:
                self._hashes.save()
        return reports

    def _maybe_run(self, stage: Stage, force: bool) -> Report:
        record = self.read_lock()
        status = self.status(stage, record)
        if status.state == "fresh" and not force:
            report = Report(stage, "skipped", record[stage.name].get("rows", 0), 0.0)
        else:
            report = self._execute(stage)
            _give_back_memory()
        self.echo(report.line())
        for note in report.notes:
            self.echo(f"    {note}")
        return report

    def _execute(self, stage: Stage) -> Report:
        start = time.perf_counter()
        kwargs: dict[str, Any] = {}
        hashes: dict[str, str] = {}
        for table in stage.reads:
            _, out = writer_of(self.stages, table)
            data = self._read(self.build_dir / out.path, f"stage {stage.label} needs {out.path}")
            hashes[out.path] = io.sha256(data)
            kwargs[table] = check_schema(io.read_parquet_bytes(data), out.schema, str(self.build_dir / out.path))
        for key in stage.raw:
            kwargs[key] = {}
            for label, path in self.raw_files(key).items():
                stamp = self._hashes.stamp(path)  # before the read: a change after it only costs a rehash
                data = self._read(path, f"config key {key!r}")
                hashes[label] = io.sha256(data)
                self._hashes.remember(path, hashes[label], stamp)
                kwargs[key][label] = data
        for key in stage.settings:
            kwargs[key] = self.config[key]
        if stage.digests:
            kwargs["digests"] = {}
            for key in stage.digests:
                for label, path in self.raw_files(key).items():
                    hashes[label] = self.hash_file(path) or io.sha256(self._read(path, f"config key {key!r}"))
                    size = path.stat().st_size
                    kwargs["digests"][label] = {"key": key, "sha256": hashes[label], "size": size}  # not a column

        scratch = self._scratch(stage)
        if stage.scratch:
            if scratch.is_symlink() or (scratch.exists() and not scratch.is_dir()):
                raise DamagedState(f"{scratch} is a file or a link, where stage {stage.label} keeps its scratch "
                                   "folder; ladders leaves it alone: remove it and build again")
            if scratch.exists():
                shutil.rmtree(scratch)  # ours (a folder of that name, no link): a killed run's leftovers
            scratch.mkdir()
            kwargs["scratch"] = scratch
        try:
            _fault_point(stage, "transform")
            try:
                result = stage.transform(**kwargs)
            except (PipelineError, OSError, KeyboardInterrupt, MemoryError):
                raise
            except Exception as e:  # an input's parse error is the stage's InputFormatError: this is a bug
                raise self._internal_error(stage, e) from e
            notes = tuple(result.pop("notes", ()))
            if set(result) != set(stage.writes):
                raise InternalError(f"stage {stage.label} returned {sorted(result)}, declared {sorted(stage.writes)}")
            outputs, rows = self._write_outputs(stage, result, scratch)
        finally:
            if stage.scratch:
                shutil.rmtree(scratch, ignore_errors=True)

        fingerprint = self.fingerprint(stage, inputs=hashes)
        record = self.read_lock()
        record[stage.name] = {**fingerprint, "outputs": outputs, "rows": rows or 0}
        lock.write(self.build_dir / LOCK_FILE, record)
        return Report(stage, "ran", record[stage.name]["rows"], time.perf_counter() - start, notes)

    def _internal_error(self, stage: Stage, e: Exception) -> InternalError:
        """A stage's own code raised: its traceback goes to ERROR_LOG in the build folder (for the bug
        report), and the error names the stage and the exception."""
        import traceback

        log = self.build_dir / ERROR_LOG
        text = "".join(traceback.format_exception(e))
        try:
            io.write_atomic(log, f"ladders: stage {stage.label} raised\n{text}".encode())
            where = f"; its traceback is in {log}"
        except OSError:
            where = ""
        return InternalError(f"stage {stage.label} raised {type(e).__name__}: "
                             f"{' '.join(str(e).split())[:200]}{where}")

    def _write_outputs(self, stage: Stage, result: dict[str, Any], scratch: Path) -> tuple[dict[str, str], int | None]:
        """Write a stage's outputs in place; the sha256 of each file written, and the rows of the first."""
        outputs: dict[str, str] = {}
        rows: int | None = None
        for name, out in stage.writes.items():
            value = result[name]
            if out.is_dir:
                files = {f: (v.encode() if isinstance(v, str) else v) for f, v in value.items()}
                if sorted(files) != sorted(out.members or {}):
                    raise InternalError(f"stage {stage.label} wrote {sorted(files)} in {out.path}, "
                                        f"declared {sorted(out.members or {})}")
                moved = {f for f, v in files.items() if isinstance(v, Path)}
                if any(not stage.scratch or files[f].parent != scratch for f in moved):
                    raise InternalError(f"stage {stage.label} handed over a file outside its scratch folder")
                self._write_dir(self.build_dir / out.path, files, stage)
                for f, v in files.items():  # what was just written, so that the next status need not read it
                    path = self.build_dir / out.path / f
                    outputs[f"{out.path}/{f}"] = io.sha256_file(path) if f in moved else io.sha256(v)
                    self._hashes.remember(path, outputs[f"{out.path}/{f}"], self._hashes.stamp(path))
                if rows is None:
                    rows = _first_table_rows(out, files, self.build_dir / out.path)
            else:
                df = check_schema(value, out.schema or {}, f"stage {stage.label} output {name}")
                if rows is None:
                    rows = df.height
                data = io.parquet_bytes(df)
                io.write_atomic(self.build_dir / out.path, data)
                outputs[out.path] = io.sha256(data)
                self._hashes.remember(self.build_dir / out.path, outputs[out.path],
                                      self._hashes.stamp(self.build_dir / out.path))
                _fault_point(stage, "write")  # some outputs written, the lock not yet
        return outputs, rows

    def _scratch(self, stage: Stage) -> Path:
        """The folder a stage that declares `scratch` works in."""
        return self.build_dir / f"{SCRATCH_PREFIX}{stage.name}"

    @staticmethod
    def _read(path: Path, why: str) -> bytes:
        try:
            return path.read_bytes()
        except FileNotFoundError:
            raise StaleInputError(f"{path} does not exist ({why}); run the stages before it") from None
        except IsADirectoryError:
            raise StaleInputError(f"{path} is a directory, not a file ({why})") from None

    # ---- folder outputs, swapped in whole -------------------------------------------

    def _write_dir(self, path: Path, files: dict[str, bytes | Path], stage: Stage) -> None:
        """Write a folder beside `path` (bytes written, finished files of the stage's scratch folder
        moved), then swap it in (pipeline/swap.py: one atomic exchange, or two renames where the
        system has none)."""
        fresh = swap.fresh_name(path)
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir(parents=True)
        for name, data in files.items():
            if isinstance(data, Path):
                io.move_durably(data, fresh / name)
            else:
                io.write_atomic(fresh / name, data)
        _fault_point(stage, "write")
        swap.swap_in(path, lambda folder: shutil.rmtree(folder, ignore_errors=True))

    def _restore_interrupted_swaps(self) -> None:
        """A kill between the two renames of _write_dir leaves only `.NAME.old`: put it back. A kill
        before them leaves a half-written `.NAME.new`, a kill during a stage its scratch folder:
        remove them (ours by their names, inside our folder)."""
        for stage in self.stages:
            scratch = self._scratch(stage)
            if stage.scratch and scratch.is_dir() and not scratch.is_symlink():
                shutil.rmtree(scratch, ignore_errors=True)
            for out in stage.writes.values():
                path = self.build_dir / out.path
                old, fresh = swap.old_name(path), swap.fresh_name(path)
                for ours in (old, fresh) if out.is_dir else ():
                    if ours.is_symlink():  # not ours after all: neither followed, emptied nor moved
                        raise DamagedState(f"{ours} is a link, where ladders keeps a folder of its own; "
                                           "ladders leaves it alone: remove it and build again")
                if out.is_dir and old.is_dir() and not path.exists():
                    os.rename(old, path)
                if out.is_dir and fresh.is_dir():
                    shutil.rmtree(fresh)


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
