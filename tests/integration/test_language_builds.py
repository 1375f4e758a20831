"""Issue 45's builds in one language (config `language`, docs/languages.md) through the CLI: a real slice of
each list (tests/data/lang/) built end to end and solved, a wrong language key refused in one line (exit 2), and
verify and solve where the alphabet's order is not the code points'. The wiring on in-memory lists:
tests/unit/stages/test_languages.py."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from conftest import invoke
from support.paths import DATA
from pipeline.config import load_config
from pipeline.errors import ConfigError

LANG = DATA / "lang"


def write_config(folder: Path, lines: str) -> Path:
    config = folder / "lang.toml"
    config.write_text(lines)
    return config


BASE = """language = "{code}"
rareness_source = "wordfreq"
wordfreq = "package:wordfreq/data/large_{code}.msgpack.gz"
scowl = false
wordnet = false
gcide = false
supplement = false
offensive = false
cuss = false
lenient = true
{extra}
[lexicons]
csw = false
owl = false
[lexicons.{code}]
file = "{list}"
format = "plain"
[lexicons.everyday]
from = "{code}"
"""


@pytest.mark.parametrize(
    ("change", "complaint"),
    [
        ('language = "xx"', "key 'language': must be a language code"),
        ('wordfreq = "package:wordfreq/data/large_en.msgpack.gz"', "is not the list of language 'es'"),
        ("definition_sources = []", "key 'definition_sources'"),
        ("freedict = false", "names freedict, but key 'freedict' is false"),
        ("drop_capitalised = 1", "drop_capitalised must be true or false"),
        ('rareness_source = "zipf"', "key 'rareness_source': must be one of scowl, wordfreq"),
    ],
)
def test_a_wrong_language_key_is_one_line_and_exit_2(tmp_path, change, complaint):
    extra = f'freedict = "{LANG / "freedict"}"\ndefinition_sources = ["freedict"]'
    text = BASE.format(code="es", list=LANG / "es.txt", extra=extra)
    key = change.split(" = ")[0]
    if key == "drop_capitalised":
        text = text.replace('format = "plain"\n', f'format = "plain"\n{change}\n', 1)
    else:
        text = "\n".join(change if line.startswith(key + " = ") else line for line in text.splitlines())
        text = text if change in text else change + "\n" + text
    config = write_config(tmp_path, text)
    with pytest.raises(ConfigError, match=complaint):
        load_config(config)
    result = invoke("build", "--quiet", "--config", str(config), "--build-dir", str(tmp_path / "b"))
    assert result.exit_code == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.parametrize("code", ["es", "nl", "pl", "fr", "de"])
def test_a_real_slice_of_each_list_builds_and_solves(tmp_path, code):
    freedict = None
    if code in ("es", "pl"):  # the slices of two dictionaries: one folder each, as raw/<code>/ holds one
        freedict = tmp_path / "freedict"
        freedict.mkdir()
        for part in (LANG / "freedict").glob(f"freedict-{'spa' if code == 'es' else 'pol'}-eng.*"):
            (freedict / part.name).write_bytes(part.read_bytes())
    extra = (
        f'freedict = "{freedict}"\ndefinition_sources = ["freedict"]'
        if freedict
        else f'definition_sources = ["{code}"]'
    )
    config = write_config(tmp_path, BASE.format(code=code, list=LANG / f"{code}.txt", extra=extra))
    result = invoke("build", "--quiet", "--config", str(config), "--build-dir", str(tmp_path / "b"))
    assert result.exit_code == 0, result.stderr
    export = tmp_path / "b" / "export"
    manifest = json.loads((export / "manifest.json").read_text())
    from pipeline.alphabet import alphabet

    assert manifest["alphabet"] == {
        "language": code,
        "name": alphabet(code).name,
        "letters": alphabet(code).letters,
        "table": alphabet(code).table,
    }
    words = pl.read_parquet(export / "words.parquet")
    assert words["length"].to_list() == words["word"].str.len_chars().to_list()
    letters = alphabet(code).letters
    assert words["word"].to_list() == sorted(words["word"].to_list(), key=lambda w: [letters.index(c) for c in w])
    assert f"Longest {code.upper()} ladder per length" in (export / "summary.txt").read_text()  # its own list's
    first = words["word"][0]
    solved = invoke("solve", first.lower(), first, "--export", str(export))
    assert solved.exit_code == 13, solved.stderr  # the same word twice: found, typed in lower case, refused


def test_verify_and_solve_hold_where_the_alphabets_order_is_not_code_points(tmp_path):
    """ACUÑA sorts before ACUSA in Spanish (Ñ after N), after it by code point: the ids, the longest pair
    (start before end) and verify's checks (E003, E204) follow the alphabet's order."""
    listed = tmp_path / "es.txt"
    listed.write_text("acusa\nacuña\npato\ngato\nzorro\n")
    config = write_config(tmp_path, BASE.format(code="es", list=listed, extra='definition_sources = ["es"]'))
    assert invoke("build", "--quiet", "--config", str(config), "--build-dir", str(tmp_path / "b")).exit_code == 0
    export = tmp_path / "b" / "export"
    assert pl.read_parquet(export / "words.parquet")["word"].to_list() == ["ACUÑA", "ACUSA", "GATO", "PATO", "ZORRO"]
    result = invoke("verify", str(export))
    assert result.exit_code == 0, result.stdout + result.stderr
    solved = invoke("solve", "acusa", " ACUN\u0303A ", "--export", str(export))
    assert solved.exit_code == 0 and "ACUSA -> ACUÑA" in solved.stdout, solved.stderr
    refused = invoke("solve", "acuça", "acusa", "--export", str(export))
    assert refused.exit_code == 10 and "U+00E7" in refused.stderr
