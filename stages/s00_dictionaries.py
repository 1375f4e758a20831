"""Stage 0, dictionaries: WordNet, GCIDE and the reviewed main-sense table read once, beside stage 1.

Nothing here depends on the word lists, so the stage runs beside stage 1 and stays fresh while its
inputs and code are unchanged: a changed word list reruns stage 2's join of these tables with the
words, not their reading (docs/architecture.md). Stage 2 reads every table it writes.

Reads the WordNet folder (config `wordnet`), the GCIDE folder (config `gcide`, optional) and the reviewed
main-sense table (config `main_senses`, optional), through stages/sources/dictionary_files.py. No setting:
the order of config `definition_sources` is stage 2's to apply.

Writes, none keyed by a word's id (stage 1 has not run):
- 00_wordnet_senses.parquet: every sense of a single-word lemma whose synset writes it in lower case, in
  WordNet's order (stages/sources/wordnet.py `senses`): lemma, pos, rank (the part of speech's place, n v
  adj adv), tagged (the lemma's corpus-tagged senses of that part of speech), sense (from 0), gloss,
  domains (the synset's usage-domain offsets), offset, key (the sense key), count (cntlist.rev's tags),
  heads (the lemma is the synset's first word)
- 00_wordnet_domains.parquet: lemma, pos, sense, domain: each sense in an offensive or later-shown usage
  domain (`sense_domains`)
- 00_wordnet_names.parquet: lemma: single-word lemmas WordNet writes only with capitals (`proper_lemmas`)
- 00_wordnet_exceptions.parquet: lower, base, pos: the exception lists' lines (`exception_lists`)
- 00_gcide_entries.parquet: lemma, entry, order: every single-word headword's entry text in index order
  (stages/sources/gcide_dictd.py `entries`; empty without GCIDE)
- 00_main_senses.parquet: word, key, reason, line of the reviewed table, and file (its name, for stage 2's
  messages; stages/sources/main_senses.py)
"""

from __future__ import annotations

import polars as pl

from pipeline import schemas
from pipeline.stage import Output, Stage
from stages.sources.dictionary_files import read_dictionaries


def dictionaries(
    wordnet: dict[str, bytes],
    gcide: dict[str, bytes],
    main_senses: dict[str, bytes],
) -> dict[str, pl.DataFrame]:
    """The stage (module docstring): the tables above, by their output names."""
    return read_dictionaries(wordnet, gcide, main_senses)


STAGE = Stage(
    number=0,
    name="dictionaries",
    transform=dictionaries,
    raw=("wordnet", "gcide", "main_senses"),  # not a column: raw inputs
    writes={
        "wordnet_senses": Output("00_wordnet_senses.parquet", schemas.WORDNET_SENSES),
        "wordnet_domains": Output("00_wordnet_domains.parquet", schemas.WORDNET_DOMAINS),
        "wordnet_names": Output("00_wordnet_names.parquet", schemas.WORDNET_NAMES),
        "wordnet_exceptions": Output("00_wordnet_exceptions.parquet", schemas.WORDNET_EXCEPTIONS),
        "gcide_entries": Output("00_gcide_entries.parquet", schemas.GCIDE_ENTRIES),
        "main_senses": Output("00_main_senses.parquet", schemas.MAIN_SENSES_READ),
    },
)
