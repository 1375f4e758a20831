"""pipeline/io.py: a write that fails leaves the old file and no partial one."""

from __future__ import annotations


import pytest

from pipeline import io


def test_write_error_leaves_no_partial_file(tmp_path, monkeypatch):
    target = tmp_path / "out.parquet"
    target.write_bytes(b"old")

    def failing_fsync(fd):
        raise OSError("disk full")

    monkeypatch.setattr(io.os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="disk full"):
        io.write_atomic(target, b"new contents")
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.parquet"]
