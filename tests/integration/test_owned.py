"""Issue 38: nothing the user owns is touched. Links and files a user put in or beside ladders' folders
(the build folder, a page folder) are refused or left alone, never followed, emptied, swapped away or
removed; what a killed run left is ladders' own and is cleaned up. Each test failed on the code before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import build, invoke
from support.paths import ROOT


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


# ---- item 2: export-web owns only the files it wrote ---------------------------------------------


def web(built: Path, folder: Path, *extra: str):
    return invoke("export-web", str(folder), "--config", str(built / "config.toml"), *extra)


def test_export_web_keeps_files_it_did_not_write_and_removes_its_own_two_exports_on(built, tmp_path, monkeypatch):
    """export-web removed every file under data/ that the new export lacked, a user's notes.txt and
    folder mine/ with them. Now it removes only its own files of the export before the previous one."""
    from ladders.artifact import webexport

    page = tmp_path / "site"
    real = webexport.web_files
    generation = iter(range(10))

    def one_more_file(export):  # each export writes one file of its own that no later one writes
        files = real(export)
        files[f"data/b/old.{next(generation)}.json"] = b"[]"
        return files

    monkeypatch.setattr(webexport, "web_files", one_more_file)
    assert web(built, page).exit_code == 0
    (page / "data/notes.txt").write_text("mine\n")
    (page / "data/mine").mkdir()
    (page / "data/mine/a.json").write_text("{}")
    (page / "data/b/mine.0.json").write_text("{}")
    assert web(built, page).exit_code == 0
    assert (page / "data/b/old.0.json").exists()  # the previous export's: a page still open may ask for it
    assert web(built, page).exit_code == 0
    assert not (page / "data/b/old.0.json").exists() and (page / "data/b/old.1.json").exists()
    assert (page / "data/notes.txt").read_text() == "mine\n"
    assert (page / "data/mine/a.json").read_text() == "{}" and (page / "data/b/mine.0.json").exists()


def test_an_older_page_folder_is_owned_by_what_its_manifest_lists(built, tmp_path):
    """A folder written before the marker held its list: ladders' files are the ones its manifest names."""
    page = tmp_path / "site"
    assert web(built, page).exit_code == 0
    (page / ".ladders-web").write_text("ladders export-web writes and replaces the files of this folder.\n")
    (page / "data/notes.txt").write_text("mine\n")
    assert web(built, page).exit_code == 0
    record = json.loads((page / ".ladders-web").read_text())
    assert "data/manifest.json" in record["before"] and "index.html.gz" in record["before"]
    assert "data/notes.txt" not in record["before"] + record["written"]
    assert (page / "data/notes.txt").exists()


# ---- item 4: two export-web runs into one folder take turns --------------------------------------


