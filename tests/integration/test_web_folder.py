"""Issue 25: `ladders export-web` writes its folder without following links, a file at a time atomically.

A web folder is often shared (a server's document root), and a link planted in
it could make ladders overwrite the link's target or remove what it points at.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from ladders.cli import app

cli = CliRunner()


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    from conftest import copy_tiny

    root = copy_tiny(tmp_path_factory.mktemp("web"))
    built = cli.invoke(app, ["build", "--quiet", "--config", str(root / "config.toml")])
    assert built.exit_code == 0, built.output
    return root / "build/export"


def web(export, folder):
    return cli.invoke(app, ["export-web", str(folder), "--export", str(export)])


def test_a_link_planted_at_a_files_name_is_refused_and_its_target_untouched(export, tmp_path):
    page = tmp_path / "page"
    assert web(export, page).exit_code == 0
    victim = tmp_path / "victim.txt"
    victim.write_text("not ladders' to write\n")
    (page / "app.js").unlink()
    (page / "app.js").symlink_to(victim)
    result = web(export, page)
    assert result.exit_code == 2
    assert result.stderr == (
        f"error: {page / 'app.js'} is a symbolic link in the page folder; ladders neither "
        "writes through links nor removes them: remove it and run again\n"
    )
    assert victim.read_text() == "not ladders' to write\n"
    assert (page / "app.js").is_symlink()


def test_a_linked_data_folder_is_refused_by_name_and_what_it_holds_kept(export, tmp_path):
    page = tmp_path / "page"
    assert web(export, page).exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    (page / "data").rename(elsewhere)  # the data of a first export, now behind a link
    (page / "data").symlink_to(elsewhere)
    before = sorted(p.name for p in elsewhere.rglob("*"))
    result = web(export, page)
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert f"error: {page / 'data'} is a symbolic link in the page folder" in result.stderr
    assert sorted(p.name for p in elsewhere.rglob("*")) == before
    nested = tmp_path / "nested"
    assert web(export, nested).exit_code == 0
    shard = min((nested / "data/defs").glob("*.json"))  # a definitions file the next export writes again
    shard.unlink()
    shard.symlink_to(tmp_path / "victim2")
    again = web(export, nested)
    assert again.exit_code == 2 and f"{shard} is a symbolic link" in again.stderr
    assert not (tmp_path / "victim2").exists()


def test_a_rewrite_replaces_files_by_rename(export, tmp_path):
    page = tmp_path / "page"
    assert web(export, page).exit_code == 0
    before = {p: p.stat().st_ino for p in page.rglob("*") if p.is_file()}
    reader = open(page / "data/manifest.json", "rb")  # a web server sending the old file meanwhile
    (page / "data/defs/99.json").write_text("[]")  # a file ladders did not write: kept (issue 38)
    assert web(export, page).exit_code == 0
    after = {p: p.stat().st_ino for p in page.rglob("*") if p.is_file()}
    assert set(after) == set(before) | {page / "data/defs/99.json"}
    # every file a new inode: renamed over, never rewritten
    assert all(after[p] != before[p] for p in before)
    assert json.loads(reader.read())["buckets"]  # the open reader still reads the whole old file
    reader.close()
    assert not list(page.rglob("*.tmp"))


def test_a_link_planted_after_the_check_is_not_followed(export, tmp_path, monkeypatch):
    """A race: the folder is clean when checked, and a link to elsewhere replaces data/defs while the
    data is being made. The write must fail naming it, and write nothing where it points."""
    import ladders.artifact.webexport as webexport

    page = tmp_path / "page"
    assert web(export, page).exit_code == 0
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "0.json").write_text("theirs")
    made = webexport.web_files

    def plant_then_make(folder):
        import shutil

        shutil.rmtree(page / "data/defs")
        (page / "data/defs").symlink_to(elsewhere)
        return made(folder)

    monkeypatch.setattr(webexport, "web_files", plant_then_make)
    result = web(export, page)
    assert result.exit_code == 2, result.output
    assert f"{page / 'data/defs'} is a symbolic link in the page folder" in result.stderr
    assert sorted(p.name for p in elsewhere.iterdir()) == ["0.json"] and (elsewhere / "0.json").read_text() == "theirs"


def test_a_hard_link_or_fifo_at_the_temporary_name_is_passed_over(export, tmp_path, monkeypatch):
    """The temporary file was `.NAME.<pid>.tmp`, opened without O_EXCL: a hard link planted there made
    ladders write into the linked file, a FIFO made it hang. Now the name is random and must be new; a FIFO in the folder is refused up front."""
    import os
    import secrets

    page = tmp_path / "page"
    assert web(export, page).exit_code == 0
    victim = tmp_path / "victim.conf"
    victim.write_text("SECRET\n")
    os.link(victim, page / ".index.html.aaaa.tmp")
    os.link(victim, page / f".index.html.{os.getpid()}.tmp")  # the old name (CliRunner runs in this process)
    names = iter(["aaaa", "bbbb"] * 1000)
    monkeypatch.setattr(secrets, "token_hex", lambda n: next(names))
    assert web(export, page).exit_code == 0
    assert victim.read_text() == "SECRET\n" and victim.stat().st_nlink == 3
    assert (page / "index.html").read_text().lower().startswith("<!doctype html")
    # A FIFO is no file ladders wrote: refused by name (the rule of every folder ladders owns), never opened.
    os.mkfifo(page / ".app.js.aaaa.tmp")
    refused = web(export, page)
    assert refused.exit_code == 2 and "not a regular file (a FIFO, socket or device)" in refused.stderr


def test_a_folder_swapped_for_a_link_while_the_page_is_made_is_not_written(export, tmp_path, monkeypatch):
    """The folder was checked by name, then, seconds later (making the data), opened following links: a
    folder swapped for a link meanwhile had its target's files overwritten and removed."""
    from ladders.artifact import webexport

    page, moved, victim = tmp_path / "page", tmp_path / "page.real", tmp_path / "victim"
    assert web(export, page).exit_code == 0
    (victim / "data").mkdir(parents=True)
    (victim / "data/thesis.txt").write_text("precious\n")
    made = webexport.web_files

    def swap_while_making(folder):
        files = made(folder)
        page.rename(moved)
        page.symlink_to(victim)
        return files

    monkeypatch.setattr(webexport, "web_files", swap_while_making)
    done = web(export, page)
    assert done.exit_code == 2 and "holds files ladders did not write" in done.output
    assert (victim / "data/thesis.txt").read_text() == "precious\n" and sorted(victim.rglob("*")) == [
        victim / "data",
        victim / "data/thesis.txt",
    ]
