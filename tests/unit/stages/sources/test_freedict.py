"""stages/sources/freedict.py on real slices of FreeDict's spa-eng and pol-eng dictionaries (tests/data/lang/
freedict/, entries copied unchanged, re-indexed; tests/data/README.md) and on damaged files."""

from __future__ import annotations

import gzip

import pytest

from pipeline.errors import InputFormatError
from stages.sources.freedict import glosses
from support.paths import DATA

SLICES = DATA / "lang" / "freedict"


def _files(pair: str) -> dict[str, bytes]:
    return {f"raw/x/{p.name}": p.read_bytes() for p in sorted(SLICES.glob(f"freedict-{pair}.*"))}


def test_polish_glosses_keep_the_translations_and_leave_the_polish_notes_out():
    table = dict(glosses(_files("pol-eng")).rows())
    # one sense: the line after the headword; the Polish definition under it is left out
    assert table["kaganiec"] == "muzzle"
    # numbered senses, each its first line; `(przestarzałe) obcować z kimś` is a note
    assert table["przestawać"] == "associate with, mix with; stop"
    # two entries of one headword (adjective, noun), in index order
    assert table["świecki"] == "secular, lay; layman"
    # the conjunction's four senses; the prefix `a-` indexed under `a` is another word, left out
    assert table["a"] == "that; but; and; which"
    # the acronym AA indexed under `aa` is left out; the lava's entry stays
    assert table["aa"] == "aa, ʻaʻā"
    # phrases and dictd's 00-database entries are no headwords of a word list
    assert "a cappella" not in table and not any(h.startswith("00") for h in table)


def test_spanish_glosses_join_senses_and_keep_headwords_as_written():
    table = glosses(_files("spa-eng"))
    assert table.columns == ["headword", "gloss"]
    rows = dict(table.rows())
    assert rows["abad"] == "abbot; archimandrite"
    assert rows["niño"] == "bairn, child, infant"  # the accent stays: the caller folds into the alphabet
    assert "a bordo" not in rows
    assert table["headword"].is_unique().all()


def test_a_missing_or_damaged_file_is_named(tmp_path):
    files = _files("spa-eng")
    index = next(k for k in files if k.endswith(".index"))
    with pytest.raises(InputFormatError, match=r"FreeDict folder has no file freedict-spa-eng.dict.dz"):
        glosses({index: files[index]})
    damaged = dict(files)
    damaged[index.replace(".index", ".dict.dz")] = b"not gzip at all"
    with pytest.raises(InputFormatError, match=r"freedict-spa-eng.dict.dz: not a dictzip file"):
        glosses(damaged)
    damaged = dict(files)
    damaged[index] = b"abad\tC!\tB\n"
    with pytest.raises(InputFormatError, match=r"freedict-spa-eng.index, line 1: bad offset"):
        glosses(damaged)


def test_an_entry_past_the_end_comes_out_short_not_as_an_error():
    text = "gato /ˈɡato/\ncat\n".encode()
    files = {"freedict-spa-eng.dict.dz": gzip.compress(text), "freedict-spa-eng.index": b"gato\tA\tBAAA\n"}
    assert glosses(files).rows() == [("gato", "cat")]
