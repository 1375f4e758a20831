"""The MySQL dump of a build whose default lexicon everyday ended empty (issue 42, item 8; `make test-sql`):
it loads, its table `words` has no everyday column and `ladder_groups` no everyday row, and the PHP solver
answers over csw. The build itself: tests/integration/test_empty_default_lexicon.py."""

from __future__ import annotations

import json

import pytest

from conftest import build, copy_tiny
from support.mariadb import load, php, sql
from test_empty_default_lexicon import LADDER, made_up_words

pytestmark = pytest.mark.sql


def test_a_dump_without_the_empty_default_lexicon_loads_and_the_php_solver_answers(server, tmp_path):
    tiny = copy_tiny(tmp_path)
    made_up_words(tiny)
    assert build(tiny).exit_code == 0
    load(server, "made_up", tiny / "build/export", tmp_path)
    columns = sql(
        server,
        "made_up",
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'made_up' AND table_name = 'words'",
    )
    assert "group_csw" in columns.stdout and "everyday" not in columns.stdout
    lexicons = sql(server, "made_up", "SELECT DISTINCT lexicon FROM ladder_groups ORDER BY lexicon").stdout.split()
    assert lexicons == ["csw", "owl"]
    solved = php(server, "made_up", LADDER[0], LADDER[-1])
    assert solved.returncode == 0, solved.stderr
    assert [w["word"] for w in json.loads(solved.stdout)["shortest"]["words"]] == list(LADDER)
    refused = php(server, "made_up", "--lexicon=everyday", LADDER[0], LADDER[-1])
    assert refused.returncode == 2 and b"everyday" in refused.stdout + refused.stderr
