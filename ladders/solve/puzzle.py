"""`ladders puzzle`: start/end pairs whose shortest ladder is exactly N steps, with a difficulty.

A puzzle is drawn reproducibly from a seed: a start word of the asked length
in a group whose longest ladder (longest.parquet) has N steps or more, then, by
a breadth-first search in its group, an end word exactly N steps away. With `common`, both
the search and its ends keep to everyday words (labelled common), and the pair is kept
only when the whole group has no shorter ladder, so that at least one
shortest ladder (the par ladder) is all everyday words. With `clean` ("strict", the default: a
family game steps on no word flagged offensive or vulgar_sense; "on": offensive only), no word that
level refuses (question.CLEAN_LEVELS) is stepped on or chosen; "off" allows every word.

With `moves`, another lexicon of the export (answers from everyday, moves from csw, as a daily puzzle
keeps a small answer list apart from a large list of accepted words): the start, the end and the par
(`steps`) still come from `lexicon`'s groups, a pair is kept only when `moves` holds both words in one
group, and `moves_steps` says how short a ladder the moves' words allow (at most `steps` when `lexicon`'s
words are all `moves`' words, as everyday's are csw's).

Difficulty is calibrated on what a player faces (see `difficulty`): `odds`, the
odds per rung that a player who at each rung picks uniformly among the words
one letter away reaches the end word in par steps (the whole walk's chance, to
the power 1/par, so that longer puzzles are not harder by that alone). It
counts both how many par ladders there are and how much branching lies on the
way: every wrong turn a rung offers lowers it. The words considered are the
everyday clean ones when a par ladder keeps to them, else every clean word,
and a pair whose every par ladder needs a word beyond everyday is one level
harder. The cut-offs are the quartiles of `odds` over 303 common puzzles of
raw/ (3-6 letters, 3-6 steps, 20 of each where there are): 0.2, 0.14, 0.1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import polars as pl

from pipeline import io
from pipeline.columns import LONGEST_FILE, Col
from pipeline import progress
from ladders.solve import search
from ladders.solve.group import Group
from ladders.solve.question import SolveError, clean_level
from ladders.solve.solver import Ladders, group_column

LEVELS = ("easy", "medium", "hard", "fiendish")
# Lower bounds of `odds` for easy, medium and hard (below the last: fiendish): the quartiles over raw/'s
# common puzzles, so that about a quarter of them fall at each level.
ODDS_CUTOFFS = (0.2, 0.14, 0.1)
ATTEMPTS = 50  # start words tried per puzzle asked for; fewer puzzles come back when these run out


@dataclass(frozen=True)
class Puzzle:
    start: str
    end: str
    steps: int
    ladders: int  # how many shortest ladders there are
    all_common: bool  # whether one of them keeps to everyday words (labelled common)
    difficulty: str
    odds: float = 1.0  # a guessing player's odds per rung of finding a par ladder (see `difficulty`)
    moves_steps: int | None = None  # with another lexicon's moves: its shortest ladder between the two


def chance(adjacent: list[list[int]], s: int, t: int, steps: int) -> float:
    """The probability that a walk from s, taking at each word one of its `adjacent` words uniformly at
    random, stands on t after `steps` steps: how likely a player who guesses is to find a par ladder."""
    here = {s: 1.0}
    for _ in range(steps):
        there: dict[int, float] = {}
        for v, p in here.items():
            for u in adjacent[v]:
                there[u] = there.get(u, 0.0) + p / len(adjacent[v])
        here = there
    return here.get(t, 0.0)


def difficulty(odds: float, all_common: bool) -> str:
    """easy, medium, hard or fiendish by `odds` (per rung) against ODDS_CUTOFFS; one level harder
    (fiendish at most) when no par ladder keeps to everyday words."""
    level = next((n for n, low in enumerate(ODDS_CUTOFFS) if odds >= low), len(ODDS_CUTOFFS))
    return LEVELS[min(level + (0 if all_common else 1), len(LEVELS) - 1)]


def _longest_table(ladders: Ladders, lexicon: str, edit: bool) -> pl.DataFrame:
    return io.read_export_table(ladders.folder / LONGEST_FILE).filter(
        (pl.col(Col.lexicon) == lexicon) & (pl.col(Col.mode) == ("edit" if edit else "sub"))
    )


def puzzles(
    ladders: Ladders,
    length: int,
    steps: int,
    lexicon: str = "csw",
    edit: bool = False,
    common: bool = False,
    clean: bool | str = "strict",
    seed: int | None = None,
    count: int = 1,
    moves: str | None = None,
) -> list[Puzzle]:
    clean = clean_level(clean)
    if steps < 1 or length < 1 or count < 1:
        raise SolveError("--length, --steps and --count must be at least 1")
    ladders.known_lexicon(lexicon)
    moves = None if moves in (None, lexicon) else ladders.known_lexicon(moves)
    table = _longest_table(ladders, lexicon, edit)
    same = table.filter(pl.col(Col.length) == length).sort(Col.diameter, Col.group_id, descending=[True, False])
    if edit:  # a mixed-length group may still hold two words of this length that far apart
        same = table.filter(pl.col(Col.length).is_null() | (pl.col(Col.length) == length))
    if not same.height or same[Col.diameter].max() < steps:
        best = same.row(0, named=True) if same.height and not edit else None
        said = (
            f"the longest is {best[Col.diameter]} ({best[Col.start]} to {best[Col.end]})"
            if best
            else "there is none that long"
        )
        raise SolveError(f"no {lexicon.upper()} ladder of {steps} steps between {length}-letter words: {said}")
    column = group_column(lexicon, edit)
    deep = same.filter(pl.col(Col.diameter) >= steps)[Col.group_id]  # only these groups hold such a pair
    starts = ladders.starts(lexicon, length, column, deep.to_list())
    rng = random.Random(seed)
    found: dict[tuple[str, str], Puzzle] = {}
    with progress.counter(count, "puzzles") as one_more:
        for _ in range(ATTEMPTS * count):
            if len(found) >= count or not starts:
                break
            word, group_id = rng.choice(starts)
            group = ladders.group(column, group_id)
            puzzle = _draw(group, group.index[word], length, steps, common, clean, rng)
            if puzzle is not None and moves is not None:
                puzzle = _with_moves(ladders, puzzle, moves, edit, clean)
            if puzzle is not None and (puzzle.start, puzzle.end) not in found:
                found[puzzle.start, puzzle.end] = puzzle
                one_more()
    if not found:
        raise SolveError(
            f"no puzzle found: {ATTEMPTS * count} start words tried for {steps} steps between "
            f"{length}-letter words" + (" of common words" if common else "")
        )
    return list(found.values())


def _with_moves(ladders: Ladders, puzzle: Puzzle, moves: str, edit: bool, clean: str) -> Puzzle | None:
    """The puzzle with the shortest ladder through `moves`' words, or None when `moves` does not join its ends."""
    from dataclasses import replace

    try:
        a, _ = ladders.check(puzzle.start, puzzle.end, moves, edit)
    except SolveError:
        return None
    group = ladders.group(group_column(moves, edit), a[group_column(moves, edit)])
    s, t = group.index[puzzle.start], group.index[puzzle.end]
    if group.refused(s, clean) is not None or group.refused(t, clean) is not None:
        return None
    steps = search.distances(group.links(clean), s).get(t)
    return None if steps is None else replace(puzzle, moves_steps=steps)