def test_two_export_web_runs_into_one_folder_take_turns(built, tmp_path):
    """Side by side, one exited 4 on a temporary file the other removed, and the manifest left behind
    named files that no longer existed. Now the second waits for the first; the site is whole."""
    page = tmp_path / "site"
    command = [sys.executable, "-m", "pipeline", "export-web", str(page), "--config", str(built / "config.toml")]
    for _ in range(3):
        runs = [subprocess.Popen(command, cwd=ROOT, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        for run in runs:
            assert run.wait(timeout=120) == 0, run.stderr.read()
        manifest = json.loads((page / "data/manifest.json").read_text())
        listed = json.loads((page / manifest["files"]).read_text())
        assert [name for name in listed if not (page / name).is_file()] == []
        assert not list(page.rglob("*.tmp"))


@pytest.mark.parametrize("name", ["ladders.lock", ".hashes.json"])
def test_status_reads_no_fifo_planted_in_the_build_folder(built, name):
    """`ladders status` read ladders.lock and .hashes.json by name: a FIFO there hung it. Now it refuses the
    FIFO by name as `build` does (exit 3), without opening it."""
    fifo = built / "build" / name
    fifo.unlink()
    os.mkfifo(fifo)
    child = subprocess.run(
        [sys.executable, "-m", "pipeline", "status", "--config", str(built / "config.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert child.returncode == 3 and child.stderr.startswith(f"error: {fifo} is not a regular file (a FIFO"), (
        child.stderr
    )


@pytest.mark.parametrize("name", ["export/words.parquet", "ladders.lock"])
def test_export_sql_never_writes_over_a_file_of_the_export_or_build_folder(built, name):
    """`export-sql --out build/export/words.parquet` replaced the export's table with the dump."""
    target = built / "build" / name
    before = target.read_bytes()
    result = invoke("export-sql", "--config", str(built / "config.toml"), "--out", str(target))
    assert result.exit_code == 2 and "would replace a file of the export or its build folder" in result.stderr
    assert target.read_bytes() == before


def test_a_killed_export_webs_temporary_files_go_and_a_users_stay(built, tmp_path):
    page = tmp_path / "site"
    assert web(built, page).exit_code == 0
    left = page / "data" / ".manifest.json.0123456789abcdef.tmp"  # a kill between write and rename
    left.write_text("{")
    mine = page / "data" / ".mine.0123456789abcdef.tmp"
    mine.write_text("mine")
    assert web(built, page).exit_code == 0
    assert not left.exists() and mine.read_text() == "mine"


# ---- found by the second hostile pass -------------------------------------------------------------


def test_a_users_files_in_the_export_folder_are_refused_and_kept(built):
    """A build replaces build/export whole: a file or folder of the user's in it was deleted, silently
    and with exit 0 (`run export --force`, or any build whose export ran)."""
    export = built / "build" / "export"
    (export / "NOTES.txt").write_text("my notes\n")
    (export / "mine").mkdir()
    (export / "mine" / "f.txt").write_text("x\n")
    for args in (("--force",), ()):
        result = build(built, *args)
        assert result.exit_code == 3, result.output
        assert result.stderr == (
            f"error: {export / 'NOTES.txt'} is not a file ladders wrote (1 more beside it): the next build "
            f"replaces {export} whole; move it out of that folder first\n"
        )
    assert (export / "NOTES.txt").read_text() == "my notes\n" and (export / "mine" / "f.txt").read_text() == "x\n"
    (export / "NOTES.txt").unlink()
    (export / "mine" / "f.txt").unlink()
    (export / "mine").rmdir()
    assert build(built, "--force").exit_code == 0


def test_export_sql_replaces_only_a_dump(built, tmp_path):
    """`--out` overwrote any file (pyproject.toml, a word list), and the target of a link, with exit 0."""
    precious = tmp_path / "precious.txt"
    precious.write_text("precious\n")
    link = tmp_path / "link.sql"
    link.symlink_to(precious)
    config = ["--config", str(built / "config.toml")]
    for target in (precious, link):
        result = invoke("export-sql", "--out", str(target), *config)
        assert result.exit_code == 2, result.output
        assert (
            result.stderr
            == f"error: --out {target} exists and is not a dump ladders wrote; name a new file, or remove it first\n"
        )
    assert precious.read_text() == "precious\n" and link.is_symlink()
    dump = tmp_path / "dump.sql"
    for _ in range(2):  # a new file, then the dump it wrote is replaced
        assert invoke("export-sql", "--out", str(dump), *config).exit_code == 0
    assert dump.read_text().startswith("-- ladders export-sql:")


def test_a_users_file_in_the_built_web_folder_is_refused_and_kept(built):
    """`build --with web` swaps build/web in whole: its names are the transform's, so ladders' own are those
    the lock records; a file of the user's among them is refused by name and kept."""
    assert build(built, "--with", "web").exit_code == 0
    mine = built / "build" / "web" / "mine.txt"
    mine.write_text("mine\n")
    result = build(built, "--force", "--with", "web")
    assert result.exit_code == 3 and f"error: {mine} is not a file ladders wrote" in result.stderr
    assert mine.read_text() == "mine\n"


def test_a_users_file_where_the_export_folder_goes_is_refused_and_kept(built):
    """A file at build/export was moved to the hidden build/.export.new by the swap (exit 0), and every
    later build failed with `File exists` (exit 4)."""
    export = built / "build" / "export"
    for path in sorted(export.iterdir()):
        path.unlink()
    export.rmdir()
    export.write_text("my precious notes\n")
    for args in (("--force",), ()):
        result = build(built, *args)
        assert result.exit_code == 3 and result.stderr.startswith(f"error: {export} is a file"), result.output
    assert export.read_text() == "my precious notes\n" and not (built / "build" / ".export.new").exists()


@pytest.mark.parametrize("marker", ["", "{garbage", '{"written": [], "before": []}'])
def test_export_web_writes_over_no_file_a_record_does_not_name(built, tmp_path, marker):
    """With a marker present, export-web replaced a user's index.html and data/manifest.json (exit 0): the
    marker says the folder is ladders', not that every file in it is."""
    page = tmp_path / "site"
    (page / "data").mkdir(parents=True)
    (page / "index.html").write_text("MY PAGE")
    (page / "data/manifest.json").write_text("MY MANIFEST")
    (page / ".ladders-web").write_text(marker)
    result = invoke("export-web", str(page), "--config", str(built / "config.toml"))
    assert result.exit_code == 2 and "is not a file ladders wrote" in result.stderr, result.output
    assert (page / "index.html").read_text() == "MY PAGE" and (page / "data/manifest.json").read_text() == "MY MANIFEST"


def test_status_refuses_what_build_refuses(built, tmp_path):
    """With a link or a user's file in build/export, `status` said every stage was fresh (exit 0) while
    `build` refused the folder (exit 3)."""
    export = built / "build" / "export"
    for plant in (lambda: (export / "link").symlink_to(tmp_path), lambda: (export / "NOTES.txt").write_text("x")):
        plant()
        refused = build(built)
        status = invoke("status", "--config", str(built / "config.toml"))
        assert refused.exit_code == status.exit_code == 3 and status.stderr == refused.stderr, status.output
        for name in ("link", "NOTES.txt"):
            (export / name).unlink(missing_ok=True)
    assert invoke("status", "--config", str(built / "config.toml")).exit_code == 0
