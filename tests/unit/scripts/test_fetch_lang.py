"""scripts/fetch_lang.py without the network: what raw/<lang>/ must hold, what SOURCES.md says of it, and the
message a build of a language whose inputs are missing gives (`make build-lang`)."""

from __future__ import annotations

import gzip
import hashlib
import sys

import pytest
from support.paths import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import fetch_lang  # noqa: E402


@pytest.mark.parametrize("code", list(fetch_lang.LANGUAGES))
def test_each_language_has_its_sources_table_for_every_input(code):
    listed = fetch_lang.read_sources(code)
    assert sorted(listed) == sorted(fetch_lang.targets(code))
    assert all(len(digest) == 64 for digest in listed.values())


@pytest.mark.parametrize("code", [c for c, lang in fetch_lang.LANGUAGES.items() if lang.committed])
def test_a_committed_list_is_the_packages_file_compressed(code):
    """The committed .gz decompresses to exactly the package file SOURCES.md names (its sha256)."""
    data = gzip.decompress((fetch_lang.folder(code) / "words.txt.gz").read_bytes())
    assert hashlib.sha256(data).hexdigest() == fetch_lang.read_sources(code)["words.txt.gz"]


def test_missing_inputs_are_named_with_the_command_that_fetches_them(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(fetch_lang, "RAW", tmp_path)
    monkeypatch.setattr(fetch_lang, "folder", lambda code: tmp_path / code)
    assert fetch_lang.check("pl") == 2
    said = capsys.readouterr().err
    assert said.startswith("error: raw/pl/ lacks words.txt, freedict-pol-eng.index")
    assert "make raw-lang LANG=pl" in said and said.count("\n") == 1
    for name in fetch_lang.targets("pl"):
        (tmp_path / "pl").mkdir(exist_ok=True)
        (tmp_path / "pl" / name).write_bytes(b"")
    assert fetch_lang.check("pl") == 0


def test_an_unchanged_list_keeps_its_committed_bytes(tmp_path):
    """Another zlib compresses otherwise: the committed .gz is rewritten only when its content changed."""
    source, committed = tmp_path / "words.txt", tmp_path / "words.txt.gz"
    source.write_bytes(b"casa\nperro\n")
    committed.write_bytes(gzip.compress(b"casa\nperro\n", compresslevel=1, mtime=5))
    before = committed.read_bytes()
    fetch_lang._compress(source, committed)
    assert committed.read_bytes() == before
    source.write_bytes(b"casa\ngato\n")
    fetch_lang._compress(source, committed)
    assert gzip.decompress(committed.read_bytes()) == b"casa\ngato\n"
