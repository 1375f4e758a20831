"""The judged ladder panel (ladders/artifact/panel.py, tests/data/ladder_panel.tsv) that `make audit` prints."""

from __future__ import annotations

import re

import polars as pl
from support.paths import ROOT
from ladders.artifact.panel import KINDS, PANEL, read_panel, report

MAIN_LISTS = re.compile(r"^(english|american|british|british_z|canadian|australian)-words\.(\d\d)$")


def test_the_panel_is_80_everyday_pairs_judged_whole():
    """80 pairs of 3-6 letters (the puzzle books' 40 and issue 44's 40), each with both ladders judged; both
    ends in a SCOWL main list at 35 or below (everyday), read from raw/ itself; a refused ladder names its
    rung."""
    panel = read_panel()
    pairs = panel["pair"].unique()
    assert pairs.len() == 80 and panel.height == 160
    assert panel.group_by("pair").agg(pl.col("kind").sort()).filter(pl.col("kind") != sorted(KINDS)).height == 0
    everyday = set()
    for path in (ROOT / "raw" / "scowl").iterdir():
        m = MAIN_LISTS.match(path.name)
        if m and int(m[2]) <= 35:
            everyday |= set(path.read_text(encoding="utf-8", errors="replace").upper().split())
    for pair in pairs:
        start, end = pair.split("-")
        assert 3 <= len(start) == len(end) <= 6 and {start, end} <= everyday, pair
    for row in panel.rows(named=True):
        words = row["words"].split()
        assert (words[0], words[-1]) == tuple(row["pair"].split("-")) and len(words) - 1 == row["steps"]
        assert row["accept"] in ("yes", "no") and (row["accept"] == "yes") == (not row["reason"])
        if row["reason"]:
            assert re.match(r"[A-Z]+", row["reason"])[0] in words  # the refused rung is on the ladder


def test_report_counts_unchanged_ladders_and_lists_changed_ones():
    panel = pl.DataFrame(
        {
            "pair": ["CAT-DOG", "CAT-DOG", "COLD-WARM", "COLD-WARM"],
            "kind": ["shortest", "common", "shortest", "common"],
            "steps": [3, 3, 4, 4],
            "words": ["CAT COT DOT DOG", "CAT COT DOT DOG", "COLD WOLD WALD WARD WARM", "COLD CORD CARD WARD WARM"],
            "accept": ["yes", "yes", "no", "yes"],
            "reason": [None, None, "WOLD, WALD", None],
        }
    )
    now = {
        ("CAT-DOG", "shortest"): "CAT COT DOT DOG".split(),
        ("CAT-DOG", "common"): "CAT COT DOT DOG".split(),
        ("COLD-WARM", "shortest"): "COLD CORD CARD WARD WARM".split(),  # changed: judged again
        ("COLD-WARM", "common"): "COLD CORD CARD WARD WARM".split(),
    }
    text = report(panel, now)
    assert "shortest: a player accepts every rung in 1 of 1 judged ladders" in text
    assert "common: a player accepts every rung in 2 of 2 judged ladders" in text
    assert "common ladder as short as the shortest: 2 of 2 pairs" in text
    assert "COLD-WARM shortest: judged COLD WOLD WALD WARD WARM; now COLD CORD CARD WARD WARM" in text
    assert PANEL.name == "ladder_panel.tsv"
