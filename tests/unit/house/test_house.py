"""The rooms and the arrows between them (docs/architecture.md), held against every import in the code.

- pipeline/ (the engine) imports neither stages/ nor ladders/ (the product); pipeline/columns.py, the
  column table, imports nothing of the project at all. pipeline/__main__.py is only the launcher of
  `python -m pipeline` and is read as part of the product.
- stages/ imports the engine only: no product module, and no numbered stage another one.
- Outside stages/, one module imports stages/: ladders/compose.py, which hands the stages to the engine.
- tests/, bench/ and scripts/ take from stages/ only public names (no `_private` helper).
- No module of the code, tests, scripts or page over 400 lines, no Python function over 80 (bench/ excepted).
Imports are read from the source (every `import` and `from ... import`, inside functions too), so an
import hidden in a function counts as much as one at the top."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from support.paths import ROOT

COMPOSITION = "ladders/compose.py"


def imports(path: Path) -> list[tuple[str, tuple[str, ...]]]:
    """(module, names) of every import in a file: `import a.b` gives ("a.b", ()), `from a import b, c`
    gives ("a", ("b", "c")); relative imports are resolved against the file's package."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, ()) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                package = path.relative_to(ROOT).parent.parts[
                    : len(path.relative_to(ROOT).parent.parts) - node.level + 1
                ]
                module = ".".join([*package, module] if module else package)
            found.append((module, tuple(alias.name for alias in node.names)))
    return found


def modules(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def top(module: str) -> str:
    return module.split(".")[0]


def rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_engine_imports_no_stage_and_no_product_code():
    wrong = [
        f"{rel(p)}: {m}"
        for p in modules("pipeline")
        if p.name != "__main__.py"
        for m, _ in imports(p)
        if top(m) in ("stages", "ladders")
    ]
    assert not wrong, wrong


def test_the_column_table_is_a_leaf():
    project = {"pipeline", "stages", "ladders"}
    assert not [m for m, _ in imports(ROOT / "pipeline/columns.py") if top(m) in project]


def test_stages_import_the_engine_only_and_no_stage_another():
    wrong = []
    for p in modules("stages"):
        for m, names in imports(p):
            if top(m) == "ladders":
                wrong.append(f"{rel(p)}: {m}")
            numbered = [m] + [f"{m}.{n}" for n in names]
            if any(part.startswith("stages.s0") for part in numbered) and not rel(p).startswith(
                f"{m.replace('.', '/')}"
            ):
                wrong.append(f"{rel(p)}: {m} {names}")
    assert not wrong, wrong


def test_one_module_outside_stages_imports_stages():
    importers = {rel(p) for p in modules("pipeline", "ladders") for m, _ in imports(p) if top(m) == "stages"}
    assert importers == {COMPOSITION}


def test_tests_bench_and_scripts_take_only_public_names_from_stages():
    wrong = [
        f"{rel(p)}: {m} {names}"
        for p in modules("tests", "bench", "scripts")
        for m, names in imports(p)
        if top(m) == "stages" and any(n.startswith("_") for n in names)
    ]
    assert not wrong, wrong


@pytest.mark.parametrize("module", ["pipeline.runner", "pipeline.config", "pipeline.registry", "pipeline.columns"])
def test_importing_the_engine_loads_no_solver_web_or_stage_code(module):
    """A fresh interpreter: the engine's modules bring in nothing of ladders/ or stages/."""
    code = f"import sys, {module}\nprint(sorted(m for m in sys.modules if m.split('.')[0] in ('ladders', 'stages')))"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_the_checks_can_fire(tmp_path):
    """The reader of imports sees an import inside a function, and a relative one."""
    sample = ROOT / "pipeline" / "_house_probe.py"
    try:
        sample.write_text("def f():\n    from ladders.solve import solver\n\nfrom . import columns\n")
        found = imports(sample)
    finally:
        sample.unlink()
    assert ("ladders.solve", ("solver",)) in found and ("pipeline", ("columns",)) in found


# The size limits: a module a reader can hold (400 lines), a function one screen (80 lines, from
# `def` to its end). bench/ is excepted: a benchmark reads best as one long list of measurements.
MAX_MODULE_LINES, MAX_FUNCTION_LINES = 400, 80
SIZED = ("pipeline", "stages", "ladders", "scripts", "tests", "solvers")


def sized_files(root: Path = ROOT) -> list[Path]:
    return sorted(p for folder in SIZED for p in (root / folder).rglob("*") if p.suffix in (".py", ".js", ".php"))


def long_modules(files: list[Path]) -> dict[str, int]:
    return {p.name: n for p in files if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES}


def long_functions(files: list[Path]) -> dict[str, int]:
    return {
        f"{p.name}:{node.lineno} {node.name}": length
        for p in files
        if p.suffix == ".py"
        for node in ast.walk(ast.parse(p.read_text()))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and (length := node.end_lineno - node.lineno + 1) > MAX_FUNCTION_LINES
    }


def test_no_module_over_400_lines_and_no_function_over_80():
    files = sized_files()
    assert len(files) > 100
    modules, functions = long_modules(files), long_functions(files)
    assert not modules, f"modules over {MAX_MODULE_LINES} lines (split them by job): {modules}"
    assert not functions, f"functions over {MAX_FUNCTION_LINES} lines (name their steps): {functions}"


def test_the_size_checks_can_fire(tmp_path):
    long = tmp_path / "long.py"
    long.write_text("def f():\n" + "    x = 1\n" * MAX_FUNCTION_LINES + "\n" * (MAX_MODULE_LINES - MAX_FUNCTION_LINES))
    assert long_modules([long]) == {"long.py": MAX_MODULE_LINES + 1}
    assert long_functions([long]) == {"long.py:1 f": MAX_FUNCTION_LINES + 1}
    script = tmp_path / "page.js"
    script.write_text("x;\n" * (MAX_MODULE_LINES + 1))
    assert long_modules([script]) == {"page.js": MAX_MODULE_LINES + 1}
