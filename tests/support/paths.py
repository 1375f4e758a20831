"""Where the repository and the committed test data are: the one place that says it. Every test names
tests/data, tests/fixtures and tests/golden through these constants, whichever folder of tests/ it is in."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]  # the repository
TESTS = ROOT / "tests"
DATA = TESTS / "data"  # input lists, slices and judged samples (tests/data/README.md)
FIXTURES = TESTS / "fixtures"  # committed damaged exports (tests/fixtures/verify/README.md)
GOLDEN = TESTS / "golden"  # the golden build's inputs and approved copies
