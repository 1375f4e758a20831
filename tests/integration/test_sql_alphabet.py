"""Issue 45 items 2 and 6: the three solvers keep one typed-word rule, the export's alphabet (docs/languages.md).

The dump carries the export's manifest["alphabet"] (English's for an export written before it: one fallback,
contract.export_alphabet) as the tables ladders_alphabet and ladders_language; the PHP solver folds a typed word
by them (NFC, then each character looked up) and refuses a character outside them (10, naming it). Here on
small Spanish, German and Polish exports (`foreign_export`), against the shared fold of pipeline/alphabet.py,
which is `ladders solve`'s side of the comparison until ladders/solve/question.py reads the export's alphabet
(issue 45's pipeline part), and a breadth-first oracle for the ladders' steps. The page's side:
tests/integration/test_web_alphabet.py, on the same exports and typed words.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import polars as pl
import pytest

from support import brute
from ladders.artifact.contract import alphabet_entry, export_alphabet
from ladders.artifact.sqldump import alphabet_tables, mysql_dump
from ladders.solve.question import AROUND
from support.mariadb import ladders, missing_tools, php, sql
from pipeline.alphabet import FoldError, alphabet

# Each language's small list (every word of it a list's word: upper case, in its letters) and typed pairs: a
# case, an accent the language folds, a decomposed accent (NFC), spaces around, a letter outside it.
WORDS = {
    "es": ["NIÑO", "NINO", "NIDO", "NADO", "PATO", "GATO", "GOTA"],
    "de": ["GRÜN", "GRUN", "GRAN", "MASS", "MAST", "MÄST"],
    "pl": ["ŻABA", "ZABA", "ŻABY", "ŻAB", "ZAB", "ZĄB"],
}
TYPED = {
    "es": [
        ("niño", "nido"),
        ("NIÑO", "nino"),
        ("nin\u0303o", "nado"),
        (" Nído\t", "niño"),
        ("niÇo", "nido"),
        ("maß", "nido"),
        ("ni\u00f1o", "n\u0131do"),
    ],
    "de": [
        ("grün", "gran"),
        ("GRU\u0308N", "grun"),
        ("maß", "MÄST"),
        ("mäst", "Maß"),
        ("żaba", "gran"),
        ("gr\ufb01", "gran"),
    ],
    "pl": [("żaba", "zaba"), ("ŻABA", "żaby"), ("ząb", "żab"), ("Z\u0328AB", "zab"), ("quiz", "żab"), ("café", "zab")],
}


def _placeholders(words: list[str]) -> dict[str, str]:
    """Each letter outside A-Z of `words` -> an ASCII letter none of them holds (stage 1 reads A-Z alone today)."""
    used = set("".join(words))
    free = [c for c in "QXJKVWYFHB" if c not in used]
    return dict(zip(sorted(used - set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")), free, strict=False))


def foreign_export(folder: Path, code: str, words: list[str]) -> Path:
    """An export of `words` in `code`'s alphabet, as the pipeline part will write it: built the way the tests
    build small exports (test_solver.write_export) from the words with each non-ASCII letter written as an unused
    ASCII one, then every word put back (words.parquet, ladder.sqlite, groups' and longest's words) and
    manifest["alphabet"] set per the contract. Links and groups are the same: a letter renamed throughout."""
    from support.exports import write_export

    to_ascii = _placeholders(words)
    back = {v: k for k, v in to_ascii.items()}
    ascii_words = [w.translate(str.maketrans(to_ascii)) for w in words]
    assert len(set(ascii_words)) == len(words) and all(w.isascii() for w in ascii_words)
    write_export(folder, ascii_words, ascii_words, {w: 10 for w in ascii_words})
    table = str.maketrans(back)
    for name, columns in (("words", ["word"]), ("groups", ["example"]), ("longest", ["start", "end"])):
        frame = pl.read_parquet(folder / f"{name}.parquet")
        put = [pl.col(c).map_elements(lambda w: w.translate(table), return_dtype=pl.String) for c in columns]
        frame.with_columns(put).write_parquet(folder / f"{name}.parquet")
    with sqlite3.connect(folder / "ladder.sqlite") as con:
        for word_id, word in con.execute("SELECT id, word FROM words").fetchall():
            con.execute("UPDATE words SET word = ? WHERE id = ?", (word.translate(table), word_id))
    con.close()
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["alphabet"] = alphabet_entry(alphabet(code))
    (folder / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False))
    assert sorted(pl.read_parquet(folder / "words.parquet")["word"]) == sorted(words)
    return folder


def cli_rule(export: Path, typed: str) -> str | FoldError:
    """`ladders solve`'s side: the shared fold (pipeline/alphabet.py) by the export's alphabet, after the
    ASCII whitespace around the word is dropped; the word, or the FoldError naming the character refused."""
    try:
        return export_alphabet(export).fold(typed.strip(AROUND))
    except FoldError as e:
        return e


def steps(words: list[str], a: str, b: str) -> int | None:
    """Fewest substitution steps from a to b over `words` (breadth first over every pair compared)."""
    adjacent: dict[str, set[str]] = {w: set() for w in words}
    for x, y, kind in brute.links(words):
        if kind == "sub":
            adjacent[x].add(y)
            adjacent[y].add(x)
    return brute.distances(adjacent, a).get(b)


@pytest.fixture(scope="session")
def foreign(tmp_path_factory) -> dict[str, Path]:
    """The three small exports, by language code."""
    root = tmp_path_factory.mktemp("foreign")
    return {code: foreign_export(root / code / "export", code, words) for code, words in WORDS.items()}


# ---- the dump carries the alphabet (no server needed) ------------------------------------------------


def test_the_dump_carries_the_exports_alphabet(foreign):
    """Failed before: the dump had no alphabet (the PHP solver spelled A-Z)."""
    for code, export in foreign.items():
        table, about = alphabet_tables(export)
        assert dict(table.rows()) == alphabet(code).table
        assert dict(about.rows()) == {"language": code, "name": alphabet(code).name, "letters": alphabet(code).letters}
    dump = "".join(mysql_dump(foreign["es"]))
    assert "CREATE TABLE `ladders_alphabet`" in dump and "CREATE TABLE `ladders_language`" in dump
    assert "('ñ','Ñ')" in dump and "('Á','A')" in dump  # a letter's lower case, a fold rule


def test_an_export_without_an_alphabet_is_english(foreign, tmp_path):
    """An export written before the manifest carried "alphabet": English's row of pipeline/languages.toml."""
    export = tmp_path / "export"
    export.mkdir()
    for f in foreign["pl"].iterdir():
        (export / f.name).write_bytes(f.read_bytes())
    manifest = json.loads((export / "manifest.json").read_text())
    del manifest["alphabet"]
    (export / "manifest.json").write_text(json.dumps(manifest))
    table, about = alphabet_tables(export)
    assert dict(table.rows()) == alphabet("en").table and dict(about.rows())["language"] == "en"


