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

from conftest import copy_tiny, invoke
from support.paths import ROOT


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
    monkeypatch.setattr(question, "_edits", lambda w, *letters: calls.append(w) or edits(w, *letters))
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


def _sub_graph(words: list[str]):
    """(indptr, indices, group) of the sub links among `words`."""
    import numpy as np

    import stages.s06_analysis as s6
    from stages.s05_groups import components
    from stages.s04_links import build_links
    from conftest import lexicon_of

    lex = lexicon_of(words, words)
    links = build_links(lex)["links"].filter(pl.col("kind") == "sub")
    src, dst = links["src"].to_numpy().astype(np.int64), links["dst"].to_numpy().astype(np.int64)
    indptr, indices = s6.csr(len(words), src, dst)
    return indptr, indices, components(len(words), src, dst).astype(np.int64)


def _eccentricities(indptr, indices) -> list[int]:
    """Every node's eccentricity in its group, by a plain BFS from each node (the oracle)."""
    from collections import deque

    out = []
    for source in range(len(indptr) - 1):
        dist, todo = {source: 0}, deque([source])
        while todo:
            v = todo.popleft()
            for w in indices[indptr[v] : indptr[v + 1]].tolist():
                if w not in dist:
                    dist[w] = dist[v] + 1
                    todo.append(w)
        out.append(max(dist.values()))
    return out


def _check_against_brute_force(words: list[str]) -> None:
    import numpy as np

    import stages.s06_analysis as s6

    indptr, indices, group = _sub_graph(words)
    diameter, first, _ = s6.diameters(indptr, indices, group)  # the default bound: no TooHard
    ecc = np.array(_eccentricities(indptr, indices))
    for g in range(int(group.max()) + 1):
        members = np.flatnonzero(group == g)
        assert diameter[g] == ecc[members].max()
        assert first[g] == members[ecc[members] == diameter[g]][0]


def test_stage_6_settles_a_grid_of_1000_words_that_all_look_alike():
    """1,000 words AAA + three letters of A-J: every word is 3 steps from its farthest, so the bounds meet
    only after a search from every word; each takes microseconds. The bound of passes over the graph
    refused it ("hours, not seconds"); the bound on the group's work does not."""
    import itertools

    _check_against_brute_force(["AAA" + "".join(p) for p in itertools.product("ABCDEFGHIJ", repeat=3)])


def test_stage_6_settles_a_random_list_over_few_letters():
    """Random words over 16 letters form a large group whose bounds meet slowly (a 50,000-word list: a
    group of 14,201 words, 5,173 searches, refused on passes; here 6,000 words, a group of over 1,000)."""
    import random

    rng = random.Random(1)
    words: set[str] = set()
    while len(words) < 6000:
        words.add("".join(rng.choice("ABCDEFGHIJKLMNOP") for _ in range(rng.choice([3, 4, 5]))))
    _check_against_brute_force(sorted(words))


def test_stage_6_stops_within_its_work_bound_on_a_grid_like_list(monkeypatch):
    """All 2^14 A/B words of 14 letters need a search from nearly every word: 4.3e9 visits. Past the bound
    on the work, one line saying so; the work done stays within the bound and one more wave."""
    import numpy as np

    import stages.s06_analysis as s6

    words = grid(9)
    indptr, indices, group = _sub_graph(words)
    n = len(words)
    visited = []
    real = s6.bfs

    def counted(*args):
        dist = real(*args)
        visited.append(int(np.count_nonzero(dist >= 0)))
        return dist

    monkeypatch.setattr(s6, "bfs", counted)
    wave = 2 * n + len(indices)  # the bounds kept and one search over the whole group
    with pytest.raises(s6.TooHard) as refused:
        s6.diameters(indptr, indices, group, work_limit=20 * wave)
    assert len(visited) <= 21  # within the work allowed (and one more wave)
    assert refused.value.details["work"] <= 21 * wave and refused.value.details["waves"] == len(visited)
    visited.clear()
    diameter, first, _ = s6.diameters(indptr, indices, group, work_limit=(n + 2) * wave)  # enough: exact
    assert diameter.tolist() == [9] and first.tolist() == [0]


def test_a_build_of_a_grid_like_list_ends_in_one_line(tmp_path, monkeypatch):
    """A group past the bound (here the bound made small, rather than a build of minutes) ends the build in
    one line that says the numbers: the group, its bounds, the searches and work done, the work to come."""
    from conftest import tiny_config

    import stages.s06_analysis as s6

    monkeypatch.setattr(s6, "WORK_LIMIT", 1_000_000)
    root = copy_tiny(tmp_path)
    (root / "grid.txt").write_text("\n".join(grid(10)) + "\n")
    # no everyday lexicon: a grid of A/B words has none, and an empty lexicon is an error of its own
    config = tiny_config(csw="grid.txt", owl="grid.txt") + 'build_dir = "build"\n[lexicons]\neveryday = false\n'
    (root / "config.toml").write_text(config)
    result = invoke("build", "--quiet", "--config", str(root / "config.toml"))
    assert result.exit_code == 2, result.stderr
    last = result.stderr.splitlines()[-1]
    assert last.startswith(
        "error: stage 6 cannot settle the longest ladder of the csw/sub group of AAAAAAAAAA (1,024 words, "
        "5,120 links): it is 10 to"
    )
    assert (
        "nodes and links visited, the most this stage allows" in last
        and f"{1024 * (2 * 1024 + 2 * 5120):,} visits" in last
    )
