"""`solve` checks the group it loads from ladder.sqlite (issue 42, item 5): a hand-damaged file is refused
with exit 3 naming the damage, never answered with a wrong ladder nor an "unexpected" error."""

from __future__ import annotations

import json
import shutil
import sqlite3

import pytest

from conftest import invoke

# (what is damaged, the SQL that damages the tiny export, the pair solved, what the message names)
DAMAGES = [
    # DOT moved to another group: CAT->DOG was answered through COG alone, exit 0
    ("a word moved out", "UPDATE words SET group_csw = 9999 WHERE word = 'DOT'", ("cat", "dog"), "another group"),
    # DOT and COG moved: CAT and DOG shared a group no link joined ("unexpected Unreachable")
    (
        "two words moved out",
        "UPDATE words SET group_csw = 9999 WHERE word IN ('DOT', 'COG')",
        ("cat", "dog"),
        "another group",
    ),
    # DOG moved to COLD's group: "different groups", exit 12, where a ladder exists
    (
        "an end moved",
        "UPDATE words SET group_csw = (SELECT group_csw FROM words WHERE word = 'COLD') WHERE word = 'DOG'",
        ("cat", "dog"),
        "DOG (group_csw",
    ),
    # BARK put in COLD's group, links unchanged: one group id over two groups
    (
        "two groups under one id",
        "UPDATE words SET group_csw = (SELECT group_csw FROM words WHERE word = 'COLD') WHERE word = 'BARK'",
        ("cold", "bark"),
        "no link joins them",
    ),
    ("a rareness past u32", "UPDATE words SET rareness = 4294967296 WHERE word = 'COT'", ("cat", "dog"), "rareness"),
    ("a rareness of text", "UPDATE words SET rareness = 'x' WHERE word = 'COT'", ("cat", "dog"), "declared u32"),
    ("a level past u8", "UPDATE words SET scowl_level = 300 WHERE word = 'COT'", ("cat", "dog"), "scowl_level"),
    ("a flag of 2", "UPDATE words SET offensive = 2 WHERE word = 'COT'", ("cat", "dog"), "offensive"),
    ("a group of another lexicon", "UPDATE words SET in_csw = 0 WHERE word = 'COG'", ("cat", "dog"), "in_csw"),
    ("links not JSON", "UPDATE words SET links = 'oops' WHERE word = 'COT'", ("cat", "dog"), "JSON array"),
    ("links of text ids", """UPDATE words SET links = '["1"]' WHERE word = 'COT'""", ("cat", "dog"), "JSON array"),
    ("a link to no row", "UPDATE words SET links = '[99999]' WHERE word = 'COG'", ("cat", "dog"), "id 99999"),
    # Hostile pass: links that are no one-letter steps answered wrong ladders with exit 0
    (
        "a link two letters away",
        "UPDATE words SET links = json_insert(links, '$[#]', (SELECT id FROM words WHERE word = 'DOG')) "
        "WHERE word = 'CAT'; UPDATE words SET links = json_insert(links, '$[#]', "
        "(SELECT id FROM words WHERE word = 'CAT')) WHERE word = 'DOG'",
        ("cat", "dog"),
        "not one letter away",
    ),
    (
        "a link one way only",
        "UPDATE words SET links = (SELECT json_group_array(value) FROM json_each(links) WHERE value != "
        "(SELECT id FROM words WHERE word = 'CAT')) WHERE word = 'COT'",
        ("cat", "dog"),
        "does not link back",
    ),
    ("a word of another length", "UPDATE words SET word = 'DOOT' WHERE word = 'DOT'", ("cat", "dog"), "one letter"),
    (
        "a word not A-Z",
        "UPDATE words SET word = 'CO' || char(27) || 'G' WHERE word = 'COG'",
        ("cat", "dog"),
        "not a word",
    ),
]


def damaged(tiny_export, tmp_path, *sql: str):
    folder = tmp_path / "export"
    shutil.copytree(tiny_export, folder)
    with sqlite3.connect(folder / "ladder.sqlite") as db:
        for statement in sql:
            db.executescript(statement)
    db.close()
    return folder


@pytest.mark.parametrize("what, sql, pair, named", DAMAGES, ids=[d[0] for d in DAMAGES])
def test_a_damaged_group_is_refused_with_exit_3_naming_the_damage(tiny_export, tmp_path, what, sql, pair, named):
    assert invoke("solve", *pair, "--no-clean", "--export", str(tiny_export)).exit_code in (0, 12)  # sound before
    folder = damaged(tiny_export, tmp_path, sql)
    result = invoke("solve", *pair, "--no-clean", "--export", str(folder))
    assert result.exit_code == 3, result.output
    assert result.stderr.startswith("error: ") and len(result.stderr.splitlines()) == 1
    assert "is damaged" in result.stderr and named in result.stderr
    assert "unexpected" not in result.stderr and "\x1b" not in result.stderr
    as_json = invoke("solve", *pair, "--json", "--export", str(folder))
    assert as_json.exit_code == 3 and json.loads(as_json.stdout)["error"]["code"] == 3


@pytest.mark.parametrize("word", ["COT", "CAT"])  # a word of the group, and a typed word
def test_a_duplicated_word_row_is_refused(tiny_export, tmp_path, word):
    columns = [r[1] for r in sqlite3.connect(tiny_export / "ladder.sqlite").execute("PRAGMA table_info(words)")]
    copied = ", ".join(
        "(SELECT max(id) + 1 FROM words)" if c == "id" else "200000" if c == "rareness" else c for c in columns
    )
    folder = damaged(
        tiny_export,
        tmp_path,
        "DROP INDEX words_word",
        f"INSERT INTO words SELECT {copied} FROM words WHERE word = '{word}'",
    )
    result = invoke("solve", "cat", "dog", "--export", str(folder))
    assert result.exit_code == 3, result.output
    assert f"{word} has two rows" in result.stderr


def test_an_owl_group_keeps_its_csw_only_neighbours_without_complaint(tiny_export):
    # OWL lacks COT: DOT's and COG's lists name it, a word outside the lexicon, not damage.
    result = invoke("solve", "dog", "cog", "--lexicon", "owl", "--export", str(tiny_export))
    assert result.exit_code == 0, result.output
    assert invoke("solve", "cat", "dog", "--lexicon", "owl", "--export", str(tiny_export)).exit_code == 12


@pytest.mark.parametrize("entries", [[7], [{"title": "no name"}], [{"name": 5}]])
def test_a_manifest_whose_lexicons_are_not_named_is_refused_as_damaged(tiny_export, tmp_path, entries):
    """The manifest's lexicon list is read by one reader (contract.manifest_lexicons, verify's too); an entry
    without a name made solve fail with an internal error (a TypeError or KeyError), not exit 3."""
    folder = damaged(tiny_export, tmp_path)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["lexicons"] = entries
    (folder / "manifest.json").write_text(json.dumps(manifest))
    result = invoke("solve", "cat", "dog", "--export", str(folder))
    assert result.exit_code == 3, result.output
    assert "lexicons" in result.output
