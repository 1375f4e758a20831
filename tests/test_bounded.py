"""Issue 38: right answers or one-line refusals, bounded in time and memory, whatever is typed or found.

- one rule for a typed word in the three solvers (here `ladders solve`; the PHP solver in test_sql.py, the
  page in test_web.py): ASCII whitespace around it dropped, a-z folded to A-Z, anything else refused;
- a damaged ladder.sqlite (a rareness below 1, a NULL group) is refused, never searched for ever;
- long-running commands are bounded: `solve --all --limit`, `puzzle --count`, suggestions for a long word;
- a reader that goes away (`| head -1`) ends the command quietly with 141, as a shell reports SIGPIPE;
  a short write to stdout (`ulimit -f`) is exit 4, never 0 with the output cut;
- stage 6 stops within its passes over the graph on a grid-like list, in one line.
Each test failed on the code before. Items 13 and 14 (memory limits, failures in one line):
test_one_line_failures.py.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from conftest import ROOT, copy_tiny, invoke


def solve(export: Path, *args: str):
    return invoke("solve", *args, "--export", str(export))


# ---- item 10: one normalisation rule ---------------------------------------------------------------


@pytest.mark.parametrize(
    "a, b, shown",
    [
        ("\ufb01re", "file", "'\ufb01re'"),  # solved FIRE -> FILE ("\ufb01".upper() == "FI")
        ("\u0131nk", "ink", "'\u0131nk'"),  # said "the same word" ("\u0131".upper() == "I")
        ("cold\u00a0", "cord", "'cold\\xa0'"),  # a no-break space is not a space or a tab
        ("COLD\u200b", "cord", "'COLD\\u200b'"),
    ],
)
def test_solve_refuses_what_is_not_a_z_after_the_one_rule(tiny_export, a, b, shown):
    result = solve(tiny_export, a, b)
    assert result.exit_code == 10 and result.stderr == f"error: {shown} is not a word of letters A-Z\n"


def test_spaces_and_tabs_around_a_word_and_lower_case_are_the_rule(tiny_export):
    assert solve(tiny_export, " cold\t", "Cord").exit_code == 0


# ---- item 12: a damaged ladder.sqlite is refused, never searched for ever --------------------------


@pytest.mark.parametrize(
    "damage, message",
    [
        ("UPDATE words SET rareness = -5 WHERE word = 'CORD'", "CORD has rareness -5 (declared u32)"),
        ("UPDATE words SET rareness = 0 WHERE word = 'COLD'", "COLD has rareness 0 (rareness is a whole number"),
        ("UPDATE words SET group_csw = NULL WHERE word = 'CORD'", "CORD is in CSW but its group_csw is None"),
    ],
)
def test_a_damaged_rareness_or_group_is_refused(tiny_export, tmp_path, damage, message):
    """A negative rareness made the common-word search spin for ever."""
    export = tmp_path / "export"
    shutil.copytree(tiny_export, export)
    with sqlite3.connect(export / "ladder.sqlite") as con:
        con.execute(damage)
    con.close()
    child = subprocess.run(
        [sys.executable, "-m", "pipeline", "solve", "COLD", "CORD", "--export", str(export)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert child.returncode == 3, child.stderr
    assert child.stderr.startswith(f"error: {export / 'ladder.sqlite'} is damaged: ") and message in child.stderr
    assert len(child.stderr.splitlines()) == 1


# ---- item 6: a short write is an error, a reader gone is quiet -------------------------------------


def ladders(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pipeline", *args], cwd=ROOT, stderr=subprocess.PIPE, **kw)


def test_a_short_write_to_stdout_is_exit_4(tiny_export, tmp_path):
    """Under `ulimit -f`, `export-sql --out - > f` exited 0 with the dump cut at the limit."""
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))

    with open(tmp_path / "dump.sql", "wb") as out:
        child = ladders("export-sql", "--out", "-", "--export", str(tiny_export), stdout=out, preexec_fn=limit)
        _, err = child.communicate(timeout=60)
    assert child.returncode == 4
    assert err.decode().startswith("error: File too large: standard output; the file size limit (ulimit -f) is 4,096")
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "cold", "cord"],
        ["solve", "--all", "cat", "dog"],
        ["export-sql", "--out", "-"],
        ["solve", "--json", "cat", "dog"],
    ],
)
def test_a_reader_gone_ends_the_command_quietly_with_141(tiny_export, args):
    """`solve ... | head -1` exited 1 ("a check failed"); `solve --all ... | head -1` said "error: Broken
    pipe" with exit 4. Now nothing is said and the status is 141 (128 + SIGPIPE), as a shell reports."""
    child = ladders(*args, "--export", str(tiny_export), stdout=subprocess.PIPE)
    child.stdout.close()  # the reader is gone before the first line
    assert child.wait(timeout=60) == 141
    assert child.stderr.read() == b""


