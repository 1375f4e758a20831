"""The reviewed main-sense table for stage 2 (not a stage itself): which sense of a word a player reads first.

Reads the file named by config `main_senses` (raw/main_senses.tsv, the project's own data, judged here:
raw/SOURCES.md), tab-separated with the header `word`, `key`, `reason`, one row per word:
- `word`: the word, A-Z in any case;
- `key`: the sense that leads: a WordNet sense key (`dock%1:06:00::`), of the word's own lemma or of a base
  it is a form of (`TUNICS` may name `tunic%1:...`), or `gcide:<headword>:<n>` (GCIDE's n-th first sense of
  that headword, by part of speech in the dictionary's order: stages/rules/main_senses.py);
- `reason`: a few words saying why (never empty).
Blank lines and lines starting with `#` are skipped. `read` gives (`word`, `key`, `reason`, `line`); a line
with another number of fields, a bad word or key, an empty reason or a word given twice is an
InputFormatError naming the file and the line. Whether a key is a sense of its word is checked against the
dictionaries by stages/rules/main_senses.py (`resolved`), also naming file and line. The table is evidence
of record where it speaks; a build never needs it complete.
"""

from __future__ import annotations

import re

import polars as pl

from pipeline.columns import Col
from pipeline.errors import InputFormatError
from pipeline.schemas import MAIN_SENSES
from pipeline.terminal import inert

HEADER = (Col.word, "key", "reason")
WORD = re.compile(r"^[A-Za-z]+$")
# lemma%ss_type:lex_filenum:lex_id:head_word:head_id, or GCIDE's headword and first-sense number.
KEY = re.compile(r"^(?:[a-z][a-z'.-]*%[1-5]:\d\d:\d\d:[a-z_'.-]*:(?:\d\d)?|gcide:[a-z]+:[1-9]\d*)$")
SCHEMA = MAIN_SENSES  # stage 0 writes the table as read


def read(files: dict[str, bytes]) -> tuple[pl.DataFrame, str]:
    """(`word` upper case, `key`, `reason`, `line`) of the table in `files` (one file: its path -> bytes;
    none: an empty table), and the file's name for messages."""
    if not files:
        return pl.DataFrame(schema=SCHEMA), ""
    (name, data), *more = sorted(files.items())
    if more:
        raise InputFormatError(f"main_senses: one file expected, got {len(files)}")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputFormatError(f"{inert(name)}: not UTF-8 text (offset {e.start})") from None
    rows, seen = [], {}
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw.startswith("#"):
            continue
        fields = raw.split("\t")
        if tuple(f.strip().lower() for f in fields) == HEADER and not rows:
            continue
        where = f"{inert(name)} line {number}"
        if len(fields) != 3:
            raise InputFormatError(f"{where}: {len(fields)} tab-separated fields, expected word, key, reason")
        word, key, reason = (f.strip() for f in fields)
        if not WORD.match(word):
            raise InputFormatError(f"{where}: {inert(word)!r} is not a word (letters A-Z)")
        if not KEY.match(key):
            raise InputFormatError(f"{where}: {inert(key)!r} is no WordNet sense key nor gcide:<headword>:<n>")
        if not reason:
            raise InputFormatError(f"{where}: {word.upper()} has no reason")
        if word.upper() in seen:
            raise InputFormatError(f"{where}: {word.upper()} again (first on line {seen[word.upper()]})")
        seen[word.upper()] = number
        rows.append((word.upper(), key, reason, number))
    return pl.DataFrame(rows, schema=SCHEMA, orient="row"), name
