"""A folder output swapped in whole, and readers that never see it missing.

The runner writes a folder output (build/export/) beside its place, as
`.export.new`, then swaps it in. On Linux the swap is one atomic exchange of
the two names (renameat2 with RENAME_EXCHANGE): `export` always names a whole
folder, old or new, and `.export.new` holds the old one until it is removed.
Where the exchange is not supported (another system, a filesystem without it)
it is two renames, `export` -> `.export.old` and `.export.new` -> `export`,
with a moment between them when `export` does not exist; a reader that finds
it missing while either dot-folder is beside it waits for the swap to finish
(`wait_for_swap`) and looks again. A kill at any point leaves the previous or
the new folder in place, or `.export.old` alone, which the runner puts back at
its next start.

Readers that opened a file before the swap keep reading it: the swap renames
folders and never writes into a file, and the old folder's files stay readable
to those who hold them open until they close them. A reader of several files
(verify, diff, export-sql, export-web) reads again when the folder it read from
was swapped meanwhile (`read_consistently`), so it never mixes two exports.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

AT_FDCWD = -100
RENAME_EXCHANGE = 2
# Tests set this to "1" to swap with the two renames even where the exchange works, so that the readers'
# wait is tried for real.
TWO_RENAMES_ENV = "LADDERS_TEST_TWO_RENAMES"
T = TypeVar("T")
SWAP_WAIT = 2.0  # seconds a reader waits for a swap in progress before it says the export is missing


def fresh_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.new")


def old_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.old")


def _exchange(a: Path, b: Path) -> bool:
    """Swap the names `a` and `b` in one step; False where the system or filesystem cannot."""
    import ctypes  # here, not at the top: readers import this module, and a solve starts in 0.15 s

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(a), None, str(b))


def swap_in(path: Path, remove: Callable[[Path], None], exchange: bool | None = None) -> None:
    """Put the finished `.NAME.new` in place of `path` (the old folder, if any, goes through `remove`)."""
    fresh, old = fresh_name(path), old_name(path)
    if exchange is None:
        exchange = os.environ.get(TWO_RENAMES_ENV) != "1"
    if path.exists() and exchange and _exchange(fresh, path):
        remove(fresh)  # now the old folder
        return
    remove(old)
    if path.exists():
        os.rename(path, old)
    os.rename(fresh, path)
    remove(old)


def swapping(path: Path) -> bool:
    """Whether a swap of the folder `path` may be under way (a dot-folder of the runner beside it)."""
    return fresh_name(path).exists() or old_name(path).exists()


def wait_for_swap(path: Path, present: Callable[[], bool]) -> bool:
    """`present()`, waiting while a swap of `path` is under way for it to become true (at most SWAP_WAIT s)."""
    deadline = time.monotonic() + SWAP_WAIT
    while not present():
        if not swapping(path) or time.monotonic() > deadline:
            return present()
        time.sleep(0.005)
    return True


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def read_consistently(read: Callable[[], T], *folders: Path, attempts: int = 5) -> T:
    """`read()` of files in the export `folders`, again when a swap replaced one of them meanwhile. A
    reader opens file after file by name (polars opens a Parquet file more than once), so one that spans
    a swap would mix two exports or read a footer of one file and pages of another: its result or error
    counts only when every folder is the same before and after (the exchange gives the name a new
    folder; the two renames too)."""
    for _ in range(attempts - 1):
        before = [_identity(f) for f in folders]
        try:
            result = read()
        except Exception:
            if [_identity(f) for f in folders] == before and not any(swapping(f) for f in folders):
                raise
        else:
            if [_identity(f) for f in folders] == before:
                return result
        for f in folders:  # a swap under way: let it finish before the next try
            wait_for_swap(f, lambda f=f: not swapping(f))
    return read()  # the last try stands on its own, errors included
