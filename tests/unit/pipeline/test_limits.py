"""What a failed write is called (pipeline/limits.py): a full disk only when free space says so, and the file a
failed copy was writing, not its source."""

from __future__ import annotations

import shutil
from collections import namedtuple


from pipeline import limits

Usage = namedtuple("Usage", "total used free")


def test_a_full_disk_only_when_free_space_says_so(monkeypatch, tmp_path):
    monkeypatch.setattr(limits, "file_size_limit", lambda: None)
    monkeypatch.setattr(shutil, "disk_usage", lambda _: Usage(10 * 2**30, 10 * 2**30 - 2**20, 2**20))
    assert limits.write_failure_hint(tmp_path).startswith("its disk is full (1.0 MiB free)")
    monkeypatch.setattr(shutil, "disk_usage", lambda _: Usage(10 * 2**30, 2**30, 9 * 2**30))
    hint = limits.write_failure_hint(tmp_path)
    assert hint.startswith("not a full disk (9.0 GiB free)") and "free some space" not in hint


def test_a_full_disk_during_a_copy_names_the_file_being_written(tmp_path):
    """A release on a full disk said `No space left on device: <build>/export/ladder.sqlite`, the copy's
    source on a disk with room: the error of shutil.copyfile names the source first, the target second."""
    import errno

    error = OSError(errno.ENOSPC, "No space left on device", "/big/export/ladder.sqlite", None, "/full/r/x")
    assert limits.describe_os_error(error).startswith("No space left on device: /full/r/x;")
    missing = OSError(errno.ENOENT, "No such file or directory", "/gone/words.parquet", None, "/r/words.parquet")
    assert limits.describe_os_error(missing).startswith("No such file or directory: /gone/words.parquet;")
