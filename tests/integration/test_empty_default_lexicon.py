"""A default lexicon that ends empty (issue 42, item 8): lists of made-up words, or of another language, hold
no word of SCOWL's main lists, so the built-in `everyday` (csw's SCOWL words) holds none. It is said once as a
warning and left out of everything downstream: groups, analysis, words.parquet's columns, groups.parquet,
longest.parquet, the manifest, summary.txt, ladder.sqlite, the MySQL dump and the page. An empty lexicon the
user wrote stays an error (exit 2). The dump in a real MariaDB: tests/integration/test_sql_empty_default.py."""

from __future__ import annotations

import json
import random
import sqlite3

import polars as pl

from conftest import invoke

WARNING = (
    "warning: lexicon 'everyday' holds no word of this build: left out (it is a default; drop it with "
    "everyday = false to silence this)"
)
LADDER = ("QZQZ", "QZQX", "QXQX")  # a ladder of made-up words, so that solve has one to find


def made_up_words(tiny) -> list[str]:
    """Give the tiny copy lists of words SCOWL has none of (made up: Q, X, Z, J, V); returns them."""
    rng = random.Random(3)
    words = sorted({"".join(rng.choice("QXZJV") for _ in range(4)) for _ in range(60)} | set(LADDER))
    for name in ("csw.txt", "owl.txt"):
        (tiny / name).write_text("\n".join(words) + "\n")
    return words


def _config(tiny) -> str:
    return str(tiny / "config.toml")


def _no_everyday(text: str) -> bool:
    """No column of the lexicon everyday (in_everyday, group_everyday, group_everyday_edit), nor its name as a
    value or heading. Other senses of the word stay: the dump's `everyday_cost` and the page's `"everyday":`
    (the common-word rule), the summary's "everyday words" (labelled common)."""
    for other in ("everyday_cost", '"everyday":', "everyday words"):
        text = text.replace(other, "")
    return "everyday" not in text


def test_a_default_lexicon_that_ends_empty_is_left_out_of_everything_downstream(tiny):
    """It was a warning, and the export still carried the empty lexicon: in_everyday all false, its group
    columns all null, and groups.parquet, longest.parquet, the manifest, the dump and the page listed it."""
    made_up_words(tiny)
    built = invoke("build", "--with", "sql,web", "--config", _config(tiny))
    assert built.exit_code == 0, built.stderr
    assert built.stderr.count("lexicon 'everyday'") == 1 and f"    {WARNING}\n" in built.stderr
    export = tiny / "build/export"
    words = pl.read_parquet(export / "words.parquet")
    assert [c for c in words.columns if "everyday" in c] == []
    assert {c for c in words.columns if c.startswith(("in_", "group_"))} == {
        "in_csw", "in_owl", "group_csw", "group_owl", "group_csw_edit", "group_owl_edit"
    }  # fmt: skip
    for name in ("groups.parquet", "longest.parquet"):
        assert set(pl.read_parquet(export / name)["lexicon"]) == {"csw", "owl"}, name
    manifest = json.loads((export / "manifest.json").read_text())
    assert [entry["name"] for entry in manifest["lexicons"]] == ["csw", "owl"]
    assert _no_everyday(json.dumps(manifest["counts"])) and _no_everyday(json.dumps(manifest["columns"]))
    assert "everyday_words" not in manifest["counts"] and set(manifest["counts"]["groups"]) == {"csw", "owl"}
    assert _no_everyday((export / "summary.txt").read_text())
    with sqlite3.connect(export / "ladder.sqlite") as db:
        schema = " ".join(sql for (sql,) in db.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL"))
    assert "group_csw" in schema and _no_everyday(schema)
    dump = (tiny / "build/ladder-mysql.sql").read_text()
    assert "group_csw" in dump and _no_everyday(dump)
    page = json.loads((tiny / "build/web/data/manifest.json").read_text())
    assert page["lexicons"] == ["csw", "owl"]
    for path in (tiny / "build/web/data").rglob("*.json"):  # the page's data (its text speaks of everyday words)
        assert _no_everyday(path.read_text()), path
    verified = invoke("verify", "--config", _config(tiny))
    assert verified.exit_code == 0, verified.stdout + verified.stderr
    solved = invoke("solve", LADDER[0], LADDER[-1], "--lexicon", "csw", "--json", "--config", _config(tiny))
    assert solved.exit_code == 0, solved.stderr
    assert [w["word"] for w in json.loads(solved.stdout)["shortest"]["words"]] == list(LADDER)
    refused = invoke("solve", LADDER[0], LADDER[-1], "--lexicon", "everyday", "--config", _config(tiny))
    assert refused.exit_code == 2 and refused.stderr.startswith("error: ")


def test_a_lexicon_the_user_derives_from_an_empty_default_is_built_without_it(tiny):
    """A lexicon of the user's own, `from = "everyday"` with an add-list, holds the add-list's words: it is
    built (its parent left out), verify passes; without its add-list it is empty, the user's own: exit 2."""
    made_up_words(tiny)
    (tiny / "more.txt").write_text(f"{LADDER[0]}\n{LADDER[1]}\n")
    with (tiny / "config.toml").open("a") as f:
        f.write('[lexicons.kids]\nfrom = "everyday"\nadd = "more.txt"\n')
    built = invoke("build", "--config", _config(tiny))
    assert built.exit_code == 0, built.stderr
    assert f"    {WARNING}\n" in built.stderr
    manifest = json.loads((tiny / "build/export/manifest.json").read_text())
    assert [entry["name"] for entry in manifest["lexicons"]] == ["csw", "owl", "kids"]
    assert manifest["counts"]["kids_words"] == 2 and manifest["counts"]["longest_ladder"]["kids"]["sub"] == 1
    verified = invoke("verify", "--config", _config(tiny))
    assert verified.exit_code == 0, verified.stdout + verified.stderr
    (tiny / "config.toml").write_text((tiny / "config.toml").read_text().replace('add = "more.txt"\n', ""))
    refused = invoke("build", "--config", _config(tiny))
    assert refused.exit_code == 2
    assert refused.stderr.splitlines()[-1].startswith("error: lexicon 'kids' holds no word once made")


def test_an_empty_lexicon_the_user_wrote_stays_an_error_even_named_everyday(tiny):
    made_up_words(tiny)
    with (tiny / "config.toml").open("a") as f:
        f.write('[lexicons.everyday]\nfrom = "csw"\nmax_scowl_level = 35\n')
    built = invoke("build", "--config", _config(tiny))
    assert built.exit_code == 2 and "left out" not in built.stderr
    assert built.stderr.splitlines()[-1].startswith("error: lexicon 'everyday' holds no word once made")


def test_a_groups_table_without_a_lexicon_the_user_wrote_is_still_a_schema_error(tiny):
    """Only a default lexicon may be missing from 05_groups.parquet (left out when empty): a table that lacks
    csw's columns is refused when stage 6 reads it, as before."""
    assert invoke("build", "--quiet", "--config", _config(tiny)).exit_code == 0
    path = tiny / "build/05_groups.parquet"
    groups = pl.read_parquet(path)
    assert "in_everyday" in groups.columns  # the tiny lists hold SCOWL words: everyday is made
    groups.drop("in_csw", "group_csw", "group_csw_edit").write_parquet(path)
    refused = invoke("run", "6", "--force", "--config", _config(tiny))
    assert refused.exit_code == 3 and "in_csw: missing" in refused.stderr, refused.stderr
