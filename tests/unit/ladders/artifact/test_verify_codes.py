"""The table of `ladders verify`'s codes in docs/architecture.md is the one verify defines. Verify against a
tampered build: tests/integration/test_verify.py; each code's committed damaged export:
tests/unit/ladders/artifact/test_verify_fixtures.py."""

from __future__ import annotations


def test_the_docs_list_every_code_as_verify_defines_it():
    from support.paths import ROOT

    from ladders.artifact.verify import code_table

    assert code_table() in (ROOT / "docs" / "architecture.md").read_text(), (
        "docs/architecture.md's table of verify codes differs from CHECKS: paste "
        "`python -c 'from ladders.artifact.verify import code_table; print(code_table())'`"
    )
