"""The lock, `<build dir>/ladders.lock`: what each stage was last built from, as JSON.

Per stage: `code` (sha256 of each source file it declares), `config` (a digest
of each config value it uses), `inputs` (sha256 of each input file: raw files
and upstream tables), `outputs` (sha256 of each file it wrote) and `rows`.
A stage is fresh while all of these still match. The lock is only a cache of
hashes: a missing or damaged one makes every stage stale, never a refusal.
"""
from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipeline import io

LOCK_FILE = "ladders.lock"
ENTRY = {"code": dict, "config": dict, "inputs": dict, "outputs": dict}  # the shape of one stage's entry


def read(path: Path, warn: Callable[[str], None]) -> dict[str, Any]:
    """The lock at `path`, or {} when it is missing, or damaged (then `warn` hears why)."""
    try:
        lock = json.loads(path.read_text())
    except (FileNotFoundError, NotADirectoryError):
        return {}
    except (json.JSONDecodeError, UnicodeDecodeError, IsADirectoryError):
        lock = None
    if not isinstance(lock, dict) or not all(
            isinstance(entry, dict) and all(isinstance(entry.get(k), t) for k, t in ENTRY.items())
            for entry in lock.values()):
        warn(f"warning: {path} is damaged; every stage counts as stale")
        return {}
    return lock


def write(path: Path, lock: dict[str, Any]) -> None:
    io.write_atomic(path, (json.dumps(lock, indent=1, sort_keys=True) + "\n").encode())


def changed(now: dict[str, Any], was: dict[str, Any]) -> list[str]:
    """Keys whose values differ between two records (present in one only counts)."""
    return sorted(k for k in set(now) | set(was) if now.get(k) != was.get(k))
