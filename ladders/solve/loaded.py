"""What `solve` checks of a group it loads from ladder.sqlite before a search trusts it.

ladder.sqlite is a file anyone can edit, and verify is not run before each solve: a search over a damaged
group answers wrong ladders with exit 0 (issue 42, item 5). So every group the solver (solver.py) loads
is checked here, each column against the type the column table declares for it (pipeline/columns.py:
an integer within its u8/u16/u32 range, a bool 0 or 1, a text, a list as JSON array text), and then as a
group: every row is of the lexicon (in_<lexicon> = 1), its words are unique words of letters A-Z,
rareness is 1 or more (the searches add it up: 0 would loop), and each link ends inside the group, or at
a word outside the lexicon (an OWL group's words keep their CSW-only neighbours in the lists), never at
a word of the lexicon in another group nor at an id no row has. A damaged group is a `Damage`: the
solver says it as one line, exit 3. The checks run column by column in C (set of types, min, max), so
they cost a few milliseconds of a group's load; a row is named only once something is found.
Reads nothing itself: the solver hands in the rows and a `query` for the ends outside the group.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import chain

from pipeline.columns import LIST_COLUMNS, Col, in_column, words_columns
from pipeline.terminal import inert


class Damage(Exception):
    """What is wrong with a group's rows, in words (the solver names the file)."""


def declared(lexicons) -> dict[str, tuple[str, bool]]:
    """column name -> (its declared dtype, whether it may be null), for an export of these lexicons."""
    return {name: (column.dtype, column.nullable) for name, column in words_columns(lexicons)}


def _fits(dtype: str, nullable: bool, value: object) -> bool:
    """Whether one value read from SQLite is of its column's declared type (a list: JSON text)."""
    if value is None:
        return nullable
    if dtype == "bool":
        return type(value) is int and value in (0, 1)
    if dtype.startswith("u"):  # u8, u16, u32: the bits of its range
        return type(value) is int and 0 <= value < 1 << int(dtype[1:])
    if dtype == "f64":
        return type(value) in (int, float)
    return type(value) is str  # str, and a list (JSON array text, parsed by `links`)


def check_columns(rows: list[tuple], names: list[str], types: dict[str, tuple[str, bool]]) -> None:
    """Damage unless every value of each named column is of its declared type."""
    for n, name in enumerate(names):
        dtype, nullable = types[name]
        values = [r[n] for r in rows]
        kinds = set(map(type, values))
        if dtype in ("bool", "u8", "u16", "u32"):
            ints = [v for v in values if v is not None] if type(None) in kinds else values
            ok = kinds <= ({int, type(None)} if nullable else {int}) and (
                not ints or (min(ints) >= 0 and max(ints) < (2 if dtype == "bool" else 1 << int(dtype[1:])))
            )
        else:
            ok = all(_fits(dtype, nullable, v) for v in values) if kinds - {str} else True
        if not ok:
            row = next(r for r in rows if not _fits(dtype, nullable, r[n]))
            who = row[1] if n != 1 and names[1] == Col.word and _fits("str", False, row[1]) else f"id {row[0]}"
            raise Damage(f"{_word(who)} has {name} {_word(repr(row[n]))} (declared {dtype})")


def check_words(
    ids: list[int], words: list[str], rareness: list[int], member: list[int], lexicon: str, letters: str
) -> None:
    """Damage unless the group's rows are its lexicon's, with unique words of `letters` (the export's
    alphabet) and rareness of 1 or more."""
    if any(m != 1 for m in member):
        n = next(n for n, m in enumerate(member) if m != 1)
        raise Damage(f"{_word(words[n])} has a group in {lexicon.upper()} but in_{lexicon} = {member[n]!r}")
    allowed = set(letters)
    if not all(_letters(w, allowed) for w in words):
        bad = next(i for i, w in zip(ids, words) if not _letters(w, allowed))
        raise Damage(f"id {bad} is not a word of letters {letters}")
    if len(set(words)) != len(words):
        seen: set[str] = set()
        twice = next(w for w in words if w in seen or seen.add(w))
        raise Damage(f"{twice} has two rows")
    if rareness and min(rareness) < 1:
        n = rareness.index(min(rareness))
        raise Damage(f"{words[n]} has rareness {rareness[n]} (rareness is a whole number, 1 or more)")


