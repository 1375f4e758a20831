"""Stage 1, lexicon: parse the CSW and OWL word lists into one table of words.

Reads the raw files named by config keys `csw` and `owl` (format keys
`csw_format`, `owl_format`; `plain` is one word per line, any case). UTF-8 with
or without a BOM, LF or CRLF; blank lines and lines starting with `#` are
skipped. A word outside A-Z is an InputFormatError naming file, line and text.
Duplicates within a list are counted, not errors. A word in OWL but not in CSW
is kept (in_csw false) and counted.

Writes build/01_lexicon.parquet, one row per word of the union, key `id`:
- id u32: 0..N-1 in alphabetical order of `word`
- word str: upper-case A-Z
- in_csw bool, in_owl bool: which list holds the word
- csw_text str, owl_text str: the list's own definition text (null for plain lists)
"""
from __future__ import annotations

import polars as pl

from pipeline.errors import InputFormatError
from pipeline.schemas import LEXICON
from pipeline.stage import Output, Stage

SHOWN = 60  # characters of a bad line quoted in an error message


def decode(name: str, data: bytes) -> str:
    """UTF-8 text without its BOM; anything else is an InputFormatError naming the line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise InputFormatError(
            f"{name}, line {line}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})"
        ) from None


def content_lines(name: str, data: bytes) -> pl.DataFrame:
    """The lines that carry content: `line` (1-based number in the file) and `text` (stripped)."""
    lines = pl.Series("text", decode(name, data).split("\n"), dtype=pl.String)
    return (
        pl.DataFrame([lines])
        .with_row_index("line", offset=1)
        .with_columns(pl.col("text").str.strip_chars())
        .filter((pl.col("text") != "") & ~pl.col("text").str.starts_with("#"))
    )


def parse_plain(name: str, data: bytes) -> pl.DataFrame:
    """One word per line -> `line`, `word` (upper case), `text` (null: plain lists carry none)."""
    lines = content_lines(name, data)
    bad = lines.filter(~pl.col("text").str.contains(r"^[A-Za-z]+$"))
    if bad.height:
        line, text = bad.row(0)
        shown = text[:SHOWN] + ("..." if len(text) > SHOWN else "")
        raise InputFormatError(
            f"{name}, line {line}: {shown!r} is not a word of letters A-Z"
            + (f" ({bad.height - 1:,} more such lines)" if bad.height > 1 else "")
        )
    return lines.select("line", pl.col("text").str.to_uppercase().alias("word"),
                        pl.lit(None, pl.String).alias("text"))


PARSERS = {"plain": parse_plain}


def read_list(files: dict[str, bytes], fmt: str) -> tuple[pl.DataFrame, str]:
    """One list's words (first occurrence of each) and a note saying what was read."""
    ((name, data),) = files.items()
    entries = PARSERS[fmt](name, data)
    if entries.height == 0:
        raise InputFormatError(f"{name}: no words in the file (empty lexicon)")
    unique = entries.unique("word", keep="first", maintain_order=True)
    duplicates = entries.height - unique.height
    note = f"{name}: {unique.height:,} words ({fmt}), {duplicates:,} duplicate lines"
    return unique.select("word", "text"), note


def build_lexicon(csw: dict[str, bytes], owl: dict[str, bytes], csw_format: str, owl_format: str) -> dict:
    csw_words, csw_note = read_list(csw, csw_format)
    owl_words, owl_note = read_list(owl, owl_format)
    lexicon = (
        csw_words.rename({"text": "csw_text"}).with_columns(pl.lit(True).alias("in_csw"))
        .join(owl_words.rename({"text": "owl_text"}).with_columns(pl.lit(True).alias("in_owl")),
              on="word", how="full", coalesce=True)
        .with_columns(pl.col("in_csw", "in_owl").fill_null(False))
        .sort("word")
        .with_row_index("id")
        .select(list(LEXICON))
    )
    owl_only = lexicon.filter(~pl.col("in_csw")).height
    return {
        "lexicon": lexicon,
        "notes": [csw_note, owl_note, f"{owl_only:,} OWL words are not in CSW (kept, in_csw false)"],
    }


STAGE = Stage(
    number=1,
    name="lexicon",
    transform=build_lexicon,
    raw=("csw", "owl"),
    settings=("csw_format", "owl_format"),
    writes={"lexicon": Output("01_lexicon.parquet", LEXICON)},
)
