"""Every `ladders verify` code has a committed export that breaks its invariant and hides the rest.

The exports come from scripts/make_verify_fixtures.py (tests/fixtures/verify/README.md
says what each one damaged). The codes each must report are written here, from
the damage, not read back from the script: a check that stops seeing its
damage, or starts firing on another's, fails this test.
"""

from __future__ import annotations


import pytest
from typer.testing import CliRunner

from ladders.cli import app
from ladders.artifact.verify import CHECKS, verify
from support import paths

FIXTURES = paths.FIXTURES / "verify"
EXPECTED = {
    "good": set(),
    "E001": {"E001"},
    "E002": {"E002"},
    "E003": {"E003"},
    "E004": {"E004"},
    "E005": {"E005"},
    "E006": {"E006"},
    "E101": {"E101", "E108"},  # a one-sided list is also one word short
    "E102": {"E102", "E108"},  # a word listing itself has one link more than the words give
    "E103": {"E103"},
    "E104": {"E104"},
    "E105": {"E105"},
    "E106": {"E106"},
    "E107": {"E107"},
    "E108": {"E108"},
    "E109": {"E109"},
    "E201": {"E201", "E204"},  # a group that is not connected has no pair at its "diameter"
    "E202": {"E202"},
    "E203": {"E203"},
    "E204": {"E204"},
    "E301": {"E301"},
    "E401": {"E401"},
    "E501": {"E501"},
    "E502": {"E502"},
}


def test_every_check_has_a_fixture_and_every_fixture_an_expectation():
    assert {code for code, _ in CHECKS} == set(EXPECTED) - {"good"}
    assert {p.name for p in FIXTURES.iterdir() if p.is_dir()} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_reports_exactly_its_damage(name):
    assert {code for code, _, _ in verify(FIXTURES / name)} == EXPECTED[name]


def test_cli_names_the_code_and_exits_1():
    result = CliRunner().invoke(app, ["verify", str(FIXTURES / "E104")])
    assert result.exit_code == 1
    assert result.stdout.startswith("E104 a `links` pair is not one substitution apart")
