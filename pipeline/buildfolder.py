"""The build folder's safety: what ladders may write into, one writer at a time, and recovery after a kill.

- guard (`check`): a build folder must be ladders' own. The current folder, a filesystem root, the home
  folder, the project or an input folder (or one holding them), a file, and any folder with files in it
  that carries neither ladders' marker (`.ladders-build`) nor its lock are refused; so is a path that is
  not UTF-8.
- foreign files (`exclusive`): an entry in a folder output (`export/`, the web folder) that is none of
  its members (for a folder its transform names, none the lock records) is refused, DamagedState,
  before any stage runs: the swap would delete it.
- links (`exclusive`): ladders makes no link, FIFO or device, so one anywhere in the build folder (at
  `.mutex`, `ladders.lock`, an output, `export`) is refused by name before anything is opened: never
  followed, emptied or swapped away (the rule of pipeline/io.py's `refuse_links`, export-web's too).
- mutex (`exclusive`): a second process building the same folder waits on `<build dir>/.mutex`.
- scratch (`scratch`): a stage that declares `scratch` works in `<build dir>/.scratch-<stage>`, emptied
  before it runs and removed after.
- atomic swap (`write_dir`): a folder output is written beside its place and swapped in whole
  (pipeline/swap.py), so that a reader never finds it missing or half written.
- recovery (`recover`, at every start under the mutex, and after Ctrl-C): a kill between the two renames
  of a swap leaves only `.NAME.old`, which is put back; a half-written `.NAME.new`, a killed stage's
  scratch folder and a killed write's temporary file (`.NAME.<random>.tmp` of a file ladders writes)
  are removed (ours by their names, inside our folder; a link there is refused).

Writes the marker `.ladders-build`, `.mutex`, the scratch folders and swapped-in folder outputs, nothing
else; reads ladders.lock (foreign files). The runner (pipeline/runner.py) decides what to run and records
it in the lock.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from pipeline import io, lock, swap
from pipeline.errors import DamagedState, UsageError
from pipeline.lock import HASH_CACHE_FILE, LOCK_FILE
from pipeline.stage import Stage

MUTEX_FILE = ".mutex"
SCRATCH_PREFIX = ".scratch-"  # + a stage's name: the scratch folder of a stage that declares one
MARKER_FILE = ".ladders-build"  # in every build folder ladders made: the only folders it writes into
ERROR_LOG = "ladders-error.log"  # the traceback of the last internal error of a stage, for a bug report
MARKER_TEXT = "This folder is a ladders build folder: `ladders` writes and replaces files here.\n"


class BuildFolder:
    def __init__(
        self,
        path: Path,
        protected: Callable[[], dict[Path, str]],
        stages: Iterable[Stage],
        echo: Callable[[str], None] = lambda s: None,
    ):
        """`protected()`: the folders a build folder must neither be nor hold, each with what it is."""
        self.path = path
        self.protected = protected
        self.stages = list(stages)
        self.echo = echo

    def check(self) -> None:
        """Refuse a build folder whose files ladders must not replace (see the module docstring)."""
        path = self.path
        try:
            str(path).encode()
        except UnicodeEncodeError:  # the SQLite writer (and the lock's JSON) can name only UTF-8 paths
            raise UsageError(
                f"build folder {path} has bytes in its name that are not UTF-8; choose a --build-dir named in UTF-8"
            ) from None
        home = Path.home().resolve()
        if path.exists() and not path.is_dir():
            raise UsageError(f"build folder {path} is a file, not a folder")
        if path == Path(path.anchor) or path == home or path == Path.cwd().resolve():
            what = {Path(path.anchor): "a filesystem root", home: "your home folder"}.get(path, "the current folder")
            raise UsageError(
                f"build folder {path} is {what}: ladders replaces files in its build folder; "
                "choose a folder of its own, e.g. --build-dir build"
            )
        for folder, what in self.protected().items():
            if path == folder or folder.is_relative_to(path):
                raise UsageError(f"build folder {path} is or holds {what} ({folder}); choose another --build-dir")
        if (
            path.is_dir()
            and any(path.iterdir())
            and not (path / MARKER_FILE).exists()
            and not (path / LOCK_FILE).exists()
        ):
            raise UsageError(
                f"build folder {path} holds files ladders did not write; "
                "choose an empty or new folder (ladders never replaces what it did not write)"
            )

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Check the folder, mark it ours, and hold its mutex (a second process waits here, saying so);
        then recover what a killed run left behind."""
        self.inspect()
        self.path.mkdir(parents=True, exist_ok=True)
        if not (self.path / MARKER_FILE).exists():
            io.write_atomic(self.path / MARKER_FILE, MARKER_TEXT.encode())
        # Opened without truncating and without following a link planted since the check above.
        mutex = os.open(self.path / MUTEX_FILE, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666)
        with open(mutex, "r+b") as f:
            io.take_turns(f, self.echo, f"waiting: another ladders process is building {self.path}")
            self.recover()
            yield

    def inspect(self) -> None:
        """Every refusal a build would make before it writes (the guard, links, foreign files), reading
        only: `status` says what `build` would refuse, not that a refused folder is fresh."""
        self.check()
        if self.path.is_dir():
            io.refuse_links(io.special_files(self.path), f"the build folder {self.path}", DamagedState)
            self.refuse_foreign_files()

    def refuse_foreign_files(self) -> None:
        """A folder output (build/export) is replaced whole by the next build that writes it, so a file or
        folder in it that is none of its declared members was put there by someone else, and the swap would
        delete it: DamagedState naming it, before any stage runs. So is a file where the folder goes (the
        swap would move it aside as its own)."""
        recorded: dict | None = None
        for stage in self.stages:
            for output in stage.writes.values():
                folder = self.path / output.path
                if output.is_dir and folder.is_file() and not folder.is_symlink():
                    raise DamagedState(
                        f"{folder} is a file, where ladders writes the folder {output.path}/: move it out of "
                        f"{self.path} first"
                    )
                if not output.is_dir or not folder.is_dir() or folder.is_symlink():
                    continue
                ours = set(output.members)
                if output.named_by_transform:  # its names are those the lock says the stage wrote
                    if recorded is None:
                        recorded = lock.read(self.path / LOCK_FILE, lambda _: None)
                    written = (recorded.get(stage.name) or {}).get("outputs", {})
                    ours = {name.split("/")[1] for name in written if name.startswith(f"{output.path}/")}
                foreign = sorted(entry.name for entry in folder.iterdir() if entry.name not in ours)
                if foreign:
                    raise DamagedState(
                        f"{folder / foreign[0]} is not a file ladders wrote"
                        + (f" ({len(foreign) - 1} more beside it)" if len(foreign) > 1 else "")
                        + f": the next build replaces {folder} whole; move it out of that folder first"
                    )

    def scratch_path(self, stage: Stage) -> Path:
        return self.path / f"{SCRATCH_PREFIX}{stage.name}"

    @contextmanager
    def scratch(self, stage: Stage) -> Iterator[Path | None]:
        """The stage's empty scratch folder while it runs (None when it declares none), removed after."""
        if not stage.scratch:
            yield None
            return
        scratch = self.scratch_path(stage)
        if scratch.is_symlink() or (scratch.exists() and not scratch.is_dir()):
            raise DamagedState(
                f"{scratch} is a file or a link, where stage {stage.label} keeps its scratch "
                "folder; ladders leaves it alone: remove it and build again"
            )
        if scratch.exists():
            shutil.rmtree(scratch)  # ours (a folder of that name, no link): a killed run's leftovers
        scratch.mkdir()
        try:
            yield scratch
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def write_dir(self, path: Path, files: dict[str, bytes | Path], before_swap: Callable[[], None]) -> None:
        """Write a folder beside `path` (bytes written, finished files of a scratch folder moved), then
        swap it in (pipeline/swap.py: one atomic exchange, or two renames where the system has none)."""
        fresh = swap.fresh_name(path)
        shutil.rmtree(fresh, ignore_errors=True)
        fresh.mkdir(parents=True)
        for name, data in files.items():
            if isinstance(data, Path):
                io.move_durably(data, fresh / name)
            else:
                io.write_atomic(fresh / name, data)
        before_swap()
        swap.swap_in(path, lambda folder: shutil.rmtree(folder, ignore_errors=True))

    def recover(self) -> None:
        """Put back a folder output a kill left as `.NAME.old` alone; remove a half-written `.NAME.new`
        and a killed stage's scratch folder."""
        for stage in self.stages:
            scratch = self.scratch_path(stage)
            if stage.scratch and scratch.is_dir() and not scratch.is_symlink():
                shutil.rmtree(scratch, ignore_errors=True)
            for out in stage.writes.values():
                if out.is_dir:
                    self._recover_dir(self.path / out.path)
        # A write killed between its temporary file and the rename (io.write_atomic) leaves
        # `.NAME.<random>.tmp` beside NAME: ours when NAME is a file ladders writes here.
        ours = {MARKER_FILE, LOCK_FILE, HASH_CACHE_FILE, ERROR_LOG}
        ours |= {out.path for stage in self.stages for out in stage.writes.values() if not out.is_dir}
        for entry in os.scandir(self.path):
            name = entry.name
            if name.startswith(".") and name.endswith(".tmp") and entry.is_file(follow_symlinks=False):
                if name[1:].rsplit(".", 2)[0] in ours:
                    os.unlink(entry.path)

    @staticmethod
    def _recover_dir(path: Path) -> None:
        old, fresh = swap.old_name(path), swap.fresh_name(path)
        for ours in (old, fresh):
            if ours.is_symlink():  # not ours after all: neither followed, emptied nor moved
                raise DamagedState(
                    f"{ours} is a link, where ladders keeps a folder of its own; "
                    "ladders leaves it alone: remove it and build again"
                )
        if old.is_dir() and not path.exists():
            os.rename(old, path)
        if fresh.is_dir():
            shutil.rmtree(fresh)
