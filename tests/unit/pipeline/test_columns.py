"""The column table (pipeline/columns.py): every backend derives from it; the README's tables are its own.
That real floats and nullable integers come back unchanged from each backend, through a build:
tests/integration/test_columns_round_trip.py (tests/integration/test_sql.py loads the real dump into MariaDB)."""

from __future__ import annotations


import pytest

from pipeline.columns import (
    DTYPES,
    GROUPS_TABLE,
    LONGEST_TABLE,
    WORDS,
    readme_columns,
    readme_table,
    words_columns,
)

from support.paths import ROOT


def test_readme_table_is_the_column_table():
    readme = (ROOT / "README.md").read_text()
    assert readme_table() in readme, (
        "README.md's column table differs from pipeline/columns.py: paste the output of "
        "`python -c 'from pipeline.columns import readme_table; print(readme_table())'`"
    )


@pytest.mark.parametrize(
    ("file", "table", "rows"),
    [
        ("groups.parquet", GROUPS_TABLE, "one row per group"),
        ("longest.parquet", LONGEST_TABLE, "one row per group of two or more words"),
    ],
)
def test_readme_lists_the_group_files_columns_from_the_table(file, table, rows):
    row = f"| `{file}` | {rows}: {readme_columns(table)} |"
    assert row in (ROOT / "README.md").read_text().splitlines(), f"README.md's row of {file} should be:\n{row}"


def test_patterns_expand_per_lexicon_in_file_order():
    names = [name for name, _ in words_columns(("a", "b"))]
    assert names[names.index("in_a") : names.index("in_a") + 2] == ["in_a", "in_b"]
    groups = [n for n in names if n.startswith("group_")]
    assert groups == ["group_a", "group_b", "group_a_edit", "group_b_edit"]
    assert len(names) == len(set(names))


def test_every_column_declares_what_each_backend_needs():
    for column in WORDS:
        assert column.dtype in DTYPES and column.meaning and column.source and column.licence, column
        assert column.web in ("values", "positions", "links", "defs", "index", "")
        assert column.diff in ("value", "flag", "words", "groups", "links", "label", "text", "")
        assert bool(column.mysql) == (not column.dtype.startswith("list")), column  # lists: the links table