def links(
    rows: list[tuple],
    first: int,
    lists: int,
    ids: list[int],
    words: list[str],
    lexicon: str,
    outside: Callable[[list[int]], dict[int, tuple[str, int]]],
) -> list[list[int]]:
    """Each row's neighbours (its `lists` JSON columns from index `first`) as local indexes 0..n-1.

    An end outside the group must be a word of the export outside the lexicon: `outside(ids)` gives,
    of those ids, {id: (word, in_<lexicon>)} of the rows that exist."""
    try:
        # Each list is JSON array text: all of them parsed in one call (a call per row took 3x as long).
        parsed = json.loads("[" + ",".join(text for row in rows for text in row[first : first + lists]) + "]")
    except ValueError:
        raise Damage("a neighbour list is not a JSON array of ids") from None
    if set(map(type, parsed)) - {list} or set(map(type, chain.from_iterable(parsed))) - {int}:
        raise Damage("a neighbour list is not a JSON array of ids")
    if lists > 1:
        parsed = [sum(parsed[n : n + lists], []) for n in range(0, len(parsed), lists)]
    local = {i: n for n, i in enumerate(ids)}
    try:
        return [list(map(local.__getitem__, ns)) for ns in parsed]
    except KeyError:  # an end outside the group: allowed only at a word outside the lexicon
        pass
    away = sorted({j for ns in parsed for j in ns if j not in local})
    found = outside(away)
    for n, ns in enumerate(parsed):
        for j in ns:
            if j in local:
                continue
            if j not in found:
                raise Damage(f"{words[n]} links to id {j}, which no row has")
            if found[j][1]:
                raise Damage(f"{words[n]} links to {_word(found[j][0])}, a {lexicon.upper()} word of another group")
    return [[local[j] for j in ns if j in local] for ns in parsed]


def check_steps(adjacent: list[list[int]], words: list[str], edit: bool) -> None:
    """Damage unless every link is listed at both its ends and joins two words one step apart: one letter
    changed (and, with `edit`, one inserted or deleted). A hand-made link COLD-WARM answered a 1-step
    ladder; a 5-letter word in a 4-letter group was a rung."""
    for u, ns in enumerate(adjacent):
        for v in ns:
            if u not in adjacent[v]:
                raise Damage(f"{_word(words[u])} links to {_word(words[v])}, whose list does not link back")
            if not _one_step(words[u], words[v], edit):
                raise Damage(f"{_word(words[u])} links to {_word(words[v])}, which is not one letter away")


def _one_step(a: str, b: str, edit: bool) -> bool:
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    if not edit or abs(len(a) - len(b)) != 1:
        return False
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k, (x, y) in enumerate(zip(short, long)) if x != y), len(short))
    return short[i:] == long[i + 1 :]


def outside(query: Callable, ids: list[int], lexicon: str) -> dict[int, tuple[str, int]]:
    """{id: (word, in_<lexicon>)} of the rows with these ids (the ends of a group's links outside it)."""
    return {
        row[0]: row[1:]
        for row in query(
            f"SELECT {Col.id}, {Col.word}, {in_column(lexicon)} FROM words "
            f"WHERE {Col.id} IN (SELECT value FROM json_each(?))",
            (json.dumps(ids),),
        )
    }


def check_ends(query: Callable, word: str, group_id: int, column: str, lexicon: str) -> None:
    """Damage when one of the word's neighbours in the lexicon is outside its group (`column` = group_id)."""
    lists = LIST_COLUMNS["edit" if column.endswith("_edit") else "sub"]
    texts = query(f"SELECT {', '.join(lists)} FROM words WHERE {Col.word} = ?", (word,))[0]
    ends = query(
        f"SELECT {Col.word}, {column} FROM words WHERE {in_column(lexicon)} = 1 AND {Col.id} IN "
        "(SELECT value FROM json_each(?) UNION SELECT value FROM json_each(?))",
        (texts[0], texts[-1]),
    )
    away = next((w for w, group in ends if group != group_id), None)
    if away is not None:
        raise Damage(f"{word} ({column} {group_id}) links to {_word(away)}, a {lexicon.upper()} word of another group")


def _letters(word: object, allowed: set[str]) -> bool:
    return isinstance(word, str) and bool(word) and all(c in allowed for c in word)


def _word(word: object) -> str:
    return inert(str(word))[:40]


# The columns of a group's load, in the order of its query (the neighbour lists follow these).
LOADED = (Col.id, Col.word, Col.rareness, Col.scowl_level, Col.offensive, Col.vulgar_sense)
