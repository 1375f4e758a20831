"""Stage 1: parsing plain lists, with the errors a maintainer would meet."""

from __future__ import annotations

import gzip
import re

import pytest

from pipeline.errors import InputFormatError
from stages.s01_lexicon import read_list

from conftest import two_lists
from support.paths import DATA


def words_of(text: bytes) -> list[str]:
    return read_list("csw", {"list.txt": text}, "plain", False)[0]["word"].to_list()


def test_tiny_lists_union_sorted_with_ids():
    csw, owl = (DATA / "tiny/csw.txt").read_bytes(), (DATA / "tiny/owl.txt").read_bytes()
    result = two_lists({"csw.txt": csw}, {"owl.txt": owl}, "plain", "plain")
    lex = result["lexicon"]
    assert lex["word"].to_list() == sorted(lex["word"].to_list())
    assert lex["id"].to_list() == list(range(lex.height))
    assert lex.height == 17
    assert lex.filter(~lex["list_owl"])["word"].to_list() == ["COT"]
    assert lex["list_csw"].all()
    assert "csw.txt: 17 words (plain), 1 duplicate line" in result["notes"]


def test_bom_crlf_case_blank_and_comment_lines():
    text = "\ufeff# a comment\r\ncat\r\n\r\n  Dog  \r\n#another\r\nEEL".encode()
    assert words_of(text) == ["CAT", "DOG", "EEL"]


def test_owl_word_missing_from_csw_is_kept_and_counted():
    result = two_lists({"c": b"CAT\n"}, {"o": b"CAT\nDOG\n"}, "plain", "plain")
    lex = result["lexicon"]
    assert lex.select("word", "list_csw", "list_owl").rows() == [("CAT", True, True), ("DOG", False, True)]
    assert "1 OWL word is not in CSW (kept)" in result["notes"]


@pytest.mark.parametrize(
    "line, shown",
    [
        ("c4t", "'c4t' is not a word of letters A-Z ('4', column 2)"),
        ("ice cream", "'ice cream' is not a word of letters A-Z (' ', column 4)"),
        ("don't", '"don\'t" is not a word of letters A-Z ("\'", column 4)'),
        ("café", "'café' is not a word of letters A-Z ('é', column 4)"),
        ("nul\x00byte", "'nul\\x00byte' is not a word of letters A-Z ('\\x00', column 4)"),
        ("straße", "'straße' is not a word of letters A-Z ('ß', column 5)"),
    ],
)
def test_bad_word_names_file_line_character_and_text(line, shown):
    with pytest.raises(InputFormatError) as err:
        words_of(f"good\n# comment\n{line}\nfine\n".encode())
    assert str(err.value) == f"list.txt, line 3: {shown} (--lenient skips such lines and lists them)"


def test_long_bad_line_is_shortened_in_the_message():
    with pytest.raises(InputFormatError, match=r"line 1: 'a{60}\.\.\.' is not a word") as err:
        words_of(b"a" * 10_000_000 + b"1\n")
    assert len(str(err.value)) < 200


def test_not_utf8_names_the_line():
    with pytest.raises(InputFormatError, match=r"list.txt, line 2: not UTF-8 text \(byte 0xe9 at offset 7\)"):
        words_of(b"cat\ncaf\xe9\n")


@pytest.mark.parametrize("text", [b"", b"\n\n", b"# only a comment\n"])
def test_empty_lexicon_is_an_error(text):
    with pytest.raises(InputFormatError, match="list.txt: no words in the file"):
        words_of(text)


def test_unixdict_rejects_its_first_non_word_with_its_line():
    text = (DATA / "unixdict.txt").read_bytes()
    lines = text.decode().split("\n")
    first_bad = next(i for i, w in enumerate(lines, 1) if w and not re.fullmatch("[A-Za-z]+", w))
    with pytest.raises(InputFormatError, match=rf"line {first_bad}: '10th'"):
        words_of(text)


def test_knuth_words_all_parse():
    lines = gzip.decompress((DATA / "words_dat.txt.gz").read_bytes()).decode().splitlines()
    plain = "\n".join(line[:5] for line in lines if not line.startswith("*")).encode()
    assert len(words_of(plain)) == 5757


@pytest.mark.parametrize("letters", [65, 256, 10_000_000])
def test_word_too_long_for_the_export_is_a_word_level_error(letters):
    """The export stores length as u8 and links cost per letter: 64 letters is the bound, stated."""
    with pytest.raises(
        InputFormatError, match=rf"list.txt, line 2: 'A{{60}}\.\.\.' has {letters:,} letters \(at most 64\)"
    ):
        words_of(b"cat\n" + b"A" * letters + b"\n")
    assert sorted(words_of(b"cat\n" + b"A" * 64 + b"\n")) == ["A" * 64, "CAT"]
