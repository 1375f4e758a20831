"""`ladders build --with sql,web`: the MySQL dump and the web folder as targets of the build (ladders/targets.py):
written as export-sql and export-web write them, rebuilt only when the export changed, and a kill while
they are written leaves the old ones intact."""

from __future__ import annotations

import json
import shutil
import signal
from pathlib import Path

import pytest

from conftest import copy_tiny, snapshot
from ladders.artifact.sqldump import mysql_dump
from ladders.artifact.webexport import web_files
from pipeline.execute import FAULT_ENV
from pipeline.runner import LOCK_FILE
from test_faults import ladders, start, wait_for


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = copy_tiny(tmp_path_factory.mktemp("targets"))
    done = ladders("build", "--quiet", "--with", "sql,web", "--config", str(root / "config.toml"))
    assert done.returncode == 0, done.stderr
    return root


@pytest.fixture
def site(built, tmp_path) -> Path:
    copy = tmp_path / "tiny"
    shutil.copytree(built, copy)
    return copy


def test_build_with_writes_the_dump_and_the_page_as_the_shortcuts_do(built):
    build = built / "build"
    assert (build / "ladder-mysql.sql").read_text() == "".join(mysql_dump(build / "export"))
    assert snapshot(build / "web") == snapshot_of(web_files(build / "export"))
    record = json.loads((build / LOCK_FILE).read_text())
    assert {"sql", "web"} <= record.keys()


def snapshot_of(files: dict[str, bytes]) -> dict[str, str]:
    import hashlib

    return {name: hashlib.sha256(data).hexdigest() for name, data in sorted(files.items())}


def test_a_second_build_is_a_no_op_and_a_changed_export_rebuilds_them(site):
    config = str(site / "config.toml")
    again = ladders("build", "--with", "sql,web", "--config", config)
    assert again.returncode == 0, again.stderr
    lines = [line for line in again.stderr.splitlines() if line[:1].isdigit()]
    assert len(lines) == 10 and all(line.endswith("skipped") for line in lines), again.stderr
    dump, page = (site / "build/ladder-mysql.sql").read_bytes(), snapshot(site / "build/web")
    with (site / "csw.txt").open("a") as f:
        f.write("COLT\n")
    changed = ladders("build", "--with", "sql,web", "--config", config)
    assert changed.returncode == 0, changed.stderr
    ran = {line.split()[1] for line in changed.stderr.splitlines() if line[:1].isdigit() and line.endswith("ran")}
    assert {"export", "sql", "web"} <= ran, changed.stderr
    assert b"'colt'" in (site / "build/ladder-mysql.sql").read_bytes().lower() != dump
    assert snapshot(site / "build/web") != page
    assert snapshot(site / "build/web") == snapshot_of(web_files(site / "build/export"))


def test_a_build_without_with_leaves_them_alone(site):
    dump, page = (site / "build/ladder-mysql.sql").read_bytes(), snapshot(site / "build/web")
    with (site / "csw.txt").open("a") as f:
        f.write("COLT\n")
    assert ladders("build", "--quiet", "--config", str(site / "config.toml")).returncode == 0
    assert (site / "build/ladder-mysql.sql").read_bytes() == dump and snapshot(site / "build/web") == page


def test_an_unknown_target_is_a_usage_error(site):
    done = ladders("build", "--with", "sql,pdf", "--config", str(site / "config.toml"))
    assert done.returncode == 2 and "no build target 'pdf'" in done.stderr and len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("point", ["transform", "write"])
@pytest.mark.parametrize("target", ["sql", "web"])
def test_a_kill_while_a_target_is_written_leaves_the_old_one(site, target, point):
    config = str(site / "config.toml")
    dump, page = (site / "build/ladder-mysql.sql").read_bytes(), snapshot(site / "build/web")
    lock_before = json.loads((site / "build" / LOCK_FILE).read_text())
    with (site / "csw.txt").open("a") as f:
        f.write("COLT\n")
    proc = start("build", "--with", "sql,web", "--jobs", "1", "--config", config, env={FAULT_ENV: f"{target}:{point}"})
    wait_for(proc, f"fault point {target}:{point}")
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    # The dump is one file renamed into place: killed after that rename (at "write", before its lock record)
    # it is the new dump whole, never a part; the page is a folder swapped in after its "write" point. With
    # --jobs 1 the dump (8) is finished when the page (9) is killed.
    fresh = "".join(mysql_dump(site / "build/export")).encode()
    assert (site / "build/ladder-mysql.sql").read_bytes() == (
        dump if (target, point) == ("sql", "transform") else fresh
    )
    assert snapshot(site / "build/web") == page
    assert json.loads((site / "build" / LOCK_FILE).read_text())[target] == lock_before[target]
    finished = ladders("build", "--quiet", "--with", "sql,web", "--config", config)
    assert finished.returncode == 0, finished.stderr
    assert (site / "build/ladder-mysql.sql").read_bytes() != dump and snapshot(site / "build/web") != page
    assert not [
        p.name
        for p in (site / "build").iterdir()
        if p.name.startswith(".") and p.name.endswith((".old", ".new", ".tmp"))
    ]
