"""Text from a list is data, never markup or a command, wherever it goes.

Stage 1 removes control characters, terminal escape sequences and invisible
formatting characters from the lists' definitions (a warning row per line);
every command that prints escapes whatever could remain, so that nothing below
U+0020 but the newline, nothing in U+007F-U+009F and no invisible formatting
character reaches a terminal from data. The payloads are tests/data/hostile/payloads.json.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import sys
import unicodedata

import polars as pl
import pytest
from typer.testing import CliRunner

from conftest import DATA, two_lists
from ladders.cli import app
from pipeline.terminal import UNSAFE, inert
from stages.sources.wordlists import UNSEEN_REASON

cli = CliRunner()
HOSTILE = json.loads((DATA / "hostile/payloads.json").read_text())
TERMINAL = HOSTILE["terminal"] + HOSTILE["invisible"]


def unsafe_characters(text: str) -> list[str]:
    """The oracle, from unicodedata rather than our regex: what a terminal may act on or hide."""
    # Cs: a lone surrogate, the bytes of a file name that are not UTF-8, which no output encoding writes
    return [c for c in text if c != "\n" and (unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs"))]


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


def naspa(words: list[str], texts: list[str]) -> bytes:
    """A NASPA list: each word with a hostile definition (its newlines made spaces: one line each)."""
    return "\n".join(f"{w} {t.replace(chr(10), ' ')} [n]" for w, t in zip(words, texts)).encode()


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


@pytest.fixture(scope="module")
def hostile_build(tmp_path_factory):
    """The tiny dictionary with its CSW list given hostile definitions, built; and a copy of its export
    whose definitions (ladder.sqlite and words.parquet) are the raw payloads, as a hand-edited export
    or another source could hold them, for the printers."""
    root = tmp_path_factory.mktemp("hostile") / "tiny"
    shutil.copytree(DATA / "tiny", root)
    words = [w for w in (root / "csw.txt").read_text().split() if not w.startswith("#") and w.isalpha()]
    words = [w for w in words if w.lower() in {"cat", "cot", "dot", "dog", "cog", "cold", "cord", "mouse"}]
    texts = (TERMINAL * 2)[: len(words)]
    (root / "csw.txt").write_bytes(naspa(words, texts))
    (root / "config.toml").write_text(
        'csw = "csw.txt"\nowl = "owl.txt"\nscowl = "scowl"\nwordnet = "wordnet"\nsupplement = "supplement.txt"\n'
        'gcide = "gcide"\noffensive = "offensive.txt"\nbuild_dir = "build"\n'
    )
    built = cli.invoke(app, ["build", "--quiet", "--config", str(root / "config.toml")])
    assert built.exit_code == 0, built.output
    raw = root / "raw-export"
    shutil.copytree(root / "build/export", raw)
    frame = pl.read_parquet(raw / "words.parquet")
    payloads = {w: TERMINAL[i % len(TERMINAL)] for i, w in enumerate(frame["word"])}
    frame.with_columns(pl.Series("definition", [payloads[w] for w in frame["word"]])).write_parquet(
        raw / "words.parquet"
    )
    with sqlite3.connect(raw / "ladder.sqlite") as db:
        db.executemany("UPDATE words SET definition = ? WHERE word = ?", [(t, w) for w, t in payloads.items()])
    db.close()
    return root / "build/export", raw, payloads


def test_a_built_export_holds_no_control_or_invisible_character(hostile_build):
    export, _, _ = hostile_build
    definitions = pl.read_parquet(export / "words.parquet")["definition"].drop_nulls().to_list()
    assert definitions and all(not unsafe_characters(d) for d in definitions)
    with sqlite3.connect(export / "ladder.sqlite") as db:
        stored = [d for (d,) in db.execute("SELECT definition FROM words WHERE definition IS NOT NULL")]
    db.close()
    assert all(not unsafe_characters(d) for d in stored)


def _printed(*args: str) -> str:
    result = cli.invoke(app, list(args))
    return result.stdout + result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "cat", "dog"],
        ["solve", "cat", "dog", "--all"],
        ["solve", "cold", "cord"],
        ["verify"],
        ["puzzle", "--length", "3", "--steps", "2"],
    ],
)
def test_printed_data_is_inert_in_every_command(hostile_build, args):
    _, raw, _ = hostile_build
    out = _printed(*args, *([str(raw)] if args == ["verify"] else ["--export", str(raw)]))
    assert out and not unsafe_characters(out), [c for c in unsafe_characters(out)]
    if args[:1] == ["solve"] and "--all" not in args:
        assert "\\u001b" in out or "\\u202e" in out or "\\u009b" in out  # shown escaped, not dropped


def test_diff_prints_changed_definitions_inert(hostile_build):
    export, raw, _ = hostile_build
    out = _printed("diff", str(export), str(raw))
    assert "definitions changed" in out and not unsafe_characters(out)
    as_json = cli.invoke(app, ["diff", str(export), str(raw), "--json"])
    assert not unsafe_characters(as_json.stdout) and "\\u202e" in as_json.stdout  # json.dumps leaves it raw
    changed = {d["word"]: d["new"] for d in json.loads(as_json.stdout)["definitions"]}
    assert changed and all(changed[w] == hostile_build[2][w] for w in changed)


def test_solve_json_is_inert_and_reads_back_the_exact_text(hostile_build):
    _, raw, payloads = hostile_build
    result = cli.invoke(app, ["solve", "cat", "dog", "--json", "--export", str(raw)])
    assert result.exit_code == 0, result.output
    assert not unsafe_characters(result.stdout)
    for rung in json.loads(result.stdout)["shortest"]["words"]:
        assert rung["definition"] == payloads[rung["word"]]


def test_error_messages_are_inert(hostile_build, tmp_path):
    folder = tmp_path / "a\x1b]0;title\x07\u202efolder"
    result = cli.invoke(app, ["solve", "cat", "dog", "--export", str(folder)])
    assert result.exit_code == 3 and not unsafe_characters(result.stderr) and "\\u001b" in result.stderr


def test_the_sql_dump_printed_to_a_terminal_is_inert(hostile_build):
    """`ladders export-sql --out -` may land on a terminal: hostile text goes as hex literals."""
    _, raw, _ = hostile_build
    result = cli.invoke(app, ["export-sql", "--export", str(raw), "--out", "-"])
    assert result.exit_code == 0 and "_utf8mb4 X'" in result.stdout
    assert not unsafe_characters(result.stdout.replace("\n", ""))


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
