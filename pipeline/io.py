"""File IO for the runner and the readers of an export: deterministic Parquet bytes, atomic writes,
hashing, reading an export's tables (read_export_table), and the rule that ladders' own folders hold no
link, FIFO, socket or device (special_files, refuse_links: refused by name, never followed).

Every file ladders writes as bytes goes through `write_atomic` (or `write_atomic_at`,
its form for an open folder): the bytes go to a temporary file in the same folder,
are fsynced, then renamed over the final name, so a crash or kill never leaves a
half-written file under that name. A finished file made elsewhere (ladder.sqlite, written by the
driver in a scratch folder) is fsynced and moved into place by `move_durably`; a device or FIFO the
user names with --out is written into. (A folder output is written file by file so, then swapped in
whole: pipeline/swap.py.)
"""

from __future__ import annotations

import hashlib
import io
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import polars as pl


def parquet_bytes(df: pl.DataFrame, row_group_size: int | None = None) -> bytes:
    """The Parquet encoding of `df`; the same frame always gives the same bytes."""
    buf = io.BytesIO()
    df.write_parquet(buf, compression="zstd", compression_level=3, statistics=True, row_group_size=row_group_size)
    return buf.getvalue()


def read_parquet_bytes(data: bytes) -> pl.DataFrame:
    return pl.read_parquet(io.BytesIO(data))


# Every file is read by its path as written, glob=False: polars would read `[`, `*` and `?` in a folder's
# name as a pattern, and a folder named `export*` would load its neighbours' rows too.
def read_export_table(path: Path) -> pl.DataFrame:
    """A Parquet file of an export, or DamagedState naming it (polars' own error names no file)."""
    from pipeline.errors import DamagedState

    try:
        return pl.read_parquet(path, glob=False)
    except pl.exceptions.PolarsError as e:
        said = " ".join(str(e).split())[:160]
        raise DamagedState(
            f"{path} is not a readable Parquet file ({said}): this export is damaged; build it again"
        ) from None


def parquet_rows(data: bytes | Path) -> int:
    """Rows of Parquet bytes or a Parquet file, from the footer alone."""
    source = data if isinstance(data, Path) else io.BytesIO(data)
    return pl.scan_parquet(source, glob=False).select(pl.len()).collect().item()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def move_durably(source: Path, target: Path) -> None:
    """Move a finished file (same filesystem) to `target`, its bytes on disk first."""
    with naming(target):
        with open(source, "rb+") as f:
            os.fsync(f.fileno())
        os.chmod(source, 0o666 & ~_umask())
        os.replace(source, target)


def write_atomic(path: Path, data: bytes, named_by_user: bool = False) -> None:
    """`data` into a new file beside `path`, renamed over it. Inside ladders' own folders a link at
    `path` is replaced, never followed (the folders are checked for links first: `refuse_links`). A file
    the user named (`named_by_user`: `--out`) is the user's to point anywhere: a link there is followed to
    the file it names, and a device or FIFO (`--out /dev/null`) is written into (renaming over it
    replaced /dev/null with a file); its folder must exist (a typo in it is an error, not a new tree)."""
    path = Path(path)
    if named_by_user and path.is_symlink():
        path = path.resolve()
    if named_by_user and path.exists() and not path.is_file() and not path.is_dir():
        with naming(path), open(path, "wb") as f:
            f.write(data)
        return
    with naming(path):
        if not named_by_user:
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError as e:  # named as the file the user knows, as the temporary file's error was
            raise OSError(e.errno, e.strerror, str(path)) from None
        try:
            write_atomic_at(folder, path.name, data)
        finally:
            os.close(folder)


def write_atomic_at(folder: int, name: str, data: bytes) -> None:
    """`data` into a new temporary file `.NAME.<16 hex>.tmp` in the open folder `folder`, fsynced, then
    renamed over `name`: the one atomic writer (write_atomic, and export-web's page folder, which holds its
    folders open so that a link planted after its check is never followed). The temporary file is new, of
    a name no one could guess: a link, hard link or FIFO planted there beforehand is never opened
    (O_EXCL), and a name taken is passed over. Its mode is 0666 less the umask, as any new file's."""
    while True:
        tmp = f".{name}.{secrets.token_hex(8)}.tmp"
        try:
            out = os.open(
                tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o666, dir_fd=folder
            )
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(out, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.rename(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=folder)
        except FileNotFoundError:
            pass
        raise


def read_regular(path: Path) -> bytes:
    """The bytes of a regular file, never through a link and never blocking: a FIFO planted at a name
    ladders reads (ladders.lock in `ladders status`) hung the reader. OSError (IsADirectoryError for
    anything but a regular file, ELOOP for a link) when it is not one."""
    import errno

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EISDIR, "not a regular file", str(path))
        return f.read()


def special_files(path: Path) -> list[Path]:
    """Every symbolic link, FIFO, socket or device at or below the folder `path` (itself may be a link the
    user named), without following any: ladders makes none of these, so one found in a folder it owns
    was put there by someone else."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        return special_files_at(fd, Path(path))
    finally:
        os.close(fd)


def special_files_at(fd: int, folder: Path) -> list[Path]:
    """`special_files` of the open folder `fd` (named `folder`)."""
    found = []
    for top, dirs, files, top_fd in os.fwalk(".", dir_fd=fd):  # fwalk does not descend into linked folders
        for name in dirs + files:
            try:
                mode = os.stat(name, dir_fd=top_fd, follow_symlinks=False).st_mode
            except FileNotFoundError:  # removed meanwhile
                continue
            if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
                found.append(Path(os.path.normpath(folder / top / name)))
    return sorted(found)


def refuse_links(found: list[Path], where: str, error: type | None = None) -> None:
    """The one rule of ladders' own folders (a build folder, a page folder): a link, FIFO, socket or
    device in one is refused by name, never written through, emptied or removed. `error`: the kind
    (a build folder holding one is damaged state, exit 3; a page folder given so is bad usage, exit 2)."""
    from pipeline.errors import UsageError

    if found:
        kind = "a symbolic link" if found[0].is_symlink() else "not a regular file (a FIFO, socket or device)"
        more = f" ({len(found) - 1} more)" if len(found) > 1 else ""
        raise (error or UsageError)(
            f"{found[0]} is {kind} in {where}{more}; ladders neither writes through links nor removes "
            "them: remove it and run again"
        )


@contextmanager
def naming(path: Path) -> Iterator[None]:
    """An OSError without a file name (a write on a descriptor: `File too large`, `No space left on
    device`), or naming the temporary file beside `path` (`.NAME.<random>.tmp`), gets `path`, so that the
    one-line error says which file the user knows."""
    try:
        yield
    except OSError as e:
        ours = e.filename is not None and Path(os.fsdecode(e.filename)).name.startswith(f".{Path(path).name}.")
        if e.errno is not None and (e.filename is None or ours):
            raise OSError(e.errno, e.strerror, str(path)) from e
        raise


def _read_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


# Read once, at import: setting and restoring it while stages write in two threads could leave it at 0.
_UMASK = _read_umask()


def _umask() -> int:
    return _UMASK


def take_turns(fd, echo, waiting: str) -> None:
    """Lock `fd` (a file or an open folder) for this process alone; when another holds it, say `waiting`
    through `echo` first, then wait: the one rule of every lock of ladders (the build, export-web,
    release), held until the descriptor is closed."""
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        echo(waiting)
        fcntl.flock(fd, fcntl.LOCK_EX)
