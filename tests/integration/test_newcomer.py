"""A newcomer's session: ladders installed without -e, run in a folder that holds only a ladders.toml.

The package is built from a copy of the tracked files (as a clone has them) and
installed by pip (not editable) into a folder of its own; its
dependencies come from the test's environment. Nothing may be looked up in the
checkout: the defaults ship inside the package, and the config is found from
the current folder upwards.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import tiny_config
from support.paths import DATA, ROOT


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    # A copy of the committed tree, as a fresh clone has it: pip builds in the source folder
    # (setuptools writes build/ and *.egg-info there), and the checkout must not gain them.
    source = tmp_path_factory.mktemp("clone")
    tracked = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    for name in filter(None, tracked.decode().split("\0")):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    target = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(source),
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path_factory.getbasetemp(),
    )
    (target / "pip-output.txt").write_text(done.stdout + done.stderr)
    return target


def test_pip_installs_without_a_packaging_warning(installed):
    """pyproject declares every package and its data: setuptools names none it would otherwise leave out."""
    output = (installed / "pip-output.txt").read_text()
    assert "Successfully installed ladders" in output
    assert "Warning" not in output and "absent from the `packages` configuration" not in output
    assert {p.name for p in (installed / "ladders/web").iterdir()} >= {"index.html", "app.js", "style.css"}


def ladders(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(site)},
    )


def test_build_solve_and_config_from_a_folder_holding_only_ladders_toml(installed, tmp_path):
    project = tmp_path / "my dictionary"
    (project / "deeper").mkdir(parents=True)
    (project / "ladders.toml").write_text(
        tiny_config(DATA / "tiny") + "[rareness_by_level]\n35 = 3\n"
    )  # one level changed alone; the rest stay the defaults
    located = subprocess.run(
        [sys.executable, "-c", "import pipeline; print(pipeline.__file__)"],
        cwd=project,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(installed)},
    )
    assert located.stdout.startswith(str(installed)), located.stdout
    built = ladders(installed, project / "deeper", "build", "--quiet")  # found from a sub-folder, upwards
    assert built.returncode == 0, built.stderr
    assert (project / "build" / "export" / "words.parquet").is_file()
    assert not any(installed.rglob("build"))  # nothing written inside the installed package
    solved = ladders(installed, project, "solve", "cat", "dog", "--json")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["shortest"]["steps"] == 3
    shown = json.loads(ladders(installed, project, "config", "--json").stdout)
    assert shown["rareness_by_level"]["value"]["35"] == 3 and shown["rareness_by_level"]["value"]["40"] == 20
    assert shown["csw"]["from"] == str(project / "ladders.toml")
    assert shown["definition_sources"]["from"] == "built-in defaults"
    version = ladders(installed, project, "--version")
    assert version.returncode == 0 and version.stdout.startswith("ladders ")
