"""`ladders puzzle`: start/end pairs whose shortest ladder is exactly N steps, with a difficulty.

A puzzle is drawn reproducibly from a seed: a start word of the asked length
in a group whose longest ladder (longest.parquet) has N steps or more, then, by
a breadth-first search in its group, an end word exactly N steps away. With `common`, both
the search and its ends keep to words labelled common, and the pair is kept
only when the whole group has no shorter ladder, so that at least one
shortest ladder is all common words. With `clean` ("on", the default, or "strict"), no word that
level refuses (solver.CLEAN_LEVELS) is stepped on or chosen; "off" allows every word.

Difficulty, from the shortest ladders of the pair (see `difficulty`): the
fewer the shortest ladders, the harder (a solver has fewer right moves), and
a pair whose every shortest ladder needs a word rarer than common is one
level harder still.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import polars as pl

from pipeline import io

from pipeline.artifact.contract import LONGEST_FILE, Col
from pipeline import progress
from pipeline.solve import search
from pipeline.solve.solver import Group, Ladders, SolveError, clean_level, group_column

LEVELS = ("easy", "medium", "hard", "fiendish")
ATTEMPTS = 50  # start words tried per puzzle asked for; fewer puzzles come back when these run out


@dataclass(frozen=True)
class Puzzle:
    start: str
    end: str
    steps: int
    ladders: int  # how many shortest ladders there are
    all_common: bool  # whether one of them keeps to words labelled common
    difficulty: str


def difficulty(ladders: int, all_common: bool) -> str:
    """easy with 20 or more shortest ladders, medium with 4 to 19, hard with 1 to 3; one level harder
    when no shortest ladder keeps to common words."""
    level = 0 if ladders >= 20 else 1 if ladders >= 4 else 2
    return LEVELS[level + (0 if all_common else 1)]


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
    clean: bool | str = "on",
    seed: int | None = None,
    count: int = 1,
) -> list[Puzzle]:
    clean = clean_level(clean)
    if steps < 1 or length < 1 or count < 1:
        raise SolveError("--length, --steps and --count must be at least 1")
    if lexicon not in ("csw", "owl"):
        raise SolveError(f"unknown lexicon {lexicon!r}: use csw or owl")
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
            if puzzle is not None and (puzzle.start, puzzle.end) not in found:
                found[puzzle.start, puzzle.end] = puzzle
                one_more()
    if not found:
        raise SolveError(
            f"no puzzle found: {ATTEMPTS * count} start words tried for {steps} steps between "
            f"{length}-letter words" + (" of common words" if common else "")
        )
    return list(found.values())


def _restricted(group: Group, allowed: list[bool]) -> list[list[int]]:
    """The group's links among the allowed words only."""
    return [[u for u in ns if allowed[u]] if allowed[v] else [] for v, ns in enumerate(group.adjacent)]


def _draw(group: Group, s: int, length: int, steps: int, common: bool, clean: str, rng: random.Random) -> Puzzle | None:
    """A puzzle from word s, or None when s has no fitting end word."""
    is_common = [label == "common" and group.refused(v, clean) is None for v, label in enumerate(group.labels)]
    if group.refused(s, clean) is not None or (common and not is_common[s]):
        return None
    full = group.links(clean)
    dist = search.distances(full, s)
    by_common = search.distances(_restricted(group, is_common), s)
    reach = by_common if common else dist
    ends = sorted(v for v, d in reach.items() if d == steps and len(group.words[v]) == length)
    if not ends:
        return None
    t = rng.choice(ends)
    if dist.get(t) != steps:
        return None  # a shorter ladder steps outside the common words: not a puzzle of this length
    counts, _ = search.bfs(full, s, t)
    all_common = by_common.get(t) == steps
    return Puzzle(group.words[s], group.words[t], steps, counts[t], all_common, difficulty(counts[t], all_common))
