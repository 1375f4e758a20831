"""One group of words in memory, as the searches take it, and the ladder it presents.

`Group` holds one group of an export's words (the rows of ladder.sqlite sharing one group column's value):
each word's export id, word, rareness, rareness label, offensive and vulgar_sense flags, and its links as
adjacency lists of local indexes 0..n-1. It derives what the searches need from them: the links without
the words a clean level refuses, a common-word ladder's cost of each word, a lower bound on the steps
left, the CSR arrays of the compiled search. A path of local indexes becomes a `Ladder` of `Rung`s
(word, rareness, definition, label), the definitions fetched through the loader's `define`. No IO of
its own: solver.py reads the rows and hands them in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from pipeline.columns import EVERYDAY_LABEL, LADDER_COSTS, Col
from ladders.solve import search
from ladders.solve.question import CLEAN_LEVELS, clean_level


def label(level: int | None, cutoffs: dict[str, int]) -> str:
    """common / uncommon / rare / obscure for a SCOWL level (None: not in SCOWL)."""
    if level is not None:
        for name, top in cutoffs.items():
            if level <= top:
                return name
    return "obscure"


EVERYDAY = EVERYDAY_LABEL  # the rareness label of an everyday word (the first of the config's rareness_labels)


# Named tuples and a plain class, not dataclasses: a dataclass compiles its generated methods at import,
# 9 ms of a fresh `ladders solve` (0.15 s in all).
class Rung(NamedTuple):
    word: str
    rareness: int
    definition: str | None
    label: str = "obscure"  # common / uncommon / rare / obscure, from the SCOWL level


class Ladder(NamedTuple):
    rungs: list[Rung]
    count: int  # how many ladders tie exactly with this one (it was drawn among them)
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
    def rareness(self) -> int:
        """The sum of its words' rareness."""
        return sum(r.rareness for r in self.rungs)

    @property
    def cost(self) -> int:
        """The common-word rule's cost (the one meaning of "cost"): each everyday word 1, any other its rareness."""
        return sum(LADDER_COSTS.get(r.label, r.rareness) for r in self.rungs)

    @property
    def everyday(self) -> bool:
        """Whether every word is everyday (labelled common)."""
        return all(r.label == EVERYDAY for r in self.rungs)


class Group:
    """One group's words (local index 0..n-1) and its adjacency lists. Definitions are long and a
    ladder shows a handful, so `define(ids)` fetches those of the words (by export id) a ladder shows."""

    def __init__(
        self,
        column: str,
        group_id: int,
        ids: list[int],
        words: list[str],
        rareness: list[int],
        adjacent: list[list[int]],
        labels: list[str],
        offensive: list[bool],
        define: Callable[[list[int]], dict[int, str | None]],
        vulgar_sense: list[bool] | None = None,
    ):
        self.column, self.group_id, self.ids, self.words, self.rareness = column, group_id, ids, words, rareness
        self.adjacent, self.labels, self.offensive, self.define = adjacent, labels, offensive, define
        self.vulgar_sense = vulgar_sense or [False] * len(words)
        # A common-word ladder's cost of each word: 1 when everyday, else its rareness.
        self.cost = [LADDER_COSTS.get(lab, r) for lab, r in zip(labels, rareness)]
        self._clean: dict[str, list[list[int]]] = {}
        self._everyday: dict[str, tuple[list[bool], list[list[int]]]] = {}
        self.index = {w: i for i, w in enumerate(words)}
        self._csr: dict[str, tuple] = {}

    def ladder(self, path: list[int], count: int) -> Ladder:
        definitions = self.define([self.ids[i] for i in path])
        rungs = [Rung(self.words[i], self.rareness[i], definitions[self.ids[i]], self.labels[i]) for i in path]
        return Ladder(rungs, count, self.column, self.group_id, len(self.words))

    def refused(self, v: int, clean: bool | str) -> str | None:
        """The flag (a column name) for which a ladder at this clean level never steps on word v, or None."""
        flags = {Col.offensive: self.offensive, Col.vulgar_sense: self.vulgar_sense}
        return next((c for c in CLEAN_LEVELS[clean_level(clean)] if flags[c][v]), None)

    def links(self, clean: bool | str) -> list[list[int]]:
        """The adjacency lists without the words this clean level refuses: a clean ladder never steps on one."""
        level = clean_level(clean)
        if level == "off":
            return self.adjacent
        if level not in self._clean:
            off = [self.refused(v, level) is not None for v in range(len(self.words))]
            self._clean[level] = [[] if off[v] else [u for u in ns if not off[u]] for v, ns in enumerate(self.adjacent)]
        return self._clean[level]

    def everyday(self, clean: bool | str) -> tuple[list[bool], list[list[int]]]:
        """Which words are everyday and not refused at this clean level, and the links among those alone:
        computed once per group and level (a puzzle's draws and a solve's "no everyday ladder" ask often)."""
        level = clean_level(clean)
        if level not in self._everyday:
            kept = [lab == EVERYDAY and self.refused(v, level) is None for v, lab in enumerate(self.labels)]
            links = [[u for u in ns if kept[u]] if kept[v] else [] for v, ns in enumerate(self.adjacent)]
            self._everyday[level] = (kept, links)
        return self._everyday[level]

    def steps_left(self, t: int) -> list[int]:
        """A lower bound on the steps from each word to word t: letters that differ (one changes
        per step), or in a group of mixed lengths the difference in length (one letter per step)."""
        target, size = self.words[t], len(self.words[t])
        if all(len(w) == size for w in self.words):
            return [sum(a != b for a, b in zip(w, target)) for w in self.words]
        return [abs(len(w) - size) for w in self.words]

    def arrays(self, clean: bool | str) -> tuple:
        """search.least_cost's arrays, built once per group: the links (without offensive words when
        clean) as CSR arrays, and the common-ladder costs as floats (converting took 0.5 ms a search)."""
        level = clean_level(clean)
        if level not in self._csr:
            import numpy as np

            self._csr[level] = (*search.csr(self.links(level)), np.asarray(self.cost, dtype=np.float64))
        return self._csr[level]
