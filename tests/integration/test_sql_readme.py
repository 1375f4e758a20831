"""The README's MySQL block, run line by line as written (`make sql-up`, a query through the socket, the PHP
solver from the command line and over HTTP, `make sql-down`) on the session's build of raw/: only the build
folder (`build/`) and the port (8042) are named otherwise, so that the test touches no folder of the
checkout and no port another program may hold."""

from __future__ import annotations

import json
import re
import socket
import subprocess

import pytest
from support.paths import ROOT

pytestmark = pytest.mark.sql


def readme_sql_block() -> list[str]:
    """The command lines of the README's ```sh block that starts with `make sql-up`, comments cut."""
    text = (ROOT / "README.md").read_text()
    block = next(b for b in re.findall(r"```sh\n(.*?)```", text, re.S) if b.startswith("make sql-up"))
    return [re.sub(r"\s+#.*$", "", line).strip() for line in block.splitlines() if line.strip()]


def test_the_readmes_mysql_block_runs_as_written(raw_build, tmp_path):
    lines = readme_sql_block()
    assert [line.split()[0] for line in lines] == ["make", "mariadb", "php", "curl", "make"]
    # A short folder of its own (a unix socket's path is at most 107 bytes), holding the session's export.
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "export").symlink_to(raw_build / "export")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = str(s.getsockname()[1])

    def run(line: str) -> subprocess.CompletedProcess:
        line = line.replace("build/", f"{folder}/").replace("8042", port)
        if line.startswith("make "):
            line += f" BUILD_DIR={folder} SQL_PORT={port}"
        return subprocess.run(line, shell=True, cwd=ROOT, capture_output=True, text=True, timeout=600)

    up = run(lines[0])
    try:
        assert up.returncode == 0, up.stderr
        queried = run(lines[1])
        assert queried.returncode == 0 and "COLD" in queried.stdout, queried.stderr
        cli = run(lines[2])
        assert cli.returncode == 0, cli.stdout + cli.stderr
        http = run(lines[3])
        assert http.returncode == 0, http.stderr
        answered = [json.loads(cli.stdout), json.loads(http.stdout)]
        for answer in answered:
            assert answer["from"] == "COLD" and answer["to"] == "WARM" and answer["shortest"]["steps"] == 4
        assert answered[0] == answered[1] or answered[0]["shortest"]["ties"] > 1
    finally:
        down = run(lines[4])
    assert down.returncode == 0, down.stderr
    assert not (folder / "mariadb" / "mysqld.sock").exists()
