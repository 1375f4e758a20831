"""Text from a list is data, never markup or a command, wherever it goes.

Stage 1 removes control characters, terminal escape sequences and invisible
formatting characters from the lists' definitions (a warning row per line);
every command that prints escapes whatever could remain, so that nothing below
U+0020 but the newline, nothing in U+007F-U+009F and no invisible formatting
character reaches a terminal from data. The payloads are tests/data/hostile/payloads.json.
"""

from __future__ import annotations

import json
import sys
import unicodedata

import polars as pl

from conftest import two_lists

from support.hostile import HOSTILE, TERMINAL, naspa, unsafe_characters
from support.paths import DATA
from pipeline.terminal import UNSAFE, inert
from stages.sources.wordlists import UNSEEN_REASON


def test_the_escaping_class_is_exactly_the_unicode_categories():
    """pipeline/terminal.py spells the class out (a solve must not scan unicodedata at start);
    it must hold every Cc, Cf, Zl, Zp and Cs character of this Python's Unicode but the newline, and nothing else."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        assert bool(UNSAFE.fullmatch(char)) == bool(unsafe_characters(char)), hex(code)


def test_the_polars_pattern_is_the_same_rule():
    """UNSEEN (stage 1's removal, polars' regex) and UNSAFE (inert's escaping, Python's re) are one rule:
    they agree on every character a string can hold but the newline, which only inert leaves alone, and
    characters this Python's Unicode has not assigned yet (polars' regex knows a newer Unicode: in 1.x,
    U+13439..U+1343F, Egyptian format controls of Unicode 15), which only stage 1 removes."""
    from pipeline.terminal import UNSEEN

    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF and c != 0x0A]
    matched = pl.Series(chars).str.contains(UNSEEN).to_list()
    differ = [c for c, m in zip(chars, matched) if m != bool(UNSAFE.fullmatch(c))]
    assert all(UNSAFE.fullmatch(c) is None and unicodedata.category(c) == "Cn" for c in differ), differ[:5]
    assert pl.Series(["\n"]).str.contains(UNSEEN).item()


def test_inert_escapes_as_json_does_and_reads_back():
    for text in TERMINAL + HOSTILE["sql"]:
        shown = inert(text)
        assert not unsafe_characters(shown)
        assert json.loads(inert(json.dumps(text, ensure_ascii=False))) == text


WORDS = [f"Q{chr(65 + i)}Z" for i in range(len(TERMINAL))]


def test_stage_1_removes_controls_and_invisible_characters_with_a_warning_per_line():
    clean = "ZZZ a plain definition [n]\n".encode()
    result = two_lists({"csw.txt": naspa(WORDS, TERMINAL) + b"\n" + clean}, {"owl.txt": b"QAZ\n"}, "naspa", "plain")
    lexicon = result["lexicon"]
    assert sorted(lexicon["word"]) == sorted(WORDS + ["ZZZ"])  # no word lost
    texts = lexicon.explode("csw_senses").unnest("csw_senses")["text"].drop_nulls().to_list()
    assert all(not unsafe_characters(t) for t in texts), [t for t in texts if unsafe_characters(t)]
    assert "a plain definition" in texts and "red RED text" in texts and "a hyperlink here" in texts
    assert "bidi override evil text" in texts  # the override removed, the words kept
    warned = result["warnings"].filter(pl.col("reason") == UNSEEN_REASON)
    assert sorted(warned["line"]) == list(range(1, len(TERMINAL) + 1))  # one row per line, not the clean one
    for text in result["warnings"]["text"]:  # the table shows where they were, and is itself safe to print
        assert not unsafe_characters(text)
    assert "\ufffd" in warned["text"][0]


def test_stage_1_leaves_out_a_definition_too_long_for_a_sql_packet():
    """A 20,000-byte definition is damage: the word is kept without it, and the line is warned about (a
    9 MB one broke the MySQL load: `Server has gone away`)."""
    from stages.sources.wordlists import MAX_DEFINITION_BYTES, TOO_LONG_REASON

    listing = f"DOG {'a' * (MAX_DEFINITION_BYTES + 1)} [n]\nCAT a small feline [n]\n".encode()
    result = two_lists({"csw.txt": listing}, {"owl.txt": b"CAT\n"}, "naspa", "plain")
    senses = dict(result["lexicon"].select("word", "csw_senses").rows())
    assert senses["DOG"] is None and senses["CAT"] is not None
    assert result["warnings"].filter(pl.col("reason") == TOO_LONG_REASON)["line"].to_list() == [1]


def test_stage_2_cleans_the_dictionaries_text_too(tmp_path):
    """Only the lists' text was cleaned: an ESC, a BEL or a bidi override in WordNet (or GCIDE) reached
    words.parquet, ladder.sqlite and the web data."""
    from conftest import lexicon_of
    from stages.s02_definitions import build_definitions

    wordnet = {f"wordnet/{p.name}": p.read_bytes() for p in (DATA / "tiny/wordnet").iterdir()}
    data = wordnet["wordnet/data.noun"].decode()
    assert "a mild viral infection" in data
    wordnet["wordnet/data.noun"] = data.replace(
        "a mild viral infection", "a mild \x1b[2J\x07\u202e viral infection"
    ).encode()
    table = build_definitions(
        lexicon_of(["COLD"], ["COLD"]), wordnet, {"s.txt": b"AND joining words [conj]\n"}, ["wordnet"]
    )["definitions"]
    text = table["definition"][0]
    assert "a mild viral infection" in text and not unsafe_characters(text)


def test_the_sql_dump_cuts_its_inserts_by_bytes():
    from ladders.artifact.sqldump import BATCH_BYTES, _inserts

    frame = pl.DataFrame({"id": [1, 2, 3], "definition": ["x" * (BATCH_BYTES // 2)] * 3})
    statements = list(_inserts("words", frame))
    assert len(statements) == 3 and all(len(s.encode()) < BATCH_BYTES + 100 for s in statements)
