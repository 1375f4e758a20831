"""Text from a list is data wherever a build takes it (tests/data/hostile/payloads.json, built through the CLI):
the export holds no control or invisible character, and every command that prints data (solve, --json, diff,
export-sql, error messages) prints it inert. Stage 1's and 2's cleaning and the escaping rule itself:
tests/unit/pipeline/test_hostile_text.py."""

from __future__ import annotations

import json
import shutil
import sqlite3

import polars as pl
import pytest
from typer.testing import CliRunner


from support.hostile import TERMINAL, naspa, unsafe_characters
from support.paths import DATA
from ladders.cli import app

cli = CliRunner()


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
