"""The reference solver: ladders from build/export/ alone.

`Ladders.open(export_dir)` reads nothing until asked; each question loads only
the rows of the two words, then the one group they share (a filter pushed down
into words.parquet), and keeps a few groups cached for the next question.

Two answers, as good solvers give:
- shortest: fewest steps (breadth-first search);
- common: least sum of rareness over the ladder's words, and among equal
  sums fewer steps (Dijkstra on (sum, steps)).
Where several ladders tie, one is drawn uniformly at random among all of them
(by counting paths and walking back), reproducibly with a seed.

    >>> ladders = Ladders.open("build/export")
    >>> ladders.shortest("cold", "warm", seed=1).words   # one of the 7 four-step ladders
    ['COLD', 'WOLD', 'WALD', 'WARD', 'WARM']
    >>> ladders.common("cold", "warm").cost              # sum of rareness; SCOWL-common words cost 1
    7
"""
from __future__ import annotations

import heapq
import random
import string
from collections import OrderedDict, deque
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from pipeline.errors import PipelineError

CACHED_GROUPS = 8


class SolveError(PipelineError):
    """A question the solver refuses before searching; `exit_code` tells the CLI which kind."""

    exit_code = 1


class UnknownWord(SolveError):
    exit_code = 3


class LengthsDiffer(SolveError):
    exit_code = 4


class NoLadder(SolveError):
    exit_code = 5


class SameWord(SolveError):
    exit_code = 6


@dataclass(frozen=True)
class Rung:
    word: str
    rareness: int
    definition: str | None


@dataclass(frozen=True)
class Ladder:
    rungs: list[Rung]
    count: int  # how many ladders tie with this one (it was drawn among them)

    @property
    def words(self) -> list[str]:
        return [r.word for r in self.rungs]

    @property
    def steps(self) -> int:
        return len(self.rungs) - 1

    @property
    def cost(self) -> int:
        return sum(r.rareness for r in self.rungs)


@dataclass
class Group:
    """One group's words (local index 0..n-1) and its adjacency lists."""

    column: str
    group_id: int
    words: list[str]
    rareness: list[int]
    definitions: list[str | None]
    adjacent: list[list[int]]
    index: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.index = {w: i for i, w in enumerate(self.words)}

    def rungs(self, path: list[int]) -> list[Rung]:
        return [Rung(self.words[i], self.rareness[i], self.definitions[i]) for i in path]


def group_column(lexicon: str, edit: bool) -> str:
    return f"group_{lexicon}" + ("_edit" if edit else "")


class Ladders:
    def __init__(self, export_dir: Path):
        self.words_file = Path(export_dir) / "words.parquet"
        if not self.words_file.is_file():
            raise PipelineError(f"{self.words_file} does not exist; build the export first (make build)")
        self._groups: OrderedDict[tuple[str, int], Group] = OrderedDict()

    @classmethod
    def open(cls, export_dir: str | Path) -> Ladders:
        return cls(Path(export_dir))

    # ---- looking words up --------------------------------------------------------

    def _rows(self, words: list[str]) -> dict[str, dict]:
        rows = (pl.scan_parquet(self.words_file).filter(pl.col("word").is_in(words))
                .drop("links", "edit_links", "definition").collect())
        return {r["word"]: r for r in rows.iter_rows(named=True)}

    def suggestions(self, word: str, lexicon: str = "csw", limit: int = 5) -> list[str]:
        """Up to `limit` listed words nearest to `word`: one edit away, else two; commonest first."""
        flag = f"in_{lexicon}"
        listed = dict(pl.scan_parquet(self.words_file).filter(pl.col(flag)).select("word", "rareness")
                      .collect().iter_rows())
        if len(word) > max(map(len, listed), default=0) + 2:
            return []  # nothing listed is within two edits (and the second ring would be huge)
        ring = {word}
        for _ in range(2):
            ring = {v for w in ring for v in _edits(w)}
            near = sorted((listed[w], w) for w in ring if w in listed and w != word)
            if near:
                return [w for _, w in near[:limit]]
        return []

    def check(self, start: str, end: str, lexicon: str, edit: bool) -> tuple[dict, dict]:
        """The two words' rows, or the SolveError that says why no search is needed."""
        if lexicon not in ("csw", "owl"):
            raise SolveError(f"unknown lexicon {lexicon!r}: use csw or owl")
        start, end = normalise(start), normalise(end)
        rows = self._rows([start, end])
        for w in (start, end):
            row = rows.get(w)
            if row is None or not row[f"in_{lexicon}"]:
                near = self.suggestions(w, lexicon)
                hint = f"; did you mean {', '.join(near)}?" if near else ""
                raise UnknownWord(f"{_shown(w)} is not in the {lexicon.upper()} word list{hint}")
        a, b = rows[start], rows[end]
        if start == end:
            raise SameWord(f"{start} and {end} are the same word: a ladder needs two")
        if not edit and a["length"] != b["length"]:
            raise LengthsDiffer(f"{start} has {a['length']} letters and {end} has {b['length']}: "
                                "no ladder by changing letters; --edit also inserts and deletes letters")
        column = group_column(lexicon, edit)
        if a[column] != b[column]:
            sizes = self._group_sizes(column, [a[column], b[column]])
            raise NoLadder(f"no ladder: {start} (a group of {_words(sizes[a[column]])}) and {end} "
                           f"(a group of {_words(sizes[b[column]])}) are in different groups")
        return a, b

    def _group_sizes(self, column: str, ids: list[int]) -> dict[int, int]:
        counts = (pl.scan_parquet(self.words_file).filter(pl.col(column).is_in(ids))
                  .group_by(column).agg(pl.len()).collect())
        return dict(counts.iter_rows())

    def group(self, column: str, group_id: int) -> Group:
        key = (column, group_id)
        if key in self._groups:
            self._groups.move_to_end(key)
            return self._groups[key]
        lists = ["links", "edit_links"] if column.endswith("_edit") else ["links"]
        rows = (pl.scan_parquet(self.words_file).filter(pl.col(column) == group_id)
                .select("id", "word", "rareness", "definition", *lists).collect())
        local = {i: n for n, i in enumerate(rows["id"].to_list())}
        neighbours = rows.select(pl.concat_list(lists).alias("n"))["n"].to_list()
        # An OWL group's words may have CSW-only neighbours: those fall outside the group.
        adjacent = [[local[j] for j in ns if j in local] for ns in neighbours]
        group = Group(column, group_id, rows["word"].to_list(), rows["rareness"].to_list(),
                      rows["definition"].to_list(), adjacent)
        self._groups[key] = group
        if len(self._groups) > CACHED_GROUPS:
            self._groups.popitem(last=False)
        return group

    def _prepare(self, start: str, end: str, lexicon: str, edit: bool) -> tuple[Group, int, int]:
        a, b = self.check(start, end, lexicon, edit)
        group = self.group(group_column(lexicon, edit), a[group_column(lexicon, edit)])
        return group, group.index[a["word"]], group.index[b["word"]]

    # ---- the two searches ----------------------------------------------------------

    def shortest(self, start: str, end: str, lexicon: str = "csw", edit: bool = False,
                 seed: int | None = None) -> Ladder:
        group, s, t = self._prepare(start, end, lexicon, edit)
        counts, preds = _bfs(group.adjacent, s, t)
        return Ladder(group.rungs(_draw(preds, counts, t, random.Random(seed))), counts[t])

    def common(self, start: str, end: str, lexicon: str = "csw", edit: bool = False,
               seed: int | None = None) -> Ladder:
        group, s, t = self._prepare(start, end, lexicon, edit)
        counts, preds = _dijkstra(group.adjacent, group.rareness, s, t)
        return Ladder(group.rungs(_draw(preds, counts, t, random.Random(seed))), counts[t])

    def all_shortest(self, start: str, end: str, lexicon: str = "csw", edit: bool = False,
                     limit: int = 10) -> tuple[int, list[Ladder]]:
        """How many shortest ladders there are, and `limit` of them (a fixed choice: walked back from END in alphabetical order)."""
        group, s, t = self._prepare(start, end, lexicon, edit)
        counts, preds = _bfs(group.adjacent, s, t)
        found: list[list[int]] = []

        def walk(v: int, tail: list[int]) -> None:
            if len(found) >= limit:
                return
            if v == s:
                found.append([v] + tail)
                return
            for u in sorted(preds[v], key=lambda u: group.words[u]):
                walk(u, [v] + tail)

        walk(t, [])
        return counts[t], [Ladder(group.rungs(p), counts[t]) for p in found]


