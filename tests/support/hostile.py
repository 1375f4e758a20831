"""Hostile definition texts a list author could write (tests/data/hostile/payloads.json), the oracle of what a
terminal may act on or hide, and a NASPA list carrying them: for the tests of stage 1's cleaning, of what every
command prints, and of the MySQL dump."""

from __future__ import annotations

import json
import unicodedata
from support.paths import DATA

HOSTILE = json.loads((DATA / "hostile/payloads.json").read_text())
TERMINAL = HOSTILE["terminal"] + HOSTILE["invisible"]


def unsafe_characters(text: str) -> list[str]:
    """The oracle, from unicodedata rather than our regex: what a terminal may act on or hide."""
    # Cs: a lone surrogate, the bytes of a file name that are not UTF-8, which no output encoding writes
    return [c for c in text if c != "\n" and (unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Cs"))]


def naspa(words: list[str], texts: list[str]) -> bytes:
    """A NASPA list: each word with a hostile definition (its newlines made spaces: one line each)."""
    return "\n".join(f"{w} {t.replace(chr(10), ' ')} [n]" for w, t in zip(words, texts)).encode()
