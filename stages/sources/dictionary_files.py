"""The dictionaries read whole, before any word list is: what stage 0 (stages/s00_dictionaries.py) writes
and stage 2 joins with the words (not a stage itself; stage 2's `build_definitions` reads through it too).

Reads the WordNet folder (stages/sources/wordnet.py `tables`: its senses with cntlist.rev's counts, their
usage domains, its proper lemmas, its exception lists), the GCIDE folder (stages/sources/gcide_dictd.py
`entries`: every single-word headword's entry; none when no GCIDE is given) and the reviewed main-sense
table (stages/sources/main_senses.py `read`, with the file's name for stage 2's messages). Writes nothing:
returns the tables by the names stage 0 declares.
"""

from __future__ import annotations

import polars as pl

from pipeline.schemas import GCIDE_ENTRIES, WORDNET_DOMAINS, WORDNET_EXCEPTIONS, WORDNET_NAMES, WORDNET_SENSES
from stages.sources.gcide_dictd import entries
from stages.sources.main_senses import read as read_main_senses
from stages.sources.wordnet import tables


def read_dictionaries(
    wordnet: dict[str, bytes],
    gcide: dict[str, bytes] | None,
    main_senses: dict[str, bytes] | None,
) -> dict[str, pl.DataFrame]:
    """{`wordnet_senses`, `wordnet_domains`, `wordnet_names`, `wordnet_exceptions`, `gcide_entries`,
    `main_senses`}: the tables of the module docstring (`main_senses` with `file`, its file's name)."""
    table, name = read_main_senses(main_senses or {})
    # A language build has no WordNet (config wordnet = false): empty tables, and stage 2 translates instead.
    none = {
        "wordnet_senses": WORDNET_SENSES,
        "wordnet_domains": WORDNET_DOMAINS,
        "wordnet_names": WORDNET_NAMES,
        "wordnet_exceptions": WORDNET_EXCEPTIONS,
    }
    read = tables(wordnet) if wordnet else {name_: pl.DataFrame(schema=schema) for name_, schema in none.items()}
    return {
        **read,
        "gcide_entries": entries(gcide) if gcide else pl.DataFrame(schema=GCIDE_ENTRIES),
        "main_senses": table.with_columns(pl.lit(name, dtype=pl.String).alias("file")),
    }
