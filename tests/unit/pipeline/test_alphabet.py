"""The alphabets of pipeline/languages.toml and pipeline/alphabet.py's folding: a tiny explained list per
language, NFC and NFD alike, the vectorised column fold against the word-by-word one, and a damaged table."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.alphabet import FoldError, alphabet, alphabets, fold
from support.paths import DATA

# (language, as written in a list or typed, folded; None: refused) with why, one line each.
EXPLAINED = [
    ("en", "cold", "COLD"),  # a-z upper-cased through the table
    ("en", "café", None),  # English keeps today's rule: A-Z alone, é refused
    ("en", "ınk", None),  # the dotless ı is no i: refused, as before
    ("en", "ﬁre", None),  # the ligature ﬁ is not FI
    ("es", "niño", "NIÑO"),  # Ñ is a Spanish letter, kept
    ("es", "pingüino", "PINGUINO"),  # Ü is played as U
    ("es", "canción", "CANCION"),  # accented vowels are plain vowels
    ("es", "çedilla", None),  # Ç is not Spanish
    ("es", "chorro", "CHORRO"),  # CH and RR are two letters each (the RAE's alphabet), not tiles
    ("nl", "ijsvrij", "IJSVRIJ"),  # IJ is I + J since 1998: 7 letters
    ("nl", "ĳsvrĳ", "IJSVRIJ"),  # the one-character ligature ĳ is the same two letters
    ("nl", "ideeën", "IDEEEN"),  # the diaeresis is ignored
    ("nl", "DNA-profielen", None),  # the hyphen is no letter
    ("pl", "źdźbło", "ŹDŹBŁO"),  # Polish keeps its nine letters
    ("pl", "ŻÓŁW", "ŻÓŁW"),  # upper case stays
    ("pl", "video", None),  # V is no Polish letter (no tile)
    ("pl", "abbé", None),  # nor a foreign é
    ("fr", "élève", "ELEVE"),  # French ignores accents
    ("fr", "garçon", "GARCON"),  # and the cedilla
    ("fr", "cœur", "COEUR"),  # Œ is two letters
    ("fr", "aujourd'hui", None),  # the apostrophe is no letter
    ("de", "Straße", "STRASSE"),  # ß is written SS
    ("de", "GROẞ", "GROSS"),  # and so is the capital ẞ
    ("de", "Ärger", "ÄRGER"),  # Ä Ö Ü are German letters, kept
    ("de", "Café", "CAFE"),  # other diacritics are ignored
    ("de", "İstanbul", None),  # the Turkish İ is refused: no case mapping beyond the table
]


@pytest.mark.parametrize(("language", "word", "expected"), EXPLAINED, ids=[f"{c}-{w}" for c, w, _ in EXPLAINED])
def test_explained_words(language, word, expected):
    if expected is None:
        with pytest.raises(FoldError) as refused:
            fold(word, language)
        bad = refused.value.char
        assert bad is not None and bad in unicodedata.normalize("NFC", word)
        assert f"U+{ord(bad):04X}" in str(refused.value)  # the message names the character
    else:
        assert fold(word, language) == expected


@pytest.mark.parametrize(("language", "word", "expected"), [e for e in EXPLAINED if e[2]])
def test_nfd_input_folds_as_nfc(language, word, expected):
    decomposed = unicodedata.normalize("NFD", word)
    assert fold(decomposed, language) == fold(unicodedata.normalize("NFC", word), language) == expected


def test_refusal_names_the_first_bad_character_and_where():
    with pytest.raises(FoldError) as refused:
        fold("ab c'd", "fr")
    assert (refused.value.char, refused.value.position) == (" ", 3)
    with pytest.raises(FoldError, match="empty"):
        fold("", "en")


def test_every_language_is_here_with_its_sources():
    table = alphabets()
    assert list(table) == ["en", "es", "nl", "pl", "fr", "de"]
    assert table["en"].letters == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # the English build's rule, unchanged
    assert len(table["pl"].letters) == 32 and len(table["es"].letters) == 27
    assert all(a.sources for a in table.values())
    with pytest.raises(ValueError, match="languages: en, es"):
        alphabet("xx")


def test_polish_words_sort_in_the_polish_order():
    pl_ = alphabet("pl")
    words = ["ZA", "ĄB", "AZ", "ŻA", "ŹA", "BA"]
    assert sorted(words, key=pl_.sort_key) == ["AZ", "ĄB", "BA", "ZA", "ŹA", "ŻA"]


def _pool(code: str) -> list[str]:
    """Characters a word may be drawn from: every character the table knows, some it refuses, and the
    combining marks an NFD word is made of."""
    return sorted(alphabet(code).table) + ["ı", "ﬁ", "İ", "-", "'", " ", "\u0301", "\u0308", "\u0303", "1", "ſ"]


@pytest.mark.parametrize("code", ["en", "es", "nl", "pl", "fr", "de"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_column_fold_agrees_with_word_fold(code, data):
    words = data.draw(st.lists(st.text(alphabet=_pool(code), max_size=8), max_size=30))
    folded, refused = alphabet(code).fold_column(pl.Series("w", words, dtype=pl.String))
    for word, got, bad in zip(words, folded.to_list(), refused.to_list()):
        try:
            expected = fold(word, code)
        except FoldError:
            expected = None
        assert (got, bad) == (expected, expected is None), word


@pytest.mark.parametrize("code", ["en", "es", "nl", "pl", "fr", "de"])
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_fold_is_idempotent_and_lands_in_the_letters(code, data):
    a = alphabet(code)
    word = data.draw(st.text(alphabet=sorted(a.table), min_size=1, max_size=10))
    once = a.fold(word)
    assert set(once) <= set(a.letters)
    assert a.fold(once) == once
    assert a.fold(unicodedata.normalize("NFD", word)) == once


@pytest.mark.parametrize(
    ("row", "complaint"),
    [
        ('letters = "ABA"', "distinct"),
        ('letters = "abc"', "upper-case"),
        ('letters = "AB"\nfold = { "C" = "X" }', "into letters"),
        ('letters = "AB"\nfold = { "A" = "B" }', "into letters"),
        ('letters = "AB"\nfold = { "CD" = "A" }', "one character"),
        ('letters = "AB"\nfold = { "İ" = "A" }', "no one-character lower case"),
    ],
)
def test_a_damaged_table_is_refused_by_name(tmp_path: Path, row, complaint):
    table = tmp_path / "languages.toml"
    table.write_text(f"[xx]\n{row}\n", encoding="utf-8")
    with pytest.raises(ValueError, match=complaint) as e:
        alphabets(table)
    assert "[xx]" in str(e.value)


# What may refuse a word of each real list (tests/data/lang/, a slice of every list): the characters the
# language's word game has no tile for. A letter of the language refused here would be a hole in the table.
REFUSABLE = {
    "es": set(),
    "nl": set("-'. /@&+€0123456789²³₂") | {"Å", "å"},
    "pl": set("qvxQVX-") | set("üéöáäíëšúÉâçôşčÜ"),
    "fr": set("-'."),
    "de": set(),
}


@pytest.mark.parametrize("code", list(REFUSABLE))
def test_real_slices_fold_but_for_characters_without_a_tile(code):
    lines = (DATA / "lang" / f"{code}.txt").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 300
    folded = 0
    for line in lines:
        try:
            out = fold(line, code)
        except FoldError as e:
            assert e.char in REFUSABLE[code], (line, e.char)
            continue
        folded += 1
        assert set(out) <= set(alphabet(code).letters)
    assert folded >= 280  # the lists are words: a table that refuses many of them is wrong
