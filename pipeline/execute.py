"""One stage's run once the runner has found it stale: gather -> call -> encode -> write.

- gather: the transform's keyword arguments, read from the build folder and the config: each table it
  reads as a polars frame checked against its schema (a folder it reads as its Path), each raw input as
  {label: bytes}, its settings as the config's values, and `digests` as {label: {key, sha256, size}};
  with them the sha256 of every input, by the label the lock uses.
- call: the transform's result ({output name: frame, bytes or {member: bytes or Path}}, and `notes`); a
  stage declaring `pops_inputs` is handed the gathered dict itself; an exception of its own code becomes an
  InternalError naming the stage, carrying its traceback.
- encode: each table output checked against its schema and encoded as Parquet, outside the writing lock.
- write: every output in place, atomically (a folder output swapped in whole by the build folder); the
  sha256 of each file written and the rows of the first table.
The runner records what was read and written in the lock, after `write`. `FAULT_ENV` names the points
where the crash tests stop a stage (`fault_point`), which also notice a cancelled build.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

from pipeline import io
from pipeline.buildfolder import BuildFolder
from pipeline.config import DEFAULT_LEXICONS, Config
from pipeline.errors import InternalError, PipelineError, StaleInputError
from pipeline.lock import HashCache
from pipeline.registry import writer_of
from pipeline.schedule import Cancelled
from pipeline.schemas import check_schema, made_lexicons
from pipeline.stage import Output, Stage

# Fault injection for the crash tests: "STAGE:POINT" (several separated by commas) makes the runner
# announce the point on stderr and sleep there, so that a test can kill -9 it at a known place.
FAULT_ENV = "LADDERS_TEST_FAULT"


def fault_point(stage: Stage, point: str, cancel: threading.Event) -> None:
    if f"{stage.name}:{point}" in os.environ.get(FAULT_ENV, "").split(","):
        sys.stderr.write(f"fault point {stage.name}:{point}\n")
        sys.stderr.flush()
        if cancel.wait(600):
            raise Cancelled


class Executor:
    """The steps of a stage's run over one build folder; `cancel` is the build's (see schedule.py)."""

    def __init__(
        self,
        config: Config,
        stages: list[Stage],
        hashes: HashCache,
        folder: BuildFolder,
        cancel: threading.Event,
    ):
        self.config, self.stages, self._hashes, self.folder, self._cancel = config, stages, hashes, folder, cancel
        self.build_dir = config.path("build_dir")

    def gather(self, stage: Stage) -> tuple[dict[str, Any], dict[str, str]]:
        """The transform's keyword arguments (tables, raw files' bytes, settings, digests), and the sha256
        of every input read, by the label the lock uses."""
        kwargs: dict[str, Any] = {key: self.config[key] for key in stage.settings}
        hashes: dict[str, str] = {}
        for table in stage.reads:
            _, out = writer_of(self.stages, table)
            if out.is_dir:  # a folder: its Path, its members hashed (the writer's lock holds them whole)
                for f in out.files():
                    hashes[f] = self._hashes.sha256(self.build_dir / f) or io.sha256(
                        self._read(self.build_dir / f, table)
                    )
                kwargs[table] = self.build_dir / out.path
                continue
            data = self._read(self.build_dir / out.path, f"stage {stage.label} needs {out.path}")
            hashes[out.path] = io.sha256(data)
            frame = io.read_parquet_bytes(data)
            kwargs[table] = check_schema(frame, self._schema(out, frame), str(self.build_dir / out.path))
        for key in stage.raw:
            kwargs[key] = {}
            for label, path in self.config.raw_files(key).items():
                stamp = self._hashes.stamp(path)  # before the read: a change after it only costs a rehash
                data = self._read(path, f"config key {key!r}")
                hashes[label] = io.sha256(data)
                self._hashes.remember(path, hashes[label], stamp)
                kwargs[key][label] = data
        if stage.digests:
            kwargs["digests"] = {}
            for key in stage.digests:
                for label, path in self.config.raw_files(key).items():
                    hashes[label] = self._hashes.sha256(path) or io.sha256(self._read(path, f"config key {key!r}"))
                    size = path.stat().st_size
                    kwargs["digests"][label] = {"key": key, "sha256": hashes[label], "size": size}  # not a column
        return kwargs, hashes

    def call(self, stage: Stage, kwargs: dict[str, Any]) -> dict[str, Any]:
        """The transform's result; an exception of its own code is an internal error (an input it cannot
        parse is the stage's InputFormatError)."""
        fault_point(stage, "transform", self._cancel)
        try:
            # pops_inputs: the very dict, so that what the stage pops is no longer held here or by the runner
            result = stage.transform(kwargs) if stage.pops_inputs else stage.transform(**kwargs)
        except (PipelineError, OSError, KeyboardInterrupt, MemoryError, Cancelled):
            raise
        except Exception as e:
            raise _internal_error(stage, e) from e
        if set(result) - {"notes"} != set(stage.writes):
            raise InternalError(f"stage {stage.label} returned {sorted(result)}, declared {sorted(stage.writes)}")
        return result

    def encode(self, stage: Stage, result: dict[str, Any]) -> dict[str, Any]:
        """Each table output checked against its schema and encoded as Parquet (rows, bytes), before the
        writing lock is taken: a stage beside it need not wait for the encoding, nor Ctrl-C."""
        encoded = dict(result)
        for name, out in stage.writes.items():
            if not out.is_dir and out.schema is None:  # a file of bytes, no table
                encoded[name] = (None, result[name])
            elif not out.is_dir:
                df = check_schema(result[name], self._schema(out, result[name]), f"stage {stage.label} output {name}")
                encoded[name] = (df.height, io.parquet_bytes(df))
        return encoded

    def write(self, stage: Stage, result: dict[str, Any], scratch: Path | None) -> tuple[dict[str, str], int | None]:
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
                    self.build_dir / out.path, files, lambda: fault_point(stage, "write", self._cancel)
                )
                for f, v in files.items():  # what was just written, so that the next status need not read it
                    path = self.build_dir / out.path / f
                    outputs[f"{out.path}/{f}"] = io.sha256_file(path) if f in moved else io.sha256(v)
                    self._hashes.remember(path, outputs[f"{out.path}/{f}"], self._hashes.stamp(path))
                if rows is None:
                    rows = _first_table_rows(out, files, self.build_dir / out.path)
            else:
                height, data = value  # encoded by encode(), outside the writing lock
                if rows is None:
                    rows = height
                io.write_atomic(self.build_dir / out.path, data)
                outputs[out.path] = io.sha256(data)
                self._hashes.remember(
                    self.build_dir / out.path, outputs[out.path], self._hashes.stamp(self.build_dir / out.path)
                )
                fault_point(stage, "write", self._cancel)  # some outputs written, the lock not yet
        return outputs, rows

    def _schema(self, out: Output, frame) -> dict[str, Any]:
        """A table's schema: of the config's lexicons, or for a table of the lexicons stage 5 made (`made`), of
        those whose columns it holds, where only a default lexicon may be missing."""
        lexicons = self.config["lexicons"]
        if out.made:
            lexicons = made_lexicons(lexicons, frame.columns, self.config.values.get(DEFAULT_LEXICONS, ()))
        return out.columns(lexicons) or {}

    @staticmethod
    def _read(path: Path, why: str) -> bytes:
        try:
            return path.read_bytes()
        except FileNotFoundError:
            raise StaleInputError(f"{path} does not exist ({why}); run the stages before it") from None
        except IsADirectoryError:
            raise StaleInputError(f"{path} is a directory, not a file ({why})") from None


def _internal_error(stage: Stage, e: Exception) -> InternalError:
    """A stage's own code raised: the error names the stage and the exception, and carries the
    traceback that goes to ERROR_LOG in the build folder (for the bug report) if it is the one raised."""
    import traceback

    error = InternalError(f"stage {stage.label} raised {type(e).__name__}: {' '.join(str(e).split())[:200]}")
    error.traceback_text = f"ladders: stage {stage.label} raised\n{''.join(traceback.format_exception(e))}"
    return error


def _first_table_rows(out: Output, files: dict[str, bytes | Path], folder: Path) -> int:
    """Rows of a folder output (now in `folder`): the height of its first Parquet member."""
    for member, schema in (out.members or {}).items():
        if schema is not None:
            data = files[member]
            return io.parquet_rows(folder / member if isinstance(data, Path) else data)
    return 0
