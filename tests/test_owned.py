"""Issue 38: nothing the user owns is touched. Links and files a user put in or beside ladders' folders
(the build folder, a page folder) are refused or left alone, never followed, emptied, swapped away or
removed; what a killed run left is ladders' own and is cleaned up. Each test failed on the code before."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import build


@pytest.fixture
def built(tiny: Path) -> Path:
    assert build(tiny).exit_code == 0
    return tiny


# ---- item 1: the build folder refuses links it did not make ------------------------------------


@pytest.mark.parametrize("name", [".mutex", "ladders.lock", ".hashes.json", "06_longest.parquet", "export"])
def test_a_link_in_the_build_folder_is_refused_and_its_target_untouched(built, tmp_path, name):
    """A link at `.mutex` had its target emptied even by a no-op build; at the lock, the hash cache or an
    output its target was overwritten; at `export` it was swapped away."""
    victim = tmp_path / "victim"
    victim.mkdir() if name == "export" else victim.write_text("precious\n")
    link = built / "build" / name
    if link.is_dir():
        import shutil

        shutil.rmtree(link)
    else:
        link.unlink()
    link.symlink_to(victim)
    for force in ((), ("--force",)):
        result = build(built, *force)
        assert result.exit_code == 3, result.output
        assert result.stderr == (
            f"error: {link} is a symbolic link in the build folder {built / 'build'}; ladders neither "
            "writes through links nor removes them: remove it and run again\n"
        )
    assert link.is_symlink() and link.resolve() == victim
    assert victim.is_dir() and not any(victim.iterdir()) if name == "export" else victim.read_text() == "precious\n"
    assert not (built / "build" / ".export.new").exists()


def test_a_fifo_in_the_build_folder_is_refused_without_hanging(built):
    fifo = built / "build" / "ladders.lock"
    fifo.unlink()
    os.mkfifo(fifo)
    result = build(built)
    assert result.exit_code == 3 and "is not a regular file (a FIFO, socket or device)" in result.stderr


# ---- item 5: a killed write's temporary file is removed by the next build ----------------------


def test_a_killed_writes_temporary_file_is_removed_and_a_users_dot_file_kept(built):
    """A kill between the temporary file and its rename left `.02_definitions.parquet.*.tmp` (5 MB on raw/)
    that later builds kept. Only ladders' own names go: a user's `.notes.tmp` stays."""
    left = built / "build" / ".02_definitions.parquet.k1ll3d.tmp"
    left.write_bytes(b"x" * 1000)
    (built / "build" / ".ladders.lock.abc_12.tmp").write_bytes(b"{")
    mine = built / "build" / ".notes.tmp"
    mine.write_text("mine\n")
    assert build(built).exit_code == 0
    assert not left.exists() and not (built / "build" / ".ladders.lock.abc_12.tmp").exists()
    assert mine.read_text() == "mine\n"