@pytest.mark.parametrize(
    "entry",
    [
        [],
        {"language": "es"},
        {"language": "es", "letters": "AB", "table": {"A": "A", "B": "B", "C": "C"}},
        {"language": "es", "letters": "AB", "table": {"A": "A"}},
        {"language": "es", "letters": "AB", "table": {"AB": "A", "A": "A", "B": "B"}},
    ],
)
def test_a_damaged_alphabet_is_refused_in_one_line(foreign, tmp_path, entry):
    export = tmp_path / "export"
    export.mkdir()
    for f in foreign["es"].iterdir():
        (export / f.name).write_bytes(f.read_bytes())
    manifest = json.loads((export / "manifest.json").read_text())
    manifest["alphabet"] = entry
    (export / "manifest.json").write_text(json.dumps(manifest))
    done = ladders("export-sql", "--export", str(export), "--out", str(tmp_path / "x.sql"))
    assert done.returncode == 3 and done.stderr.startswith("error: ") and len(done.stderr.splitlines()) == 1
    assert "alphabet" in done.stderr


# ---- the PHP solver against the same rule (a MariaDB server: make test-sql) --------------------------


@pytest.fixture(scope="session")
def foreign_dbs(server, foreign, tmp_path_factory) -> dict[str, str]:
    tmp = tmp_path_factory.mktemp("foreign-dumps")
    names = {}
    for code, export in foreign.items():
        dump = tmp / f"{code}.sql"
        written = ladders("export-sql", "--export", str(export), "--out", str(dump))
        assert written.returncode == 0, written.stderr
        assert sql(server, "", f"CREATE DATABASE lang_{code} CHARACTER SET utf8mb4").returncode == 0
        loaded = sql(server, f"lang_{code}", "", stdin=dump.read_text())
        assert loaded.returncode == 0, loaded.stderr
        names[code] = f"lang_{code}"
    return names


@pytest.mark.sql
@pytest.mark.parametrize("code, a, b", [(code, a, b) for code, pairs in TYPED.items() for a, b in pairs])
def test_php_folds_typed_words_as_ladders_solve(server, foreign, foreign_dbs, code, a, b):
    """Failed before: the PHP solver refused every word with a letter outside A-Z ("niño", "grün", "żaba")."""
    if missing_tools():
        pytest.skip(", ".join(missing_tools()))
    export = foreign[code]
    done = php(server, foreign_dbs[code], a, b)
    answer = json.loads(done.stdout)
    want = [cli_rule(export, w) for w in (a, b)]
    refused = next((w for w in want if isinstance(w, FoldError)), None)
    if refused is not None:
        error = answer["error"]
        assert done.returncode == 10 and error["code"] == 10 and error["char"] == refused.char
        assert error["position"] == refused.position and f"U+{ord(refused.char):04X}" in error["message"]
        assert alphabet(code).name in error["message"]
        return
    assert done.returncode == 0, done.stdout
    assert (answer["from"], answer["to"]) == tuple(want)
    assert answer["shortest"]["steps"] == steps(WORDS[code], *want)
    rungs = [w["word"] for w in answer["shortest"]["words"]]
    assert [rungs[0], rungs[-1]] == want


@pytest.mark.sql
def test_php_suggests_words_in_the_alphabets_letters(server, foreign_dbs):
    """Suggestions were A-Z by bytes: NIÑA (one letter from NIÑO) could never be suggested."""
    done = php(server, foreign_dbs["es"], "niña", "nido")
    error = json.loads(done.stdout)["error"]
    assert done.returncode == 10 and error["word"] == "NIÑA" and "NIÑO" in error["suggestions"]
