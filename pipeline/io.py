"""File IO for the runner: deterministic Parquet bytes, atomic writes, hashing.

Every file the pipeline writes goes through `write_atomic`: the bytes go to a
temporary file in the same folder, are fsynced, then renamed over the final
name, so a crash or kill never leaves a half-written file under that name.
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
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


def parquet_rows(data: bytes | Path) -> int:
    """Rows of Parquet bytes or a Parquet file, from the footer alone."""
    return pl.scan_parquet(data if isinstance(data, Path) else io.BytesIO(data)).select(pl.len()).collect().item()


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


def write_atomic(path: Path, data: bytes) -> None:
    """`data` into a new file beside `path`, renamed over it. A name that is not a regular file is not
    replaced: a link is followed to the file it names, and a device or FIFO the user named
    (`--out /dev/null`) is written into (renaming over it replaced /dev/null with a file)."""
    path = Path(path)
    if path.is_symlink():
        path = path.resolve()
    if path.exists() and not path.is_file() and not path.is_dir():
        with naming(path), open(path, "wb") as f:
            f.write(data)
        return
    with naming(path):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; outputs are for everyone to read
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise


@contextmanager
def naming(path: Path) -> Iterator[None]:
    """An OSError without a file name (a write on a descriptor: `File too large`, `No space left on
    device`) gets `path`, so that the one-line error says which file."""
    try:
        yield
    except OSError as e:
        if e.filename is None and e.errno is not None:
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
