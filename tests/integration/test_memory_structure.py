"""Structural facts behind a build's peak memory (issue 46, item 2; the figures are make bench's, never a
test's). A build runs its stages in one process, so a library one stage imports stays resident for every
stage after it: pyarrow's shared libraries are about 50 MiB of the resident set. Only the export (the SQLite
writer) needs pyarrow; the stages before it, where a cold build peaks, must not load it.
"""

from __future__ import annotations

import subprocess
import sys

from conftest import copy_tiny
from support.paths import ROOT

# Stages 0-6 of the tiny build, one at a time in this child process; then which heavy libraries it loaded.
BEFORE_EXPORT = """
import sys
from pipeline.config import load_config
from ladders.compose import runner

r = runner(load_config(sys.argv[1]), jobs=1)
for stage in r.stages:
    if stage.name == "export":  # not a column
        break
    r.run(stage)
print("pyarrow" in sys.modules)
"""


def test_no_stage_before_the_export_loads_pyarrow(tmp_path):
    tiny = copy_tiny(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", BEFORE_EXPORT, str(tiny / "config.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False"], "a stage before the export imported pyarrow"
