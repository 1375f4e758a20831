"""Rareness without SCOWL: a word's Zipf frequency (wordfreq) mapped onto SCOWL's levels.

Not a stage, and pure: the caller (stage 3, for a language without SCOWL) looks each word up in wordfreq's
list for its language, as the list writes it (accents and case kept: `élève`, not the folded ELEVE; a folded
word that several spellings give takes the highest), and hands the Zipf values here. `level(zipf)` and
`levels(column)` give the SCOWL level a word of that frequency would have: the lowest level whose cut-off the
Zipf value reaches, or None (null) below every cut-off (absent from wordfreq: as absent from SCOWL), so that
rareness_by_level, the labels, "everyday" (level <= 35) and both ladder rules keep their meaning.

The cut-offs are calibrated on English, where both exist (scripts/calibrate_zipf.py; docs/languages.md has
the numbers): for each level L, the Zipf value reached by as many of SCOWL's main-list words as SCOWL lists
up to L. wordfreq's lists stop near Zipf 1 (a word per 100 million words), so the levels beyond 70 cannot be
told apart: no cut-off is given for 80, and 95 is absence.
"""

from __future__ import annotations

import math

import polars as pl

# SCOWL level -> the least Zipf frequency of a word at that level or a commoner one (English: 4,014 lower-case
# main-list words at level 10 in SCOWL, and as many with Zipf >= 4.32 in wordfreq's English; and so on).
ZIPF_CUTOFFS: dict[int, float] = {10: 4.32, 20: 3.66, 35: 2.51, 40: 2.38, 50: 1.94, 55: 1.81, 60: 1.61, 70: 1.01}


def level(zipf: float | None) -> int | None:
    """The SCOWL level of a word of Zipf frequency `zipf`; None below every cut-off or when unknown."""
    if zipf is None or math.isnan(zipf):
        return None
    for lv, cutoff in ZIPF_CUTOFFS.items():
        if zipf >= cutoff:
            return lv
    return None


def levels(zipf: pl.Series) -> pl.Series:
    """`level` of each value of a Zipf column, as u8 (null: none)."""
    expr = pl.lit(None, pl.UInt8)
    for lv, cutoff in reversed(list(ZIPF_CUTOFFS.items())):
        expr = pl.when(pl.col("z") >= cutoff).then(pl.lit(lv, pl.UInt8)).otherwise(expr)
    return pl.DataFrame({"z": zipf.cast(pl.Float64).fill_nan(None)}).select(expr.alias(zipf.name)).to_series()
