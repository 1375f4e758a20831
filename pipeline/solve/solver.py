"""The reference solver: ladders from build/export/ alone.

`Ladders.open(export_dir)` reads nothing until asked. The first question reads
the small columns (word, flags, groups) to look words up; each question then
loads only the one group its words share (a filter pushed down into
words.parquet, with the lists and definitions), and a few groups stay cached.

Two answers, as good solvers give:
- shortest: fewest steps (a bidirectional breadth-first search);
- common: least sum of rareness over the ladder's words, and among equal
  sums fewer steps (A* on (sum, steps); in a large group, Dijkstra in scipy).
With `clean=True` neither search steps on a word flagged offensive. Each rung
carries a rareness label (common / uncommon / rare / obscure) from its SCOWL
level, with the cut-offs the build's config named (manifest.json).
Where several ladders tie, one is drawn uniformly at random among all of them
(by counting paths and walking back), reproducibly with a seed.

    >>> ladders = Ladders.open("build/export")
    >>> ladders.shortest("cold", "warm", seed=1).words   # one of the 7 four-step ladders
    ['COLD', 'WOLD', 'WALD', 'WARD', 'WARM']
    >>> ladders.common("cold", "warm").cost              # sum of rareness; SCOWL-common words cost 1
    7
"""
from __future__ import annotations

import random
import string
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
import polars as pl

from pipeline.errors import DamagedState, PipelineError
from pipeline.artifact.contract import (GROUP_COLUMNS, LIST_COLUMNS, LOOKUP_COLUMNS, Col, export_words_file,
                                        label_cutoffs)
from pipeline.solve import search

CACHED_GROUPS = 8
# From this many words a common-word search runs in scipy (raw/'s 11-14k-word groups: p95 10 ms against
# 80-105 ms for the A*); below, the A* (p95 25 ms at 5.4k words, 7 ms at 2.3k) beats scipy's 0.14 s import
# in a one-off `ladders solve`.
COMPILED_FROM = 6000
MODES = {column: mode for (_, mode), column in GROUP_COLUMNS.items()}


class SolveError(PipelineError):
    """A question the solver refuses before searching; `exit_code` tells the CLI which kind."""

    exit_code = 2


class UnknownWord(SolveError):
    exit_code = 10


class LengthsDiffer(SolveError):
    exit_code = 11


class NoLadder(SolveError):
    exit_code = 12


class SameWord(SolveError):
    exit_code = 13


class OffensiveWord(SolveError):
    exit_code = 14


def label(level: int | None, cutoffs: dict[str, int]) -> str:
    """common / uncommon / rare / obscure for a SCOWL level (None: not in SCOWL)."""
    if level is not None:
        for name, top in cutoffs.items():
            if level <= top:
                return name
    return "obscure"


@dataclass(frozen=True)
class Rung:
    word: str
    rareness: int
    definition: str | None
    label: str = "obscure"  # common / uncommon / rare / obscure, from the SCOWL level


