"""The lock, `<build dir>/ladders.lock`: what each stage was last built from, as JSON.

Per stage: `code` (sha256 of each source file it declares), `config` (a digest
of each config value it uses), `inputs` (sha256 of each input file: raw files
and upstream tables), `outputs` (sha256 of each file it wrote) and `rows`.
A stage is fresh while all of these still match. The lock is only a cache of
hashes: a missing or damaged one makes every stage stale, never a refusal.

Also the hash cache, `<build dir>/.hashes.json` (HashCache): each file's sha256 by (size, mtime_ns,
ctime_ns, inode), so that a no-op build rereads nothing; a missing, damaged or unwritable cache costs
only a rehash.
"""

from __future__ import annotations

import json
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipeline import io

LOCK_FILE = "ladders.lock"
ENTRY = {"code": dict, "config": dict, "inputs": dict, "outputs": dict}  # the shape of one stage's entry


def read(path: Path, warn: Callable[[str], None]) -> dict[str, Any]:
    """The lock at `path`, or {} when it is missing, or damaged (then `warn` hears why)."""
    try:
        lock = json.loads(io.read_regular(path))
    except (FileNotFoundError, NotADirectoryError):
        return {}
    except (json.JSONDecodeError, UnicodeDecodeError, OSError):  # a link, FIFO or folder: not ours to read
        lock = None
    if not isinstance(lock, dict) or not all(
        isinstance(entry, dict) and all(isinstance(entry.get(k), t) for k, t in ENTRY.items())
        for entry in lock.values()
    ):
        warn(f"warning: {path} is damaged; every stage counts as stale")
        return {}
    return lock


def write(path: Path, lock: dict[str, Any]) -> None:
    io.write_atomic(path, (json.dumps(lock, indent=1, sort_keys=True) + "\n").encode())


def changed(now: dict[str, Any], was: dict[str, Any]) -> list[str]:
    """Keys whose values differ between two records (present in one only counts)."""
    return sorted(k for k in set(now) | set(was) if now.get(k) != was.get(k))


HASH_CACHE_FILE = ".hashes.json"


class HashCache:
    """sha256 of files, remembered across runs by (size, mtime_ns, ctime_ns, inode) in
    `<build dir>/.hashes.json`, so that a no-op build does not read every input and output again. A file
    whose content changes gets a new ctime even when its mtime is set back, so a stale entry is never
    trusted. The cache is only an optimisation: a missing, damaged or unwritable one costs a rehash."""

    def __init__(self, path: Path):
        self.path = path
        try:
            entries = json.loads(io.read_regular(path))
        except (OSError, ValueError):
            entries = {}
        self.entries: dict[str, list] = entries if isinstance(entries, dict) else {}
        self.changed = False
        self._lock = threading.Lock()  # stages in threads remember while the build saves

    @staticmethod
    def stamp(file: Path) -> list[int] | None:
        try:
            st = file.stat()
        except (FileNotFoundError, NotADirectoryError):
            return None
        return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino] if stat.S_ISREG(st.st_mode) else None

    def sha256(self, file: Path) -> str | None:
        """The file's sha256, or None when it is not a regular file."""
        stamp = self.stamp(file)
        if stamp is None:
            return None
        entry = self.entries.get(str(file))
        if isinstance(entry, list) and entry[:4] == stamp and len(entry) == 5:
            return entry[4]
        try:
            digest = io.sha256(file.read_bytes())
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        self.remember(file, digest, stamp)
        return digest

    def remember(self, file: Path, digest: str, stamp: list[int] | None) -> None:
        """Record `digest` as the content of `file` when it had `stamp` (taken before it was read)."""
        if stamp is not None:
            with self._lock:
                self.entries[str(file)] = [*stamp, digest]
                self.changed = True

    def save(self) -> None:
        with self._lock:
            text = json.dumps(self.entries, separators=(",", ":")) if self.changed else None
            self.changed = False
        if text is not None and self.path.parent.is_dir():
            try:
                io.write_atomic(self.path, text.encode())
            except OSError:
                self.changed = True  # a read-only build folder: hash again next time
