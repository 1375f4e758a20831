"""The module docstring is the contract (docs/architecture.md): each stage's names every column it writes,
the export stage's the contract's schema_version, and a file a docstring cites exists."""

from __future__ import annotations

import re
import sys

import pytest
from support.paths import ROOT
from pipeline.columns import SCHEMA_VERSION, words_columns
from ladders.compose import stages as all_stages


# A schema with a column per lexicon is documented by its pattern: resolved for a lexicon named `<name>`
# with a file, an add-list and a remove-list, it gives in_<name>, list_<name>, add_<name>, ...
PATTERN = {"<name>": {"file": "list.txt", "add": "add.txt", "remove": "remove.txt"}}


def columns(stage) -> set[str]:
    names: set[str] = set()
    for out in stage.writes.values():
        for schema in [out.schema, *(out.members or {}).values()]:
            names |= set((schema(PATTERN) if callable(schema) else schema) or {})
    return names


@pytest.mark.parametrize("stage", all_stages(), ids=lambda s: s.name)
def test_each_stage_docstring_names_every_column_it_writes(stage):
    """words.parquet's columns are documented once, in the column table (its README table is tested
    in tests/unit/pipeline/test_columns.py): the export stage's docstring names the table instead of each column."""
    doc = sys.modules[stage.transform.__module__].__doc__
    documented = columns(stage)
    if "pipeline/columns.py WORDS" in doc:
        documented -= {name for name, _ in words_columns(("<name>",))}
    missing = sorted(c for c in documented if not re.search(rf"(?<![\w]){re.escape(c)}(?![\w])", doc))
    assert missing == []


def test_no_doc_gives_another_schema_version():
    """The number lives in pipeline/columns.py alone; a doc that writes it out writes the current one."""
    import stages.s07_export

    assert "columns.SCHEMA_VERSION" in stages.s07_export.__doc__
    assert set(re.findall(r"schema_version (\d+)", stages.s07_export.__doc__)) <= {str(SCHEMA_VERSION)}
    readme = (ROOT / "README.md").read_text()
    assert set(re.findall(r"`PRAGMA user_version` = (\d+)", readme)) <= {str(SCHEMA_VERSION)}
    architecture = (ROOT / "docs/architecture.md").read_text()
    assert set(re.findall(r"schema_version (\d+)", architecture)) <= {str(SCHEMA_VERSION)}


def test_every_module_path_a_docstring_cites_exists():
    cited = set()
    for path in [*ROOT.glob("pipeline/**/*.py"), *ROOT.glob("stages/*.py")]:
        text = path.read_text()
        cited |= {(path.name, c) for c in re.findall(r"(?<![\w/])((?:pipeline|stages)/[\w/]+\.(?:py|toml))", text)}
    assert cited and [c for c in sorted(cited) if not (ROOT / c[1]).exists()] == []