@dataclass(frozen=True)
class Ladder:
    rungs: list[Rung]
    count: int  # how many ladders tie with this one (it was drawn among them)
    group_column: str  # the words.parquet column of the group searched, e.g. group_csw
    group_id: int
    group_size: int

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
    labels: list[str] = field(default_factory=list)
    offensive: list[bool] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)
    _csr: dict[bool, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.index = {w: i for i, w in enumerate(self.words)}
        self.labels = self.labels or ["obscure"] * len(self.words)
        self.offensive = self.offensive or [False] * len(self.words)

    def ladder(self, path: list[int], count: int) -> Ladder:
        rungs = [Rung(self.words[i], self.rareness[i], self.definitions[i], self.labels[i]) for i in path]
        return Ladder(rungs, count, self.column, self.group_id, len(self.words))

    @cached_property
    def clean_adjacent(self) -> list[list[int]]:
        """The adjacency lists without offensive words: a --clean ladder never steps on one."""
        off = self.offensive
        return [[] if off[v] else [u for u in ns if not off[u]] for v, ns in enumerate(self.adjacent)]

    def links(self, clean: bool) -> list[list[int]]:
        return self.clean_adjacent if clean else self.adjacent

    @cached_property
    def _letters(self) -> np.ndarray | None:
        """The words as a (words x letters) byte matrix, when they all have one length."""
        if len({len(w) for w in self.words}) != 1:
            return None
        return np.frombuffer("".join(self.words).encode(), dtype=np.uint8).reshape(len(self.words), -1)

    def steps_left(self, t: int) -> list[int]:
        """A lower bound on the steps from each word to word t: letters that differ (one changes
        per step), or in a group of mixed lengths the difference in length (one letter per step)."""
        if self._letters is not None:
            return (self._letters != self._letters[t]).sum(axis=1).tolist()
        lengths = np.fromiter(map(len, self.words), dtype=np.int64, count=len(self.words))
        return np.abs(lengths - lengths[t]).tolist()

    def arrays(self, clean: bool) -> tuple[np.ndarray, np.ndarray]:
        """The links (without offensive words when clean) as CSR arrays, built once per group."""
        if clean not in self._csr:
            self._csr[clean] = search.csr(self.links(clean))
        return self._csr[clean]


def group_column(lexicon: str, edit: bool) -> str:
    return GROUP_COLUMNS[(lexicon, "edit" if edit else "sub")]


class Ladders:
    def __init__(self, export_dir: Path):
        self.words_file = export_words_file(export_dir)
        self._groups: OrderedDict[tuple[str, int], Group] = OrderedDict()
        self._seen = self._stamp()

    def _stamp(self) -> tuple[int, int, int]:
        try:
            st = self.words_file.stat()
        except OSError:
            raise DamagedState(f"{self.words_file} is gone; build the export again (make build)") from None
        return st.st_ino, st.st_size, st.st_mtime_ns

    def _follow_rebuilds(self) -> None:
        """A rebuild swaps in a new words.parquet: forget what was read of the old one."""
        stamp = self._stamp()
        if stamp != self._seen:
            self._seen = stamp
            self._groups.clear()
            for cached in ("_index", "label_cutoffs"):
                self.__dict__.pop(cached, None)

    @classmethod
    def open(cls, export_dir: str | Path) -> Ladders:
        return cls(Path(export_dir))

    # ---- looking words up --------------------------------------------------------

    @cached_property
    def _index(self) -> pl.DataFrame:
        """Every word with its flags and groups (no lists, no definitions): the lookup table of check()."""
        return pl.read_parquet(self.words_file, columns=LOOKUP_COLUMNS)

    def _rows(self, words: list[str]) -> dict[str, dict]:
        found = {}
        for word in words:
            i = self._index[Col.word].search_sorted(word)  # words.parquet is sorted by word
            if i < self._index.height and self._index[Col.word][i] == word:
                found[word] = self._index.row(i, named=True)
        return found

    def suggestions(self, word: str, lexicon: str = "csw", limit: int = 5) -> list[str]:
        """Up to `limit` listed words nearest to `word`: one edit away, else two; commonest first."""
        listed = dict(self._index.filter(pl.col(f"in_{lexicon}")).select(Col.word, Col.rareness).iter_rows())
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
        self._follow_rebuilds()
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
        if not edit and a[Col.length] != b[Col.length]:
            raise LengthsDiffer(f"{start} has {a[Col.length]} letters and {end} has {b[Col.length]}: "
                                "no ladder by changing letters; --edit also inserts and deletes letters")
        column = group_column(lexicon, edit)
        if a[column] != b[column]:
            sizes = self._group_sizes(column, [a[column], b[column]])
            raise NoLadder(f"no ladder: {start} (a group of {_words(sizes[a[column]])}) and {end} "
                           f"(a group of {_words(sizes[b[column]])}) are in different groups")
        return a, b

    def _group_sizes(self, column: str, ids: list[int]) -> dict[int, int]:
        counts = self._index.filter(pl.col(column).is_in(ids)).group_by(column).agg(pl.len())
        return dict(counts.iter_rows())

    def group(self, column: str, group_id: int) -> Group:
        key = (column, group_id)
        if key in self._groups:
            self._groups.move_to_end(key)
            return self._groups[key]
        lists = LIST_COLUMNS[MODES[column]]
        rows = (pl.scan_parquet(self.words_file).filter(pl.col(column) == group_id)
                .select(Col.id, Col.word, Col.rareness, Col.definition, Col.scowl_level, Col.offensive, *lists)
                .collect())
        local = {i: n for n, i in enumerate(rows[Col.id].to_list())}
        neighbours = rows.select(pl.concat_list(lists).alias("n"))["n"].to_list()
        # An OWL group's words may have CSW-only neighbours: those fall outside the group.
        adjacent = [[local[j] for j in ns if j in local] for ns in neighbours]
        cutoffs = self.label_cutoffs
        group = Group(column, group_id, rows[Col.word].to_list(), rows[Col.rareness].to_list(),
                      rows[Col.definition].to_list(), adjacent,
                      [label(level, cutoffs) for level in rows[Col.scowl_level].to_list()],
                      rows[Col.offensive].to_list())
        self._groups[key] = group
        if len(self._groups) > CACHED_GROUPS:
            self._groups.popitem(last=False)
        return group

    @cached_property
    def label_cutoffs(self) -> dict[str, int]:
        """The SCOWL level cut-offs of the rareness labels, as the build's config named them."""
        return label_cutoffs(self.words_file.parent)

    def _prepare(self, start: str, end: str, lexicon: str, edit: bool, clean: bool = False
                 ) -> tuple[Group, int, int]:
        a, b = self.check(start, end, lexicon, edit)
        column = group_column(lexicon, edit)
        group = self.group(column, a[column])
        s, t = group.index[a[Col.word]], group.index[b[Col.word]]
        if clean:
            rude = [group.words[v] for v in (s, t) if group.offensive[v]]
            if rude:
                raise OffensiveWord(f"{' and '.join(rude)} {'is' if len(rude) == 1 else 'are'} flagged offensive: "
                                    "--clean ladders neither start nor end on such a word")
            if not search.reachable(group.clean_adjacent, s, t):
                raise NoLadder(f"no clean ladder: every ladder from {group.words[s]} to {group.words[t]} "
                               "steps on a word flagged offensive")
        return group, s, t

    # ---- the two searches ----------------------------------------------------------

    def shortest(self, start: str, end: str, lexicon: str = "csw", edit: bool = False,
                 seed: int | None = None, clean: bool = False) -> Ladder:
        group, s, t = self._prepare(start, end, lexicon, edit, clean)
        path, count = search.bidirectional_bfs(group.links(clean), s, t, random.Random(seed))
        return group.ladder(path, count)

    def common(self, start: str, end: str, lexicon: str = "csw", edit: bool = False,
               seed: int | None = None, clean: bool = False) -> Ladder:
        group, s, t = self._prepare(start, end, lexicon, edit, clean)
        if len(group.words) >= COMPILED_FROM:
            counts, preds = search.least_cost(*group.arrays(clean), np.asarray(group.rareness), s, t)
        else:
            counts, preds = search.a_star(group.links(clean), group.rareness, group.steps_left(t), s, t)
        return group.ladder(search.draw(preds, counts, t, random.Random(seed)), counts[t])

    def all_shortest(self, start: str, end: str, lexicon: str = "csw", edit: bool = False,
                     limit: int = 10, clean: bool = False) -> tuple[int, list[Ladder]]:
        """How many shortest ladders there are, and `limit` of them (a fixed choice: walked back from END in alphabetical order)."""
        group, s, t = self._prepare(start, end, lexicon, edit, clean)
        counts, preds = search.bfs(group.links(clean), s, t)
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
        return counts[t], [group.ladder(p, counts[t]) for p in found]


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
