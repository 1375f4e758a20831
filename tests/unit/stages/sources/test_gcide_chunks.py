"""GCIDE's entries are parsed CHUNK lemmas at a time (stage 2's peak memory was all of them at once): the
glosses and first current senses are those of one call over every lemma."""

from __future__ import annotations

import polars as pl

from stages.sources import gcide
from stages.sources.dictionary_files import read_dictionaries
from support.paths import DATA


def entries() -> pl.DataFrame:
    files = {p.name: p.read_bytes() for p in sorted((DATA / "tiny/gcide").iterdir())}
    return read_dictionaries({}, files, None)["gcide_entries"]


def test_chunks_of_lemmas_give_the_rows_of_one_call(monkeypatch):
    table = entries()
    lemmas = table["lemma"].unique().sort()
    wanted = pl.concat([lemmas.gather_every(2), pl.Series(["no-such-lemma"])])
    monkeypatch.setattr(gcide, "CHUNK", 10**9)
    whole = [gcide.glosses(table), gcide.glosses(table, wanted), gcide.current_firsts(table, wanted)]
    parsed, real = [], gcide._first_senses
    monkeypatch.setattr(gcide, "_first_senses", lambda t: parsed.append(t["lemma"].n_unique()) or real(t))
    monkeypatch.setattr(gcide, "CHUNK", 1)
    chunked = [gcide.glosses(table), gcide.glosses(table, wanted), gcide.current_firsts(table, wanted)]
    assert lemmas.len() >= 4 and whole[0].height >= 4
    for one, many in zip(whole, chunked):
        assert one.equals(many)
    assert max(parsed) == 1
    assert gcide.glosses(table, pl.Series([], dtype=pl.String)).height == 0
