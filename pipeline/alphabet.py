"""The alphabets: which letters a language's words are made of, and how any other character is written in them.

Reads pipeline/languages.toml (the one table, one row per language: its letters in order and its folding rules,
each with its source; docs/languages.md), writes nothing. `fold(word, language)` is the one rule for a word from
a list or a player: the word is normalised to NFC (so a decomposed é, e + U+0301, is é), then each character is
looked up in the table: a letter or its lower-case form stays (upper case), a folding rule's character (either
case) becomes its letters, and anything else refuses the word with a FoldError naming the first such character
(its code point, name and position). Upper- and lower-case forms come from the table alone (each letter and
each rule's character lower-cased once, when the table is read); no other case mapping is done, so the dotless
ı, the Turkish İ and ligatures such as ﬁ are refused, as the English rule always has.

`fold_column` does the same for a whole polars column at once (stage 1's lists), with a FoldError for the first
word refused, or the refused rows listed; `sort_key` orders words by the alphabet's order of letters.
"""

from __future__ import annotations

import tomllib
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import polars as pl


TABLE = Path(__file__).resolve().parent / "languages.toml"
DEFAULT = "en"  # the language of a config that names none: today's build


class FoldError(ValueError):
    """A word with a character outside its language's alphabet and folding rules; `char` is that character
    (None for an empty word), `position` its 1-based place in the NFC-normalised word."""

    def __init__(self, message: str, char: str | None = None, position: int = 0):
        super().__init__(message)
        self.char = char
        self.position = position


def describe(char: str) -> str:
    """A character as text that is safe to print whatever it is: U+0131 LATIN SMALL LETTER DOTLESS I."""
    return f"U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


@dataclass(frozen=True)
class Alphabet:
    """One row of the table. `table`: every character a word may hold (letters, their lower case, the
    rules' characters in both cases) -> what it is written as in `letters`."""

    code: str
    name: str
    letters: str
    rules: dict[str, str]  # the table's fold rules as written (upper case)
    sources: tuple[str, ...]
    table: dict[str, str]

    def fold(self, word: str) -> str:
        """`word` in this alphabet's upper-case letters, or a FoldError naming the first character refused."""
        text = unicodedata.normalize("NFC", word)
        if not text:
            raise FoldError(f"an empty word is not a word of {self.name} letters")
        out = []
        for i, char in enumerate(text):
            got = self.table.get(char)
            if got is None:
                raise FoldError(
                    f"{describe(char)} (character {i + 1}) is not a letter of the {self.name} alphabet "
                    f"({self.letters}) nor folded into one",
                    char,
                    i + 1,
                )
            out.append(got)
        return "".join(out)

    def index(self, letter: str) -> int:
        """A letter's place in the alphabet, 0-based (stage 4's key digit is this plus one)."""
        return self.letters.index(letter)

    def sort_key(self, word: str) -> tuple[int, ...]:
        """A folded word's letters as their places: words sort in the alphabet's order (Ą after A, not after Z)."""
        return tuple(self.letters.index(c) for c in word)

    def pattern(self) -> str:
        """A regex (Python's and polars' alike) matching exactly the words of this alphabet's letters."""
        return "^[" + "".join(_escaped(c) for c in self.letters) + "]+$"

    def fold_column(self, words: "pl.Series") -> tuple["pl.Series", "pl.Series"]:
        """(folded, refused): each word folded (null where refused), and a bool mask of the refused rows.
        Vectorised: NFC (the same normalisation as fold), one pass of replacements, then the check. polars is
        imported here, not with the module: `ladders solve` folds typed words by `fold` without it."""
        import polars as pl

        normal = words.str.normalize("NFC")
        keys = sorted(self.table)
        folded = normal.str.replace_many(keys, [self.table[k] for k in keys])
        ok = folded.str.contains(self.pattern()) & (normal.str.len_chars() > 0)
        # A character with no rule passes replace_many untouched and fails the pattern: refused.
        return pl.select(pl.when(ok).then(folded)).to_series().alias(words.name), ~ok.fill_null(False)


def _escaped(char: str) -> str:
    return "\\" + char if char in "\\]^-[" else char


def _lower(char: str, where: str) -> str:
    low = char.lower()
    if len(low) != 1:
        raise ValueError(f"{where}: {describe(char)} has no one-character lower case; write its rule by hand")
    return low


def _row(code: str, row: dict, where: str) -> Alphabet:
    """One table row checked: letters distinct and upper case, rules of one character mapping onto letters."""
    letters, rules = row.get("letters"), row.get("fold", {})
    if not isinstance(letters, str) or not letters or len(set(letters)) != len(letters):
        raise ValueError(f"{where}: letters must be a string of distinct characters")
    if any(c != c.upper() or c == c.lower() for c in letters):
        raise ValueError(f"{where}: letters must be upper-case letters with a lower case of their own")
    if unicodedata.normalize("NFC", letters) != letters:
        raise ValueError(f"{where}: letters must be written in NFC")
    table: dict[str, str] = {}
    for letter in letters:
        table[letter] = letter
        table.setdefault(_lower(letter, where), letter)
    for char, into in rules.items():
        if len(char) != 1 or char in letters or not into or any(c not in letters for c in into):
            raise ValueError(f"{where}: rule {char!r} = {into!r}: one character, not a letter, into letters")
        for form in {char, _lower(char, where)}:
            if table.get(form, into) != into:
                raise ValueError(f"{where}: rule {char!r} contradicts another for {describe(form)}")
            table[form] = into
    name = row.get("name", code)
    return Alphabet(code, name, letters, dict(rules), tuple(row.get("sources", ())), table)


@cache
def alphabets(path: Path = TABLE) -> dict[str, Alphabet]:
    """Every row of the table, by language code."""
    with path.open("rb") as f:
        data = tomllib.load(f)
    return {code: _row(code, row, f"{path.name} [{code}]") for code, row in data.items()}


def alphabet(language: str = DEFAULT) -> Alphabet:
    """The row of one language; a ValueError naming the languages there are for any other code."""
    table = alphabets()
    if language not in table:
        raise ValueError(f"no alphabet for language {language!r} (languages: {', '.join(table)})")
    return table[language]


def fold(word: str, language: str = DEFAULT) -> str:
    """`word` written in `language`'s letters, upper case; a FoldError naming the first character refused."""
    return alphabet(language).fold(word)