def _draw(group: Group, s: int, length: int, steps: int, common: bool, clean: str, rng: random.Random) -> Puzzle | None:
    """A puzzle from word s, or None when s has no fitting end word."""
    is_common, everyday = group.everyday(clean)  # once per group and level, not per draw (issue 42, item 7)
    if group.refused(s, clean) is not None or (common and not is_common[s]):
        return None
    full = group.links(clean)
    dist = search.distances(full, s, within=steps)  # a puzzle needs its start's words up to `steps` away only
    by_common = search.distances(everyday, s, within=steps)
    reach = by_common if common else dist
    ends = sorted(v for v, d in reach.items() if d == steps and len(group.words[v]) == length)
    if not ends:
        return None
    t = rng.choice(ends)
    if dist.get(t) != steps:
        return None  # a shorter ladder steps outside the common words: not a puzzle of this length
    counts, _ = search.bfs(full, s, t)
    all_common = by_common.get(t) == steps
    odds = round(chance(everyday if all_common else full, s, t, steps) ** (1 / steps), 4)
    return Puzzle(
        group.words[s], group.words[t], steps, counts[t], all_common, difficulty(odds, all_common), round(odds, 6)
    )


# The page's daily puzzle (ladders/web/play.js, newPuzzle): among the puzzles export-web draws for the page
# (webexport's, in their order), those of at least these letters and steps; of them, the one at FNV-1a of
# the date (YYYY-MM-DD, UTC) modulo their count. tests/unit/ladders/solve/test_puzzle.py runs play.js's rule in node and
# holds the two to the same pick.
DAILY_AT_LEAST = {"length": 4, "steps": 4}  # not a column: the page's puzzles' keys


def day_index(date: str, n: int) -> int:
    """play.js's dayIndex: 32-bit FNV-1a of the date's characters, modulo n."""
    h = 2166136261
    for c in date:
        h = ((h ^ ord(c)) * 16777619) & 0xFFFFFFFF
    return h % n


def daily(page: list[dict], date: str) -> dict:
    """The page's puzzle of `date` among `page`, the page's puzzles ({start, end, length, steps, difficulty})."""
    pool = [p for p in page if all(p[key] >= least for key, least in DAILY_AT_LEAST.items())]
    if not pool:
        least = " and ".join(f"{n} or more {key}" for key, n in DAILY_AT_LEAST.items())
        raise SolveError(f"no daily puzzle: this export has no puzzle of {least}")
    return pool[day_index(date, len(pool))]
