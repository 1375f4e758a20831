"""The tests' own layout (docs/architecture.md, "House rules"): two tiers, every test module in tests/unit/ or
tests/integration/; the unit tier asks for no build (none of conftest's fixtures that build the tiny lists or
raw/ through the CLI, nor the MariaDB server or the browser); and tests/support/paths.py is the one place that
says where the repository, tests/data, tests/fixtures and tests/golden are (no other module of tests/ finds them
from its own `__file__` or spells the folder)."""

from __future__ import annotations

import ast
from pathlib import Path

from support.paths import TESTS

# conftest.py's fixtures that build (or start a server or a browser): the integration tier's.
BUILDING = {"tiny", "tiny_runner", "tiny_export", "raw_build", "raw_export", "raw_words", "server", "browser", "site"}
TIERS = ("unit", "integration")


def misplaced(tests: Path) -> list[str]:
    """Test modules outside the two tiers."""
    return sorted(
        str(p.relative_to(tests)) for p in tests.rglob("test_*.py") if p.relative_to(tests).parts[0] not in TIERS
    )


def building_units(tests: Path) -> list[str]:
    """Unit tests that take a fixture that builds (conftest's: a module's own fixture of the same name, such as
    an export written in memory, is its own), or carry the sql or web marker."""
    found = []
    for path in sorted((tests / "unit").rglob("test_*.py")):
        tree = ast.parse(path.read_text())
        own = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and "fixture" in ast.unparse(n)[:200]}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                asked = {a.arg for a in node.args.args} & BUILDING - own
                found += [f"{path.name}::{node.name} takes {name}" for name in sorted(asked)]
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ("sql", "web")
                and ast.unparse(node).startswith("pytest.mark.")
            ):
                found.append(f"{path.name}: pytest.mark.{node.attr}")
    return sorted(found)


def own_paths(tests: Path) -> list[str]:
    """Modules of tests/ but support/paths.py that find the repository or a data folder themselves: `__file__`,
    or a path joined from a literal that starts at tests/."""
    found = []
    for path in sorted(tests.rglob("*.py")):
        if path.relative_to(tests).as_posix() == "support/paths.py":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id == "__file__":
                found.append(f"{path.name}:{node.lineno} __file__")
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
                for side in (node.left, node.right):
                    text = side.value if isinstance(side, ast.Constant) and isinstance(side.value, str) else ""
                    if Path(text).parts[:1] == ("tests",):
                        found.append(f"{path.name}:{node.lineno} {text!r}")
    return sorted(found)


def test_every_test_module_is_in_a_tier():
    assert misplaced(TESTS) == []


def test_the_unit_tier_builds_nothing():
    assert building_units(TESTS) == []


def test_only_support_paths_says_where_the_data_is():
    assert own_paths(TESTS) == []


def test_the_checks_can_fire(tmp_path):
    """Each check finds a planted case (a check that finds nothing on any tree would pass for nothing)."""
    (tmp_path / "unit").mkdir()
    (tmp_path / "test_flat.py").write_text("")
    (tmp_path / "unit/test_built.py").write_text(
        "import pytest\n\n\n@pytest.fixture\ndef tiny(tmp_path):\n    return tmp_path\n\n\n"
        "@pytest.mark.sql\ndef test_x(tiny_export, tiny):\n    pass\n"
    )
    (tmp_path / "unit/test_own.py").write_text(
        'from pathlib import Path\n\nA = Path(__file__).parent / "data"\nB = ROOT / "tests/golden/x"\n'
    )
    assert misplaced(tmp_path) == ["test_flat.py"]
    assert building_units(tmp_path) == ["test_built.py: pytest.mark.sql", "test_built.py::test_x takes tiny_export"]
    assert own_paths(tmp_path) == ["test_own.py:3 __file__", "test_own.py:4 'tests/golden/x'"]
