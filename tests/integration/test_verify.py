"""`ladders verify` checks the data, not the manifest's word for it: a tamperer who rehashes the
manifest is still caught."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import polars as pl

from conftest import build


def _rehash(export: Path) -> None:
    """Make manifest.json agree with the files as they now are: a tamperer's cover-up."""
    import hashlib

    manifest = json.loads((export / "manifest.json").read_text())
    for name, entry in manifest["files"].items():
        if (export / name).is_file():
            entry["sha256"] = hashlib.sha256((export / name).read_bytes()).hexdigest()
    (export / "manifest.json").write_text(json.dumps(manifest))


def _codes(export: Path) -> set[str]:
    from ladders.artifact.verify import verify

    return {code for code, _, _ in verify(export)}


def test_verify_finds_a_link_removed_everywhere_with_the_manifest_rehashed(tiny, tmp_path):
    from pipeline.sqlite import sqlite_bytes

    assert build(tiny).exit_code == 0
    export = tmp_path / "export"
    shutil.copytree(tiny / "build/export", export)
    words = pl.read_parquet(export / "words.parquet")
    cat, cot = (words.filter(pl.col("word") == w)["id"].item() for w in ("CAT", "COT"))
    words = words.with_columns(
        pl.col("links")
        .list.set_difference(
            pl.when(pl.col("id") == cat)
            .then(pl.lit([cot], pl.List(pl.UInt32)))
            .when(pl.col("id") == cot)
            .then(pl.lit([cat], pl.List(pl.UInt32)))
            .otherwise(pl.lit([], pl.List(pl.UInt32)))
        )
        .list.sort()
    )
    words.write_parquet(export / "words.parquet")
    (export / "ladder.sqlite").write_bytes(sqlite_bytes(words))  # the damaged lists, as a tamperer would
    _rehash(export)
    assert "E108" in _codes(export)


def test_verify_finds_a_dropped_index_and_a_manifest_entry_deleted(tiny, tmp_path):
    import sqlite3

    assert build(tiny).exit_code == 0
    export = tmp_path / "export"
    shutil.copytree(tiny / "build/export", export)
    con = sqlite3.connect(export / "ladder.sqlite")
    con.execute("DROP INDEX words_group_csw")
    con.commit()
    con.close()
    _rehash(export)
    assert _codes(export) == {"E401"}
    manifest = json.loads((export / "manifest.json").read_text())
    del manifest["files"]["groups.parquet"]
    (export / "manifest.json").write_text(json.dumps(manifest))
    assert "E004" in _codes(export)


def _undefined_words(n: int) -> list[str]:
    """n words that sort before every tiny word and link to none: AA + four letters + a check letter (the
    four letters' sum mod 26), so two of them differ in at least two places (no substitution link), and all
    are 7 letters long (no insert/delete link): each is a group of one, with no definition."""
    import itertools
    import string

    letters = string.ascii_uppercase
    quads = itertools.islice(itertools.product(range(26), repeat=4), n)
    return ["AA" + "".join(letters[i] for i in q) + letters[sum(q) % 26] for q in quads]


def test_verify_holds_a_good_export_whose_first_1024_words_have_no_definition(tiny):
    """Issue 42 item 2: a lexicon from csw with an add-list of 1,500 undefined words AAA... sorting first. The
    ADBC reader guessed each column's type from the first 1,024 rows (all null: INT64), then met a definition:
    `E401 ... Type mismatch in column 11`, and `ladders release` refused a good export. Failed before."""
    (tiny / "added.txt").write_text("\n".join(_undefined_words(1500)) + "\n")
    with (tiny / "config.toml").open("a") as f:
        f.write('[lexicons.big]\nfrom = "csw"\nadd = "added.txt"\n')
    result = build(tiny)
    assert result.exit_code == 0, result.output
    words = pl.read_parquet(tiny / "build/export/words.parquet")
    assert words["definition"].head(1500).null_count() == 1500 and words["definition"].drop_nulls().len() > 0
    assert words["definition_source"].head(1500).null_count() == 1500
    from ladders.artifact.verify import verify

    assert verify(tiny / "build/export") == []
    # and E401 still tells a changed row after the first 1,024 from an equal one: the reader is not blind there
    import sqlite3

    export = tiny / "build/export"
    con = sqlite3.connect(export / "ladder.sqlite")
    con.execute(
        "UPDATE words SET definition = 'tampered' WHERE id = (SELECT max(id) FROM words WHERE definition IS NOT NULL)"
    )
    con.execute("UPDATE words SET rareness = 'many' WHERE id = 1200")  # a value of another type than declared
    con.commit()
    con.close()
    _rehash(export)
    failed = {code: examples for code, _, examples in verify(export)}
    assert set(failed) == {"E401"} and len(failed["E401"]) == 2, failed
