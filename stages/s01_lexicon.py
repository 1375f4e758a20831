"""Stage 1, lexicon: parse the CSW and OWL word lists into one table of words.

Reads the raw files named by config keys `csw` and `owl`, in the formats named
by `csw_format` and `owl_format`:
- `plain`: one word per line, any case;
- `naspa`: the word, one space, its definition (`AA rough, cindery lava [n -S]`);
- `collins`: the word, a TAB, its definition (`AAHED<TAB>AAH, to exclaim ... [v]`);
- `auto` (default): decided from the file's first content lines, and reported.
Reading lines and the definition grammar (senses, links, run-on forms) are in
definition_lines.py.
UTF-8 with or without a BOM, LF or CRLF; blank lines and `#` lines skipped.
A bad line (a word outside A-Z, a definition that breaks the grammar) is an
InputFormatError naming file, line, what was wrong and the text; with config
`lenient` (CLI `--lenient`) it is skipped and listed in 01_skipped.parquet.
Duplicates within a list are counted; the first wins. Run-on forms
(`: ADDABLE [adj]`) are words of the list too: added when they have no line
of their own. A word in OWL but not in CSW is kept (in_csw false) and counted.

Writes build/01_lexicon.parquet, one row per word of the union, key `id`:
- id u32: 0..N-1 in alphabetical order of `word`
- word str: upper-case A-Z
- in_csw bool, in_owl bool: which list holds the word
- csw_senses, owl_senses list[SENSE]: the list's own definition, parsed (null
  for plain lists and for words the list lacks); SENSE in pipeline/schemas.py

Writes build/01_skipped.parquet, one row per skipped line (empty unless lenient):
- list str (csw|owl), file str, line u32, text str (at most 200 characters), reason str
"""
from __future__ import annotations

import re

import polars as pl

from pipeline.errors import InputFormatError
from pipeline.schemas import LEXICON, SENSE, SKIPPED
from pipeline.stage import Output, Stage
from stages.definition_lines import content_lines, parse_defined

SHOWN = 60  # characters of a bad line quoted in an error message
DETECT_LINES = 50  # content lines `auto` looks at
BLANK = re.compile(r"[ \t]")


def shown(text: str) -> str:
    return repr(text[:SHOWN] + ("..." if len(text) > SHOWN else ""))


def line_kind(text: str) -> str:
    """What one line looks like by its first blank: `collins` (a TAB), `naspa` (a space), or `plain` (none)."""
    blank = BLANK.search(text)
    return "plain" if blank is None else {"\t": "collins", " ": "naspa"}[blank[0]]


def detect(name: str, lines: pl.DataFrame) -> str:
    first = lines.head(DETECT_LINES).rows()
    kinds = {line: line_kind(text) for line, text in first}
    found = sorted(set(kinds.values()))
    if len(found) != 1:
        examples = "; ".join(f"line {line} looks {kind}" for kind in found
                             for line in [next(n for n, k in kinds.items() if k == kind)])
        raise InputFormatError(f"{name}: cannot tell its format, its first lines disagree ({examples}); "
                               "set its _format key to plain, naspa or collins")
    return found[0]


def parse_plain(lines: pl.DataFrame) -> tuple[list, list]:
    """Entries (`line`, `word`, senses None, is_runon False) for good lines, (`line`, text, reason) for bad."""
    good = lines.filter(pl.col("text").str.contains(r"^[A-Za-z]+$"))
    bad = lines.filter(~pl.col("text").str.contains(r"^[A-Za-z]+$"))
    entries = [(n, w.upper(), None, False) for n, w in good.rows()]
    return entries, [(n, t, "not a word of letters A-Z") for n, t in bad.rows()]


def read_list(role: str, files: dict[str, bytes], fmt: str, lenient: bool) -> tuple[pl.DataFrame, list, str]:
    """One list's words with their senses (first occurrence of each), its skipped lines, a note."""
    ((name, data),) = files.items()
    lines = content_lines(name, data)
    chosen = detect(name, lines) if fmt == "auto" and lines.height else fmt
    entries, bad = parse_plain(lines) if chosen in ("plain", "auto") else parse_defined(lines, chosen)
    if bad and not lenient:
        line, text, reason = bad[0]
        more = f" ({len(bad) - 1:,} more bad lines; --lenient skips and lists them)" if len(bad) > 1 else ""
        if reason == "not a word of letters A-Z":
            raise InputFormatError(f"{name}, line {line}: {shown(text)} is {reason}{more}")
        raise InputFormatError(f"{name}, line {line}: {reason}, in {shown(text)}{more}")
    if not entries:
        raise InputFormatError(f"{name}: no words in the file (empty lexicon)")
    table = pl.DataFrame(entries, orient="row", schema={
        "line": pl.UInt32, "word": pl.String, "senses": pl.List(SENSE), "is_runon": pl.Boolean})
    # A line of its own beats a run-on mention of the same word, wherever each comes.
    unique = table.sort("is_runon", maintain_order=True).unique("word", keep="first", maintain_order=True)
    own = table.filter(~pl.col("is_runon"))
    duplicates = own.height - own["word"].n_unique()
    runons = unique["is_runon"].sum()
    how = f"{chosen}, detected" if fmt == "auto" else chosen
    note = (f"{name}: {unique.height:,} words ({how}), {duplicates:,} duplicate lines"
            + (f", {runons:,} run-on forms added" if runons else "")
            + (f", {len(bad):,} bad lines skipped" if bad else ""))
    skipped = [(role, name, line, text[:200], reason) for line, text, reason in bad]
    return unique.select("word", "senses"), skipped, note


def build_lexicon(csw: dict[str, bytes], owl: dict[str, bytes], csw_format: str, owl_format: str,
                  lenient: bool = False) -> dict:
    csw_words, csw_skipped, csw_note = read_list("csw", csw, csw_format, lenient)
    owl_words, owl_skipped, owl_note = read_list("owl", owl, owl_format, lenient)
    lexicon = (
        csw_words.rename({"senses": "csw_senses"}).with_columns(pl.lit(True).alias("in_csw"))
        .join(owl_words.rename({"senses": "owl_senses"}).with_columns(pl.lit(True).alias("in_owl")),
              on="word", how="full", coalesce=True)
        .with_columns(pl.col("in_csw", "in_owl").fill_null(False))
        .sort("word")
        .with_row_index("id")
        .select(list(LEXICON))
    )
    skipped = pl.DataFrame(csw_skipped + owl_skipped, schema=SKIPPED, orient="row")
    owl_only = lexicon.filter(~pl.col("in_csw")).height
    notes = [csw_note, owl_note, f"{owl_only:,} OWL words are not in CSW (kept, in_csw false)"]
    if skipped.height:
        notes.append(f"{skipped.height:,} lines skipped, listed in 01_skipped.parquet; first: "
                     f"{skipped['file'][0]}, line {skipped['line'][0]}: {skipped['reason'][0]}")
    return {"lexicon": lexicon, "skipped": skipped, "notes": notes}


STAGE = Stage(
    number=1,
    name="lexicon",
    transform=build_lexicon,
    raw=("csw", "owl"),
    settings=("csw_format", "owl_format", "lenient"),
    writes={"lexicon": Output("01_lexicon.parquet", LEXICON), "skipped": Output("01_skipped.parquet", SKIPPED)},
)
