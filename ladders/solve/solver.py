"""The reference solver: ladders from build/export/ alone.

`Ladders.open(export_dir)` reads only manifest.json (its schema_version) and stats ladder.sqlite (waiting
out a rebuild's swap); nothing else until asked. It reads ladder.sqlite with Python's own sqlite3, not
words.parquet with polars: a one-off `ladders solve` would otherwise spend more time importing polars and
numpy (0.3 s) than solving. Each question looks its two words up by the index on `word`, then loads only
the one group they share (`SELECT ... WHERE group_csw = ?`, neighbour lists included), checked by
loaded.py against the column table's declared types and the group's rules (a damaged group is
DamagedState, exit 3), as a group.py `Group`, which fetches the definitions of a ladder's words alone; a
few groups stay cached. A question's words and clean level are checked by question.py's rules, and
refused with its SolveError kinds.

What it reads of ladder.sqlite's `words` table: `id`, `word`, `length`, `in_<lexicon>`, `rareness`,
`group_<lexicon>` and `group_<lexicon>_edit`, `scowl_level`, `offensive`, `vulgar_sense`, `links` (and
`edit_links`, for edit ladders) as JSON arrays in text, and `definition`; of manifest.json:
`schema_version`, `lexicons`, `config.rareness_labels` and `alphabet` (the typed-word rule's table).

Two answers, one definition shared with the PHP solver and the web page:
- shortest: the fewest steps, then the least sum of rareness over the ladder's words (a bidirectional
  breadth-first search that keeps, layer by layer, each word's least rareness sum);
- common: every everyday word (labelled common: SCOWL's main lists up to the config's
  `rareness_labels.common`) costs 1, any other word its rareness (`Ladder.cost`); the least sum of costs,
  then the fewest steps, then the least rareness sum (A* on that triple; in a large group, Dijkstra in
  scipy). A common ladder is thus longer than the shortest only to avoid a word beyond everyday.
With `clean="on"` (or True) neither search steps on a word flagged offensive; with `clean="strict"` (the
CLI's default) nor on an everyday word flagged vulgar_sense (ASS, COCK). Each rung carries a rareness label
(common / uncommon / rare / obscure) from its SCOWL level, with the cut-offs the build's config named
(manifest.json). Where several ladders tie exactly, one is drawn uniformly at random among them (by
counting paths and walking back), reproducibly with a seed; `count` says how many tie.

    >>> ladders = Ladders.open("build/export")
    >>> ladder = ladders.shortest("cold", "warm", seed=1)
    >>> ladder.words, ladder.count   # one of three four-step ladders that tie as the least rare
    (['COLD', 'CORD', 'CARD', 'WARD', 'WARM'], 3)
    >>> ladders.common("cold", "warm").steps     # every word everyday: no longer than the shortest
    4
"""

from __future__ import annotations

import gc
import json
import random
import sqlite3
from collections import OrderedDict
from functools import cached_property
from pathlib import Path

from pipeline.columns import LIST_COLUMNS, SQLITE_FILE, Col, in_column, lookup_columns
from ladders.artifact.contract import export_alphabet, export_file, export_lexicons, label_cutoffs
from pipeline.columns import group_column as contract_group_column
from pipeline.errors import DamagedState, NoExport
from ladders.solve import loaded, search
from ladders.solve.group import Group, Ladder, label
from ladders.solve.question import CLEAN_LEVELS, LengthsDiffer, NoLadder, OffensiveWord, SameWord, SolveError
from ladders.solve.question import UnknownWord, clean_level, clean_name, nearest, normalise, shown

CACHED_GROUPS = 8

# From this many words a common-word search runs in scipy (raw/'s 11-14k-word groups: p95 10 ms against
# 80-105 ms for the A*); below, the A* (p95 25 ms at 5.4k words, 7 ms at 2.3k) beats scipy's 0.14 s import
# in a one-off `ladders solve`.
COMPILED_FROM = 6000


def group_column(lexicon: str, edit: bool) -> str:
    return contract_group_column(lexicon, "edit" if edit else "sub")


