"""Stage 1, lexicon: parse the CSW and OWL word lists into one table of words.

Reads the raw files named by config keys `csw` and `owl`, in the formats named
by `csw_format` and `owl_format`: `plain`, `naspa`, `collins`, `scores` (a
playability list, `542388 QI`) or `auto` (default: decided from every line of
the file, and reported). The formats and the definition grammar are in
stages/wordlists.py, the one reader of every list.
UTF-8 with or without a BOM, LF or CRLF; blank lines and `#` lines skipped.

Trouble comes in two kinds. A word-level problem (the word is not A-Z, longer
than 64 letters) is an InputFormatError naming file, line, the character and
the text; with config `lenient` (CLI `--lenient`) the line is skipped instead
and listed in 01_skipped.parquet. A definition-level problem never costs the
word: it keeps the cleanest text that can be recovered and the line is listed
in 01_warnings.parquet, strict or not.
Duplicates within a list are counted; the first wins. Run-on forms
(`: ADDABLE ~adj`) are words of the list too: added when they have no line of
their own. A word in OWL but not in CSW is kept (in_csw false) and counted.

Writes build/01_lexicon.parquet, one row per word of the union, key `id`:
- id u32: 0..N-1 in alphabetical order of `word`
- word str: upper-case A-Z
- in_csw bool, in_owl bool: which list holds the word
- csw_senses, owl_senses list[SENSE]: the list's own definition, parsed (null
  for plain lists and for words the list lacks or leaves undefined); SENSE in
  pipeline/schemas.py

Writes build/01_skipped.parquet (word-level problems skipped by --lenient) and
build/01_warnings.parquet (definition-level problems, words kept), one row per
line and reason:
- list str (csw|owl), file str, line u32, text str (at most 200 characters; a control or invisible
  character shown as U+FFFD), reason str
Definitions lose their control and invisible characters (stages/wordlists.py), with a warning row.
"""

from __future__ import annotations

import polars as pl

from pipeline.artifact.contract import Col
from pipeline.errors import InputFormatError
from pipeline.schemas import LEXICON, SKIPPED
from pipeline.stage import Output, Stage
from stages.wordlists import UNSEEN, read_wordlist

TEXT_KEPT = 200  # characters of a problem line kept in the skipped and warnings tables


def problems(role: str, name: str, table: pl.DataFrame) -> pl.DataFrame:
    """The rows of the skipped or warnings table; each control or invisible character of the line's text
    shown as U+FFFD, so that the table shows where one was and is safe to print."""
    return table.select(
        pl.lit(role).alias("list"),
        pl.lit(name).alias("file"),
        "line",
        pl.col("text").str.replace_all(UNSEEN, "\ufffd").str.slice(0, TEXT_KEPT),
        "reason",
    )


def read_list(
    role: str, files: dict[str, bytes], fmt: str, lenient: bool
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame, str]:
    """One list's words with their senses (first occurrence of each), its skipped lines, warnings, a note."""
    ((name, data),) = files.items()
    wl = read_wordlist(name, data, fmt, f"{role}_format")
    bad = wl.errors
    if bad.height and not lenient:
        line, text, reason = bad.row(0)
        more = (
            f" ({bad.height - 1:,} more bad lines; --lenient skips and lists them)"
            if bad.height > 1
            else " (--lenient skips such lines and lists them)"
        )
        raise InputFormatError(f"{name}, line {line}: {reason}{more}")
    table = wl.entries
    if table.height == 0:
        raise InputFormatError(f"{name}: no words in the file (empty lexicon)")
    # A line of its own beats a run-on mention of the same word, wherever each comes.
    unique = table.sort("is_runon", maintain_order=True).unique(Col.word, keep="first", maintain_order=True)
    own = table.filter(~pl.col("is_runon"))
    duplicates = own.height - own[Col.word].n_unique()
    runons = unique["is_runon"].sum()
    defined = own["senses"].is_not_null().sum()
    how = f"{wl.format}, detected" if fmt == "auto" else wl.format
    note = (
        f"{name}: {unique.height:,} words ({how}), {duplicates:,} duplicate lines"
        + (f", {defined:,} defined" if wl.format in ("naspa", "collins") else "")
        + (f", {runons:,} run-on forms added" if runons else "")
        + (f", {bad.height:,} bad lines skipped" if bad.height else "")
        + (f", {wl.warnings['line'].n_unique():,} lines with definition warnings" if wl.warnings.height else "")
    )
    return unique.select(Col.word, "senses"), problems(role, name, bad), problems(role, name, wl.warnings), note


def build_lexicon(
    csw: dict[str, bytes], owl: dict[str, bytes], csw_format: str, owl_format: str, lenient: bool = False
) -> dict:
    csw_words, csw_skipped, csw_warnings, csw_note = read_list("csw", csw, csw_format, lenient)
    owl_words, owl_skipped, owl_warnings, owl_note = read_list("owl", owl, owl_format, lenient)
    lexicon = (
        csw_words.rename({"senses": "csw_senses"})
        .with_columns(pl.lit(True).alias(Col.in_csw))
        .join(
            owl_words.rename({"senses": "owl_senses"}).with_columns(pl.lit(True).alias(Col.in_owl)),
            on=Col.word,
            how="full",
            coalesce=True,
        )
        .with_columns(pl.col(Col.in_csw, Col.in_owl).fill_null(False))
        .sort(Col.word)
        .with_row_index(Col.id)
        .select(list(LEXICON))
    )
    skipped = pl.concat([csw_skipped, owl_skipped]).cast(SKIPPED)
    warnings = pl.concat([csw_warnings, owl_warnings]).cast(SKIPPED)
    owl_only = lexicon.filter(~pl.col(Col.in_csw)).height
    notes = [csw_note, owl_note, f"{owl_only:,} OWL words are not in CSW (kept, in_csw false)"]
    if skipped.height:
        notes.append(
            f"{skipped.height:,} lines skipped, listed in 01_skipped.parquet; first: "
            f"{skipped['file'][0]}, line {skipped['line'][0]}: {skipped['reason'][0]}"
        )
    if warnings.height:
        top = warnings.group_by("reason").len().sort("len", "reason", descending=[True, False]).row(0)
        notes.append(
            f"{warnings.height:,} definition warnings (words kept), listed in 01_warnings.parquet; "
            f"most often: {top[0]} ({top[1]:,})"
        )
    return {"lexicon": lexicon, "skipped": skipped, "warnings": warnings, "notes": notes}  # not a column: output names


STAGE = Stage(
    number=1,
    name="lexicon",  # not a column: the stage's name
    transform=build_lexicon,
    raw=("csw", "owl"),
    settings=("csw_format", "owl_format", "lenient"),
    helpers=("stages.wordlists",),
    writes={
        "lexicon": Output("01_lexicon.parquet", LEXICON),  # not a column: an output name
        "skipped": Output("01_skipped.parquet", SKIPPED),
        "warnings": Output("01_warnings.parquet", SKIPPED),
    },
)
