"""raw/SOURCES.md gives the sha256 of the project's own data files (the supplement, the reviewed lists, the
main-sense table): each is the file's as committed. The supplement's had been stale since issue 43's first
round until this test."""

from __future__ import annotations

import hashlib
import re

from support.paths import ROOT

SOURCES = (ROOT / "raw" / "SOURCES.md").read_text(encoding="utf-8")


def test_every_sha256_raw_sources_gives_is_its_files():
    said = re.findall(r"^- `([^`]+)`:.*sha256 `([0-9a-f]{64})`", SOURCES, re.M)
    assert len(said) >= 3, said  # supplement/definitions.txt, supplement/offensive.txt, main_senses.tsv
    for path, digest in said:
        assert hashlib.sha256((ROOT / "raw" / path).read_bytes()).hexdigest() == digest, path