class Ladders:
    def __init__(self, export_dir: Path):
        self.folder = Path(export_dir)
        self.sqlite_file = export_file(self.folder, SQLITE_FILE)
        self._groups: OrderedDict[tuple[str, int], Group] = OrderedDict()
        self._db: sqlite3.Connection | None = None
        self._listed: dict[str, dict[str, int]] = {}
        self._seen = self._stamp()

    def _stamp(self) -> tuple[int, int, int]:
        from pipeline.swap import wait_for_swap

        for _ in range(3):
            if not wait_for_swap(self.folder, self.sqlite_file.is_file):  # a rebuild mid-swap: wait for it
                raise NoExport(f"{self.sqlite_file} is gone; build the export again (make build)")
            try:
                st = self.sqlite_file.stat()
            except OSError:
                continue  # gone between the look and the stat: the two-rename swap's gap; look again
            return st.st_ino, st.st_size, st.st_mtime_ns
        raise DamagedState(f"{self.sqlite_file} is gone; build the export again (make build)")

    def _follow_rebuilds(self) -> None:
        """A rebuild swaps in a new ladder.sqlite: forget what was read of the old one."""
        stamp = self._stamp()
        if stamp != self._seen:
            self._seen = stamp
            self._groups.clear()
            if self._db is not None:
                self._db.close()
                self._db = None
            self._listed.clear()
            for name in ("label_cutoffs", "lexicons", "alphabet"):
                self.__dict__.pop(name, None)

    @classmethod
    def open(cls, export_dir: str | Path) -> Ladders:
        return cls(Path(export_dir))

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Rows of one query on ladder.sqlite; a file that is not the database ladders wrote is DamagedState."""
        try:
            try:
                return self._run(sql, params)
            except sqlite3.OperationalError as err:
                if "unable to open" not in str(err):
                    raise
                # A swap began between the look and the open (the two-rename swap's gap): once it is through,
                # open again.
                self._db = None
                return self._run(sql, params)
        except sqlite3.DatabaseError as err:
            raise DamagedState(f"{self.sqlite_file} is damaged ({err}); build the export again (make build)") from None

    def _run(self, sql: str, params: tuple) -> list[tuple]:
        if self._db is None:
            self._stamp()  # waits out a rebuild's swap; then the file is there to open
            # Read-only and immutable: a rebuild replaces the file by renaming, never writes into it.
            self._db = sqlite3.connect(self.sqlite_file.resolve().as_uri() + "?mode=ro&immutable=1", uri=True)
        return self._db.execute(sql, params).fetchall()

    # ---- looking words up --------------------------------------------------------

    @cached_property
    def lexicons(self) -> tuple[str, ...]:
        """The lexicons the export holds (its manifest's), in column order."""
        return export_lexicons(self.folder)

    @cached_property
    def alphabet(self):
        """The export's alphabet (manifest.json's, contract.export_alphabet): the typed-word rule's table, the
        suggestions' letters."""
        return export_alphabet(self.folder)

    def known_lexicon(self, lexicon: str) -> str:
        """`lexicon` when the export holds it (its name is then a column's part, safe in SQL), else SolveError."""
        if lexicon not in self.lexicons:
            raise SolveError(f"unknown lexicon {lexicon[:40]!r}: this export holds {', '.join(self.lexicons)}")
        return lexicon

    def _rows(self, words: list[str]) -> dict[str, dict]:
        columns = lookup_columns(self.lexicons)
        found = self.query(
            f"SELECT {', '.join(columns)} FROM words WHERE {Col.word} IN ({', '.join('?' * len(words))})",
            tuple(words),
        )
        if len({row[0] for row in found}) != len(found):  # the unique index on word dropped, a row copied
            twice = next(row[0] for n, row in enumerate(found) if row[0] in {r[0] for r in found[:n]})
            raise DamagedState(
                f"{self.sqlite_file} is damaged: {shown(str(twice))} has two rows; build the export again"
            )
        return {row[0]: dict(zip(columns, row)) for row in found}

    def listed(self, lexicon: str) -> dict[str, int]:
        """Every word of the lexicon and its rareness: read once, when a word is not found."""
        if lexicon not in self._listed:
            self.known_lexicon(lexicon)
            self._listed[lexicon] = dict(
                self.query(f"SELECT {Col.word}, {Col.rareness} FROM words WHERE in_{lexicon} = 1")
            )
        return self._listed[lexicon]

    def suggestions(self, word: str, lexicon: str = "csw", limit: int = 5) -> list[str]:
        """Up to `limit` words of the lexicon nearest to `word` (question.nearest)."""
        return nearest(word, self.listed(lexicon), limit, self.alphabet.letters)

    def check(self, start: str, end: str, lexicon: str, edit: bool) -> tuple[dict, dict]:
        """The two words' rows, or the SolveError that says why no search is needed."""
        self._follow_rebuilds()
        self.known_lexicon(lexicon)
        start, end = (normalise(w, self.alphabet) for w in (start, end))
        rows = self._rows([start, end])
        for w in (start, end):
            row = rows.get(w)
            if row is None or not row[f"in_{lexicon}"]:
                near = self.suggestions(w, lexicon)
                hint = f"; did you mean {', '.join(near)}?" if near else ""
                raise UnknownWord(
                    f"{shown(w)} is not in the {lexicon.upper()} word list{hint}", word=shown(w), suggestions=near
                )
        a, b = rows[start], rows[end]
        if start == end:
            raise SameWord(f"{start} and {end} are the same word: a ladder needs two")
        if not edit and a[Col.length] != b[Col.length]:
            raise LengthsDiffer(
                f"{start} has {a[Col.length]} letters and {end} has {b[Col.length]}: "
                "no ladder by changing letters; --edit also inserts and deletes letters"
            )
        column = group_column(lexicon, edit)
        for row in (a, b):
            if not isinstance(row[column], int):
                raise DamagedState(
                    f"{self.sqlite_file} is damaged: {row[Col.word]} is in {lexicon.upper()} but its {column} is "
                    f"{row[column]!r}; build the export again"
                )
        if a[column] != b[column]:
            self._check_ends(a, column, lexicon)
            self._check_ends(b, column, lexicon)
            sizes = dict(
                self.query(
                    f"SELECT {column}, count(*) FROM words WHERE {column} IN (?, ?) GROUP BY {column}",
                    (a[column], b[column]),
                )
            )
            raise NoLadder(
                f"no ladder: {start} (a group of {_words(sizes[a[column]])}) and {end} "
                f"(a group of {_words(sizes[b[column]])}) are in different groups"
            )
        return a, b

    def _check_ends(self, row: dict, column: str, lexicon: str) -> None:
        """DamagedState when a neighbour of the word in the lexicon is in another group (loaded.check_ends)."""
        try:
            loaded.check_ends(self.query, row[Col.word], row[column], column, lexicon)
        except loaded.Damage as damage:
            raise DamagedState(f"{self.sqlite_file} is damaged: {damage}; build the export again") from None

    def _load_group(self, column: str, group_id: int) -> Group:
        """The group's rows as a Group, checked by loaded.py's rules: a damaged one is DamagedState."""
        lexicon = next(
            name for name in self.lexicons if column in (group_column(name, False), group_column(name, True))
        )
        lists = LIST_COLUMNS["edit" if column == group_column(lexicon, True) else "sub"]
        names = [*loaded.LOADED, in_column(lexicon), *lists]
        rows = self.query(f"SELECT {', '.join(names)} FROM words WHERE {column} = ? ORDER BY {Col.id}", (group_id,))
        try:
            loaded.check_columns(rows, names, loaded.declared(self.lexicons))
            ids, words, rareness = [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]
            loaded.check_words(ids, words, rareness, [r[6] for r in rows], lexicon, self.alphabet.letters)
            adjacent = loaded.links(
                rows, 7, len(lists), ids, words, lexicon, lambda away: loaded.outside(self.query, away, lexicon)
            )
            loaded.check_steps(adjacent, words, len(lists) > 1)
        except loaded.Damage as damage:
            raise DamagedState(
                f"{self.sqlite_file} is damaged: {column} {group_id}: {damage}; build the export again (make build)"
            ) from None
        cutoffs = self.label_cutoffs
        return Group(
            column,
            group_id,
            ids,
            words,
            rareness,
            adjacent,
            [label(r[3], cutoffs) for r in rows],
            [bool(r[4]) for r in rows],
            self._definitions,
            [bool(r[5]) for r in rows],
        )

    def _definitions(self, ids: list[int]) -> dict[int, str | None]:
        return dict(
            self.query(
                f"SELECT {Col.id}, {Col.definition} FROM words WHERE {Col.id} IN (SELECT value FROM json_each(?))",
                (json.dumps(ids),),
            )
        )

    def starts(self, lexicon: str, length: int, column: str, group_ids: list[int]) -> list[tuple[str, int]]:
        """(word, group) of every `lexicon` word of `length` letters in one of the groups, in word order."""
        self.known_lexicon(lexicon)
        return self.query(
            f"SELECT {Col.word}, {column} FROM words WHERE in_{lexicon} = 1 AND {Col.length} = ? "
            f"AND {column} IN (SELECT value FROM json_each(?)) ORDER BY {Col.id}",
            (length, json.dumps(group_ids)),
        )

    def group(self, column: str, group_id: int) -> Group:
        key = (column, group_id)
        if key in self._groups:
            self._groups.move_to_end(key)
            return self._groups[key]
        paused = gc.isenabled()
        gc.disable()  # the group is tens of thousands of new lists and no cycles: 3 ms of cycle hunting saved
        try:
            group = self._load_group(column, group_id)
        finally:
            if paused:
                gc.enable()
        self._groups[key] = group
        if len(self._groups) > CACHED_GROUPS:
            self._groups.popitem(last=False)
        return group

    @cached_property
    def label_cutoffs(self) -> dict[str, int]:
        """The SCOWL level cut-offs of the rareness labels, as the build's config named them."""
        return label_cutoffs(self.folder)

    def _prepare(
        self, start: str, end: str, lexicon: str, edit: bool, clean: bool | str = False
    ) -> tuple[Group, int, int]:
        clean = clean_level(clean)
        a, b = self.check(start, end, lexicon, edit)
        column = group_column(lexicon, edit)
        group = self.group(column, a[column])
        s, t = group.index[a[Col.word]], group.index[b[Col.word]]
        for v in (s, t):
            why = group.refused(v, clean)
            if why:
                raise OffensiveWord(
                    f"{group.words[v]} is flagged {why}: a {clean_name(clean)} ladder neither starts nor ends on "
                    "such a word (--no-clean allows every word)"
                )
        if not search.reachable(group.links(clean), s, t):
            if clean == "off" or not search.reachable(group.links("off"), s, t):
                # The group's links never join two of its words: its rows say one group where there are two.
                raise DamagedState(
                    f"{self.sqlite_file} is damaged: {column} {group.group_id} holds {group.words[s]} and "
                    f"{group.words[t]} but no link joins them; build the export again (make build)"
                )
            flagged = " or ".join(CLEAN_LEVELS[clean])
            raise NoLadder(
                f"no {clean_name(clean)} ladder: every ladder from {group.words[s]} to {group.words[t]} "
                f"steps on a word flagged {flagged} (--no-clean allows every word)"
            )
        return group, s, t

    # ---- the two searches ----------------------------------------------------------

    def shortest(
        self,
        start: str,
        end: str,
        lexicon: str = "csw",
        edit: bool = False,
        seed: int | None = None,
        clean: bool | str = False,
    ) -> Ladder:
        group, s, t = self._prepare(start, end, lexicon, edit, clean)
        path, count = search.bidirectional_bfs(group.links(clean), s, t, random.Random(seed), group.rareness)
        return group.ladder(path, count)

    def common(
        self,
        start: str,
        end: str,
        lexicon: str = "csw",
        edit: bool = False,
        seed: int | None = None,
        clean: bool | str = False,
    ) -> Ladder:
        group, s, t = self._prepare(start, end, lexicon, edit, clean)
        compiled = len(group.words) >= COMPILED_FROM
        if compiled:
            try:
                counts, preds = search.least_cost(*group.arrays(clean), s, t, group.rareness)
            except ImportError:  # scipy could not be loaded (under `ulimit -v`, its code is not mapped)
                compiled = False
        if not compiled:
            counts, preds = search.a_star(group.links(clean), group.cost, group.steps_left(t), s, t, group.rareness)
        return group.ladder(search.draw(preds, counts, t, random.Random(seed)), counts[t])

    def everyday_joins(
        self, start: str, end: str, lexicon: str = "csw", edit: bool = False, clean: bool | str = False
    ) -> bool:
        """Whether a ladder of everyday words (labelled common) at this clean level joins the two words."""
        group, s, t = self._prepare(start, end, lexicon, edit, clean)
        kept, links = group.everyday(clean)
        return kept[s] and kept[t] and search.reachable(links, s, t)

    def all_shortest(
        self, start: str, end: str, lexicon: str = "csw", edit: bool = False, limit: int = 10, clean: bool | str = False
    ) -> tuple[int, list[Ladder]]:
        """How many ladders of the fewest steps there are, and `limit` of them (a fixed choice: walked back
        from END in alphabetical order)."""
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
