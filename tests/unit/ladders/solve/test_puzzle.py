"""`ladders puzzle --daily [DATE]` is the web page's puzzle of that date (issue 42, item 24): play.js's own
rule, run in node, picks the same puzzle as the Python side on many dates; --show-par prints a par ladder.
And puzzle drawing checks each group word's flags once per group, not once per draw (item 7)."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess

import pytest
from typer.testing import CliRunner

from support import brute
from ladders.cli import app
from ladders.solve import puzzle as puzzle_module
from ladders.solve.group import Group
from ladders.solve.puzzle import daily, puzzles
from ladders.solve.solver import Ladders
from support.paths import ROOT

cli = CliRunner()
PLAY = ROOT / "ladders/web/play.js"
DATES = ["2026-01-01", "2026-11-23", "2027-02-28", "2028-02-29", "2031-12-31", "1999-07-04", "2026-06-15"]


def play_js_picks(page: list[dict], dates: list[str]) -> list[dict]:
    """play.js's daily pick, its own source run in node: the dayIndex function and the daily pool's filter."""
    source = PLAY.read_text()
    day_index = re.search(r"function dayIndex\(date, n\) \{.*?\n\}", source, re.S)[0]
    pool = re.search(r"if \(date\) \{\s*pool = (list\.filter\([^;]*\));", source)[1]
    script = (
        f"{day_index}\nconst list = {json.dumps(page)};\nconst pool = {pool};\n"
        f"console.log(JSON.stringify({json.dumps(dates)}.map((d) => pool[dayIndex(d, pool.length)])));"
    )
    return json.loads(subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True).stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs play.js's rule")
def test_the_daily_pick_agrees_with_the_pages(tmp_path):
    rng = random.Random(4)
    for size in (1, 7, 50, 333):
        page = [
            {
                "start": f"S{n}",
                "end": f"E{n}",
                "length": rng.randint(3, 6),
                "steps": rng.randint(3, 6),
                "difficulty": "easy",
            }
            for n in range(size)
        ]
        if not any(p["length"] >= 4 and p["steps"] >= 4 for p in page):
            continue
        dates = DATES + [f"20{rng.randint(10, 40)}-{rng.randint(1, 12):02}-{rng.randint(1, 28):02}" for _ in range(20)]
        assert [daily(page, d) for d in dates] == play_js_picks(page, dates)


@pytest.fixture(scope="module")
def chain(tmp_path_factory):
    """An export whose everyday words make puzzles of 4 letters and 4 to 6 steps."""
    from support.exports import write_export

    words = ["COLD", "CORD", "WORD", "WARD", "WARM", "WART", "WANT", "PANT", "CARD", "CART", "PART", "PANE", "PINE"]
    export = write_export(tmp_path_factory.mktemp("chain") / "export", words, words, {w: 10 for w in words})
    return export, words


def test_daily_is_the_pages_puzzle_of_the_date_with_its_par(chain):
    from ladders.artifact.webexport import page_puzzles

    export, words = chain
    page = page_puzzles(export)
    adjacent = {w: {v for v in words if sum(a != b for a, b in zip(v, w)) == 1} for w in words}
    for date in DATES:
        result = cli.invoke(app, ["puzzle", "--daily", date, "--show-par", "--json", "--export", str(export)])
        assert result.exit_code == 0, result.output
        got = json.loads(result.stdout)
        assert {k: v for k, v in got.items() if k not in ("date", "par")} == daily(page, date) and got["date"] == date
        par = got["par"]
        assert (par[0], par[-1], len(par) - 1) == (got["start"], got["end"], got["steps"])
        assert all(b in adjacent[a] for a, b in zip(par, par[1:]))
        assert brute.distances(adjacent, par[0])[par[-1]] == got["steps"]
    text = cli.invoke(app, ["puzzle", "--daily", DATES[0], "--show-par", "--export", str(export)]).stdout
    assert text.startswith(f"Puzzle of {DATES[0]}: ") and "\n  par: " in text


@pytest.mark.parametrize(
    "args", [["--daily", "2026-02-30"], ["--daily", "tomorrow"], ["2026-01-01"], ["--daily", "--length", "5"]]
)
def test_daily_refusals_are_usage_errors(chain, args):
    result = cli.invoke(app, ["puzzle", *args, "--export", str(chain[0])])
    assert result.exit_code == 2 and result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1


def test_show_par_prints_a_par_ladder_of_each_puzzle(chain):
    export, words = chain
    result = cli.invoke(
        app,
        [
            "puzzle",
            "--length",
            "4",
            "--steps",
            "4",
            "--count",
            "3",
            "--seed",
            "2",
            "--show-par",
            "--json",
            "--export",
            str(export),
        ],
    )
    assert result.exit_code == 0, result.output
    for p in json.loads(result.stdout)["puzzles"]:
        assert len(p["par"]) == p["steps"] + 1 and (p["par"][0], p["par"][-1]) == (p["start"], p["end"])


def test_drawing_checks_each_words_flags_once_per_group_not_per_draw(chain, monkeypatch):
    export, _ = chain
    calls, draws = [0], [0]
    refused, draw = Group.refused, puzzle_module._draw

    def counted_refused(self, v, clean):
        calls[0] += 1
        return refused(self, v, clean)

    def counted_draw(*args):
        draws[0] += 1
        return draw(*args)

    monkeypatch.setattr(Group, "refused", counted_refused)
    monkeypatch.setattr(puzzle_module, "_draw", counted_draw)
    ladders = Ladders.open(export)
    for seed in range(10):
        puzzles(ladders, 4, 4, common=True, seed=seed, count=3)
    size = len(ladders.group("group_csw", ladders.check("cold", "warm", "csw", False)[0]["group_csw"]).words)
    # Each draw checks its start word; the group's words are checked once per clean level: the old drawing
    # checked every word of the group again on each draw (size + 1 calls a draw).
    assert draws[0] > 10 and calls[0] <= 2 * draws[0] + 2 * size
