"""The export's column and file names are spelled once, in the column table pipeline/columns.py (`Col`, `*_FILE`).

Any other module that writes one of them as a string literal would miss a rename; this scans every
Python module of the project (tests aside) for such literals, so that the rule holds without review.
A line whose string only happens to spell a column name (a config key, a stat field) says so with the
comment `# not a column`, which a reviewer can see and question."""

from __future__ import annotations

import ast
from pathlib import Path

from pipeline.columns import FILES, Col
from support.paths import ROOT

CONTRACT = ROOT / "pipeline" / "columns.py"
NAMES = {value for key, value in vars(Col).items() if not key.startswith("_")} | set(FILES)
MARKER = "# not a column"


def project_modules() -> list[Path]:
    return sorted(
        p
        for folder in ("pipeline", "stages", "ladders", "bench", "scripts")
        for p in (ROOT / folder).rglob("*.py")
        if p != CONTRACT
    )


def column_literals(source: str) -> list[tuple[int, str]]:
    """(line, name) of every string constant equal to an export column or file name; docstrings are prose."""
    tree, lines = ast.parse(source), source.splitlines()
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value in NAMES
        and id(node) not in docstrings
        and MARKER not in lines[node.lineno - 1]
    ]


def test_the_scan_sees_a_literal_and_skips_a_docstring():
    found = column_literals(
        '"""word"""\ndef f():\n    """rareness"""\n    return pl.col("word"), Col.word, "words", "words.parquet"\n'
        f'KEYS = ("offensive", "csw")  {MARKER}: input files\n'
    )
    assert sorted(found) == [(4, "word"), (4, "words.parquet")]


def test_no_module_outside_the_contract_names_an_export_column_or_file_by_string():
    modules = project_modules()
    assert len(modules) > 20 and ROOT / "stages" / "s07_export.py" in modules
    offenders = [
        f"{p.relative_to(ROOT)}:{line}: {name!r}" for p in modules for line, name in column_literals(p.read_text())
    ]
    assert not offenders, (
        f"{len(offenders)} literals; write Col.<name> or the contract's *_FILE instead:\n" + "\n".join(offenders)
    )