def _words(n: int) -> str:
    return f"{n:,} word" + ("" if n == 1 else "s")


def normalise(word: str) -> str:
    cleaned = word.strip().upper()
    if not cleaned:
        raise UnknownWord("an empty word is not a word")
    if not (cleaned.isascii() and cleaned.isalpha()):
        raise UnknownWord(f"{_shown(cleaned)!r} is not a word of letters A-Z")
    return cleaned


def _shown(word: str) -> str:
    return word if len(word) <= 40 else word[:40] + "..."


def _edits(word: str) -> set[str]:
    letters = string.ascii_uppercase
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return ({a + c + b[1:] for a, b in splits if b for c in letters}
            | {a + b[1:] for a, b in splits if b}
            | {a + c + b for a, b in splits for c in letters})


def _bfs(adjacent: list[list[int]], s: int, t: int) -> tuple[dict[int, int], dict[int, list[int]]]:
    """Shortest-path counts and predecessors from s, up to t's distance."""
    dist, counts, preds = {s: 0}, {s: 1}, {s: []}
    queue = deque([s])
    while queue:
        v = queue.popleft()
        if v == t or dist[v] >= dist.get(t, len(adjacent)):
            continue
        for u in adjacent[v]:
            if u not in dist:
                dist[u], counts[u], preds[u] = dist[v] + 1, 0, []
                queue.append(u)
            if dist[u] == dist[v] + 1:
                counts[u] += counts[v]
                preds[u].append(v)
    return counts, preds


def _dijkstra(adjacent: list[list[int]], weight: list[int], s: int, t: int
              ) -> tuple[dict[int, int], dict[int, list[int]]]:
    """Counts and predecessors of least-(rareness sum, steps) paths from s, until t is settled."""
    best = {s: (weight[s], 0)}
    counts, preds, done = {s: 1}, {s: []}, set()
    heap = [(weight[s], 0, s)]
    while heap:
        cost, steps, v = heapq.heappop(heap)
        if v in done or (cost, steps) != best[v]:
            continue
        done.add(v)
        if v == t:
            break
        for u in adjacent[v]:
            candidate = (cost + weight[u], steps + 1)
            if u not in best or candidate < best[u]:
                best[u], counts[u], preds[u] = candidate, counts[v], [v]
                heapq.heappush(heap, (*candidate, u))
            elif candidate == best[u] and u not in done:
                counts[u] += counts[v]
                preds[u].append(v)
    return counts, preds


def _draw(preds: dict[int, list[int]], counts: dict[int, int], t: int, rng: random.Random) -> list[int]:
    """One path back from t, uniform over all counted paths: step to a predecessor in proportion to its count."""
    path = [t]
    while preds[path[-1]]:
        options = preds[path[-1]]
        path.append(rng.choices(options, weights=[counts[u] for u in options])[0])
    return path[::-1]