def test_export_sql_out_names_a_file_in_a_folder_that_exists(tiny_export, tmp_path):
    """`--out <a folder>` named a temporary file in its error; `--out /nonexistent/dir/x.sql` made the
    folders silently."""
    folder = invoke("export-sql", "--out", str(tmp_path), "--export", str(tiny_export))
    assert (
        folder.exit_code == 2
        and folder.stderr == f"error: --out {tmp_path} is a folder: name a file (or - for stdout)\n"
    )
    missing = tmp_path / "no" / "such" / "x.sql"
    result = invoke("export-sql", "--out", str(missing), "--export", str(tiny_export))
    assert result.exit_code == 4 and result.stderr == f"error: No such file or directory: {missing}; check the path\n"
    assert not (tmp_path / "no").exists()


# ---- item 12: every long-running command bounded ----------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (
            ["solve", "--all", "cat", "dog", "--limit", "100000000"],
            "error: --limit 100,000,000 is more than 10,000, the most it takes: each ladder listed is held in "
            "memory; --count-only counts them all\n",
        ),
        (
            ["puzzle", "--length", "3", "--steps", "3", "--count", "100000"],
            "error: --count 100,000 is more than 20, the most it takes: each puzzle tries up to 50 start words\n",
        ),
    ],
)
def test_a_number_that_would_run_away_is_refused_in_one_line(tiny_export, args, message):
    """`solve --all --limit 100000000` grew to 6.4 GB in 60 s on raw/; `puzzle --count 100000` ran past 120 s."""
    result = invoke(*args, "--export", str(tiny_export))
    assert result.exit_code == 2 and result.stderr == message
    assert invoke(*args[:-1], "10000" if "--limit" in args else "20", "--export", str(tiny_export)).exit_code == 0


def test_suggestions_for_a_long_word_look_one_edit_away(tiny_export, monkeypatch):
    """A 66-letter unknown word's second ring of edits took 7.8 s and 1 GB: beyond 15 letters, one ring."""
    from ladders.solve import question, solver

    ladders = solver.Ladders.open(tiny_export)
    long_word = "ABCDEFGHIJKLMNOPQRSTUVWXYZ" * 2 + "ABCDEFGHIJKLMN"  # 66 letters
    monkeypatch.setattr(ladders, "listed", lambda lexicon: {long_word[:-1] + "Q": 1, "COLD": 1})
    calls = []
    edits = question._edits
    monkeypatch.setattr(question, "_edits", lambda w: calls.append(w) or edits(w))
    assert ladders.suggestions(long_word[:-2] + "XX") == []  # two edits away: not looked for
    assert len(calls) == 1
    assert ladders.suggestions(long_word[:-1] + "X") == [long_word[:-1] + "Q"]
    assert ladders.suggestions("CXLX") == ["COLD"]  # short words: two edits away still


# ---- item 11: stage 6 bounded by the graph's size, whatever its shape ----------------------------------


def grid(letters: int) -> list[str]:
    """Every word over A and B of that many letters: each word's farthest word is `letters` steps away,
    so the eccentricity bounds meet only after a search from nearly every word."""
    import itertools

    return ["".join(p) for p in itertools.product("AB", repeat=letters)]


def test_stage_6_stops_within_its_passes_on_a_grid_like_list(monkeypatch):
    """All 2^13 A/B words of 13 letters took 42 s (129 s on a loaded machine), 2^14 141 s: 8,193 waves, each
    a search over the whole group. Now at most MAX_PASSES passes over the graph, then one line saying so."""
    import numpy as np

    import stages.s06_analysis as s6
    from stages.s05_groups import components
    from stages.s04_links import build_links
    from conftest import lexicon_of

    words = grid(9)
    lex = lexicon_of(words, words)
    links = build_links(lex)["links"].filter(pl.col("kind") == "sub")
    src, dst = links["src"].to_numpy().astype(np.int64), links["dst"].to_numpy().astype(np.int64)
    n = len(words)
    indptr, indices = s6.csr(n, src, dst)
    group = components(n, src, dst).astype(np.int64)
    visited = []
    real = s6.bfs

    def counted(*args):
        dist = real(*args)
        visited.append(int(np.count_nonzero(dist >= 0)))
        return dist

    monkeypatch.setattr(s6, "bfs", counted)
    with pytest.raises(s6.TooHard):
        s6.diameters(indptr, indices, group, max_passes=20)
    assert sum(visited) <= 21 * n  # nodes visited: within the passes allowed (and one more wave)
    visited.clear()
    diameter, first, _ = s6.diameters(indptr, indices, group, max_passes=n + 2)  # enough: exact
    assert diameter.tolist() == [9] and first.tolist() == [0]


def test_a_build_of_a_grid_like_list_ends_in_one_line(tmp_path):
    from conftest import tiny_config

    root = copy_tiny(tmp_path)
    (root / "grid.txt").write_text("\n".join(grid(10)) + "\n")
    # no everyday lexicon: a grid of A/B words has none, and an empty lexicon is an error of its own
    config = tiny_config(csw="grid.txt", owl="grid.txt") + 'build_dir = "build"\n[lexicons]\neveryday = false\n'
    (root / "config.toml").write_text(config)
    child = subprocess.run(
        [sys.executable, "-m", "pipeline", "build", "--quiet", "--config", str(root / "config.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert child.returncode == 2, child.stderr
    last = child.stderr.splitlines()[-1]
    assert last.startswith(
        "error: stage 6 cannot settle the longest ladder of the csw/sub group of AAAAAAAAAA (1,024 words): it is 10 to"
    )
