"""The `offensive` flag for stage 2 (not a stage itself): which words a family game never shows.

Reads the lexicon's words (`id`, `word`), WordNet's usage domains (stages/wordnet.py), the lemmas GCIDE
labels offensive (stages/gcide.py) and the reviewed list named by config key `offensive` (one `WORD` or
`-WORD` a line, `#` comments). Gives a Boolean Series `offensive`, one per lexicon row, and notes.
"""
from __future__ import annotations

import polars as pl

from pipeline.artifact.contract import Col
from pipeline.errors import InputFormatError
from stages.wordlists import content_lines
from stages.wordnet import offensive_lemmas


def offensive_words(lexicon: pl.DataFrame, wordnet: dict[str, bytes], gcide_flagged: pl.Series | None,
                    offensive: dict[str, bytes] | None, wordnet_senses: pl.DataFrame | None = None
                    ) -> tuple[pl.Series, list[str]]:
    """The `offensive` flag per lexicon row, and a note per reason. A word is flagged when a lower-case
    WordNet sense lies in an offensive usage domain, GCIDE labels it, or the reviewed list names it; the
    list's `-WORD` lines clear a flag the sources set wrongly for a family game."""
    ((name, data),) = (offensive or {"offensive.txt": b""}).items()
    listed = content_lines(name, data).with_columns(
        pl.col("text").str.replace(r"\s*#.*$", "").str.strip_chars().alias("entry"))
    bad = listed.filter(~pl.col("entry").str.contains(r"^-?[A-Za-z]+$"))
    if bad.height:
        line, text = bad.row(0)[:2]
        raise InputFormatError(f"{name}, line {line}: expected WORD or -WORD, then an optional # comment, in {text[:60]!r}")
    words = pl.col("entry").str.strip_prefix("-").str.to_uppercase()
    added = set(listed.filter(~pl.col("entry").str.starts_with("-")).select(words).to_series())
    cleared = set(listed.filter(pl.col("entry").str.starts_with("-")).select(words).to_series())
    reasons: dict[str, set[str]] = {}
    for lemma, domain in offensive_lemmas(wordnet, wordnet_senses).rows():
        reasons.setdefault(f"wordnet {domain}", set()).add(lemma.upper())
    if gcide_flagged is not None:
        reasons["gcide label"] = set(gcide_flagged.str.to_uppercase())
    reasons[f"listed in {name.rsplit('/', 1)[-1]}"] = added
    flagged = set().union(*reasons.values()) - cleared
    flag = lexicon[Col.word].is_in(sorted(flagged))
    named = set().union(cleared, *reasons.values())
    in_lexicon = set(lexicon[Col.word].filter(lexicon[Col.word].is_in(sorted(named))))  # not every word
    notes = [f"offensive: {flag.sum():,} words flagged; " + ", ".join(
        f"{reason} {len((found & in_lexicon) - cleared):,}" for reason, found in reasons.items())
        + f"; {len(cleared & in_lexicon):,} cleared by the reviewed list"]
    return flag.alias(Col.offensive), notes
