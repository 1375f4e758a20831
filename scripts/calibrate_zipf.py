#!/usr/bin/env python3
"""Recompute stages/sources/zipf_levels.py's cut-offs from raw/scowl/ and wordfreq's English list.

Needs wordfreq 3.1.1 (`.venv/bin/pip install wordfreq==3.1.1 msgpack`); run `.venv/bin/python
scripts/calibrate_zipf.py`. For each SCOWL level: the Zipf quantiles (10, 25, 50, 75, 90 %) of the lower-case
words of SCOWL's main lists whose lowest level it is, and the cut-off: the Zipf value reached by as many words
as SCOWL lists up to that level. Prints a Markdown table (docs/languages.md holds its output) and how often
the labels agree. Writes nothing.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
LEVELS = (10, 20, 35, 40, 50, 55, 60, 70, 80, 95)
MAIN = ("english", "american", "british", "british_z", "canadian", "australian")  # stage 3's main lists


def scowl_levels(folder: Path) -> dict[str, int]:
    """Lowest main-list level of each lower-case word (proper nouns and possessives left out)."""
    found: dict[str, int] = {}
    for name in MAIN:
        for lv in LEVELS:
            path = folder / f"{name}-words.{lv}"
            if path.exists():
                for word in path.read_bytes().decode("latin-1").split("\n"):
                    word = word.strip()
                    if re.fullmatch(r"[a-z]+", word) and found.get(word, 99) > lv:
                        found[word] = lv
    return found


def label(lv: int | None) -> str:
    return "obscure" if lv is None or lv > 70 else "common" if lv <= 35 else "uncommon" if lv <= 50 else "rare"


def main() -> None:
    import numpy as np
    import wordfreq

    from stages.sources.zipf_levels import level

    found = scowl_levels(ROOT / "raw" / "scowl")
    zipf = {w: wordfreq.zipf_frequency(w, "en") for w in found}
    ranked = np.sort(np.array(list(zipf.values())))[::-1]
    print("| level | words | Zipf 10% | 25% | 50% | 75% | 90% | listed in wordfreq | cut-off |")
    print("|---|---|---|---|---|---|---|---|---|")
    total = 0
    for lv in LEVELS:
        values = np.array([zipf[w] for w, at in found.items() if at == lv])
        total += len(values)
        q = " | ".join(f"{x:.2f}" for x in np.quantile(values, [0.1, 0.25, 0.5, 0.75, 0.9]))
        print(f"| {lv} | {len(values):,} | {q} | {(values > 0).mean():.0%} | {ranked[total - 1]:.2f} |")
    agree = sum(label(level(zipf[w])) == label(lv) for w, lv in found.items()) / len(found)
    print(f"\nlabels agree for {agree:.1%} of {len(found):,} words")


if __name__ == "__main__":
    main()
