"""What a question to the solver may ask, and the refusals of the rest.

A question names two typed words and a clean level. This module holds the one rule of a typed word
(`normalise`: a str and the export's alphabet table in, the word in its letters out), the clean levels (`CLEAN_LEVELS`: a level's name -> the
words.parquet flag columns whose words a ladder at that level never steps on) and the kinds of
`SolveError` that refuse a question before or instead of a search, each with the exit code the CLI
gives it; for a word the lexicon does not hold, the listed words it may have meant (`nearest`: the word
and {word: rareness} in, words out). No IO: the solver (solver.py) and the puzzles (puzzle.py) look the
words up and raise these.
"""

from __future__ import annotations

import unicodedata

from pipeline.alphabet import Alphabet, FoldError, alphabet as default_alphabet
from pipeline.columns import Col
from pipeline.errors import PipelineError

# How clean a ladder keeps: the columns whose words it never steps on, by level.
CLEAN_LEVELS = {"off": (), "on": (Col.offensive,), "strict": (Col.offensive, Col.vulgar_sense)}


class SolveError(PipelineError):
    """A question the solver refuses before searching; `exit_code` tells the CLI which kind."""

    exit_code = 2


def clean_level(clean: bool | str | None) -> str:
    """One of CLEAN_LEVELS from a level's name or a bool (True: "on")."""
    level = ("on" if clean else "off") if clean is None or isinstance(clean, bool) else clean
    if level not in CLEAN_LEVELS:
        raise SolveError(f"unknown clean level {str(clean)[:20]!r}: use {', '.join(CLEAN_LEVELS)}")
    return level


def clean_name(level: str) -> str:
    """How a message names a clean level's ladders: "clean" (no offensive word), "family-safe" (nor a
    vulgar-sense one: the default of every solver), "unfiltered"."""
    return {"off": "unfiltered", "on": "clean", "strict": "family-safe"}[level]


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


# The one rule of a word typed into a solver (this one, solvers/php/ladder.php and the web page alike,
# and the lists' own rule in stage 1): ASCII whitespace around it (space, tab, line ends, vertical tab,
# form feed) is dropped, and the rest folded by the export's alphabet (manifest.json's `alphabet`:
# pipeline/alphabet.py's Alphabet.fold: NFC, then each character looked up in its table; English: a-z and
# A-Z to A-Z); anything else refused. No Unicode case mapping: the ligature "\ufb01" upper-cases to "FI"
# and the dotless "\u0131" to "I", which would answer a word that was never typed.
AROUND = " \t\n\r\x0b\x0c"


def normalise(word: str, alphabet: Alphabet | None = None) -> str:
    """`word` as the export writes it: the typed-word rule above, in `alphabet` (default: English)."""
    alphabet = alphabet or default_alphabet()
    cleaned = unicodedata.normalize("NFC", word.strip(AROUND))
    if not cleaned:
        raise UnknownWord("an empty word is not a word")
    try:
        return alphabet.fold(cleaned)
    except FoldError as e:
        letters = alphabet.letters
        if letters == "".join(map(chr, range(ord(letters[0]), ord(letters[-1]) + 1))):  # a run: A-Z
            raise UnknownWord(f"{shown(cleaned)!r} is not a word of letters {letters[0]}-{letters[-1]}") from None
        point = f"U+{ord(e.char):04X} {unicodedata.name(e.char, 'unnamed character')}"
        raise UnknownWord(f"{shown(cleaned)!r} is not a word of the {alphabet.name} alphabet ({point})") from None


def shown(word: str) -> str:
    """A word as a message quotes it: its first 40 characters (a typed word may be of any length)."""
    return word if len(word) <= 40 else word[:40] + "..."


# The second ring of edits holds about (51 n)^2 / 2 strings for a word of n letters: 0.3 million at 15 (the
# longest Scrabble word), 5 million at 66 (1 GB, 8 s). Beyond RING_TWO_LETTERS, one edit only.
RING_TWO_LETTERS = 15


def nearest(word: str, listed: dict[str, int], limit: int, letters: str | None = None) -> list[str]:
    """Up to `limit` of the `listed` words (word -> rareness) nearest to `word`, an unknown word: one edit
    away (a letter changed, deleted or inserted, or two neighbours swapped: WRAM -> WARM), else two;
    commonest first, and among equally common ones a swap first (the likeliest slip of a typing hand)."""
    letters = letters or default_alphabet().letters
    if len(word) > max(map(len, listed), default=0) + 2:
        return []  # nothing listed is within two edits
    ring, swaps = {word}, _swaps(word)
    for _ in range(2 if len(word) <= RING_TWO_LETTERS else 1):
        ring = {v for w in ring for v in _edits(w, letters)}
        near = sorted((listed[w], w not in swaps, w) for w in ring if w in listed and w != word)
        if near:
            return [w for *_, w in near[:limit]]
    return []


def _swaps(word: str) -> set[str]:
    """The word with two neighbouring letters swapped."""
    return {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(len(word) - 1)}


def _edits(word: str, letters: str) -> set[str]:
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    return (
        {a + c + b[1:] for a, b in splits if b for c in letters}
        | {a + b[1:] for a, b in splits if b}
        | {a + c + b for a, b in splits for c in letters}
        | _swaps(word)
    )
