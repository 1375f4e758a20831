"""The lint gate: `make lint` is ruff check with pyproject.toml's rules and ruff format --check, and CI runs
it before the tests."""

from __future__ import annotations

import tomllib
from support.paths import ROOT


def test_ci_runs_lint_before_the_tests():
    steps = [line.strip() for line in (ROOT / ".ci/run").read_text().splitlines() if line.startswith("make ")]
    assert steps[:2] == ["make lint", "make test"]
    makefile = (ROOT / "Makefile").read_text()
    assert "\nlint: " in makefile and "$(BIN)/ruff check ." in makefile and "$(BIN)/ruff format --check ." in makefile


def test_ruff_is_configured_in_pyproject_and_installed_with_the_test_extras():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert any(dep.startswith("ruff") for dep in project["project"]["optional-dependencies"]["test"])
    lint = project["tool"]["ruff"]["lint"]
    assert {"E", "F", "C90"} <= set(lint["select"]) and lint["mccabe"]["max-complexity"] <= 15
