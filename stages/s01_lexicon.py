"""Stage 1, lexicon: parse every word list the config's lexicons name into one table of words.

Reads the raw files the config's lexicons name (docs/lexicons.md): each lexicon with a list file of its
own (`file`, in its `format`: `plain`, `naspa`, `collins`, `scores` (a playability list, `542388 QI`) or
`auto`, the default: decided from every line of the file, and reported), and any lexicon's add-list (`add`,
any format: a definition given there is that word's own) and remove-list (`remove`). The default lexicons
are csw and owl (config keys `csw`, `owl`, `csw_format`, `owl_format`) and everyday, derived from csw. The
formats are in stages/sources/wordlists.py, the one reader of every list, and the definition grammar in
stages/sources/definition_grammar.py.
UTF-8 with or without a BOM, LF or CRLF; blank lines and `#` lines skipped.

A list named `*.gz` is read gunzipped. Each word is folded into config `language`'s alphabet
(pipeline/alphabet.py: `fold_column`; English: A-Z, either case); a lexicon with `drop_capitalised` leaves
out the lines whose word starts upper case (proper names), before folding.

Trouble comes in two kinds. A word-level problem (a character outside the alphabet, longer
than 64 letters) is an InputFormatError naming file, line, the character and
the text; with config `lenient` (CLI `--lenient`) the line is skipped instead
and listed in 01_skipped.parquet. A definition-level problem never costs the
word: it keeps the cleanest text that can be recovered and the line is listed
in 01_warnings.parquet, strict or not. So is a remove-list word that no list
holds (a typo, most likely). A list file, add-list or remove-list without a word is an error.
Duplicates within a list are counted; the first wins. Run-on forms
(`: ADDABLE ~adj`) are words of the list too: added when they have no line of
their own.

This stage says only what the lists say. A lexicon's membership is final only once the build knows what
its filter asks (`max_scowl_level`: stage 3's SCOWL levels), so stage 5 resolves every lexicon's
membership from these pieces; stages 2-4 work on the union of every list's words, a superset of every
lexicon, and need no membership.

Writes build/01_lexicon.parquet, one row per word of the union of every list file and add-list (a
remove-list adds no word), key `id`
(schema: pipeline/schemas.py, lexicon_schema):
- id u32: 0..N-1 in the alphabet's order of `word` (config `language`; pipeline/alphabet.py)
- word str: the word folded into the language's upper-case letters (English: A-Z)
- list_<name> bool, for each lexicon with a file: the file holds the word
- add_<name> bool, remove_<name> bool, for each lexicon with an add-list or a remove-list
- <name>_senses list[SENSE], for each lexicon with a file: the list's own definition, parsed (null
  for plain lists and for words the list lacks or leaves undefined); SENSE in pipeline/schemas.py
- added_senses list[SENSE], when a lexicon has an add-list: the first add-list definition of the word
  (lexicons in config order)

Writes build/01_skipped.parquet (word-level problems skipped by --lenient) and
build/01_warnings.parquet (definition-level problems, words kept; remove-list words no list holds), one
row per line and reason:
- list str (the lexicon's name), file str, line u32, text str (at most 200 characters; a control or
  invisible character shown as U+FFFD), reason str
Definitions lose their control and invisible characters (stages/sources/wordlists.py), with a warning row.
"""

from __future__ import annotations

import polars as pl

from pipeline.alphabet import TABLE as ALPHABETS, alphabet
from pipeline.columns import Col
from pipeline.errors import InputFormatError
from pipeline.schemas import SKIPPED, STRAY, lexicon_schema
from pipeline.stage import Output, Stage
from pipeline.terminal import UNSEEN
from pipeline import wording
from pipeline.wording import counted, warnings_text
from stages.sources.wordlists import decompressed, read_wordlist

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
    role: str, files: dict[str, bytes], fmt: str, lenient: bool, language: str = "en", drop_capitalised: bool = False
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame, str]:
    """One list's words with their senses and line (first occurrence of each), its skipped lines, warnings,
    a note."""
    ((name, data),) = files.items()
    data = decompressed(name, data)
    wl = read_wordlist(name, data, fmt, f"{role}_format", language, drop_capitalised)
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
        f"{name}: {wording.words(unique.height)} ({how}), {counted(duplicates, 'duplicate line')}"
        + (f", {defined:,} defined" if wl.format in ("naspa", "collins") else "")
        + (f", {counted(runons, 'run-on form')} added" if runons else "")
        + (f", {counted(bad.height, 'bad line')} skipped" if bad.height else "")
        + (
            f", {counted(wl.warnings['line'].n_unique(), 'line')} with definition warnings"
            if wl.warnings.height
            else ""
        )
    )
    return (
        unique.select(Col.word, "senses", "line"),
        problems(role, name, bad),
        problems(role, name, wl.warnings),
        note,
    )


def build_lexicon(lexicon_files: dict[str, bytes], lexicons: dict, lenient: bool = False, language: str = "en") -> dict:
    """`lexicon_files`: each file's bytes by its path as written in the config; `lexicons`: the config's
    lexicons ({name: {file, format, from, add, remove, max_scowl_level}}, pipeline.config)."""
    pieces: dict[str, pl.DataFrame] = {}  # column -> (word, senses, line) of the words it marks true
    skipped, warnings, notes = [], [], []
    read: dict[tuple[str, str], tuple] = {}  # one file named twice is read once
    for name, entry in lexicons.items():
        for key, prefix, fmt in (
            ("file", "list_", entry.get("format", "auto")),
            ("add", "add_", "auto"),
            ("remove", "remove_", "auto"),
        ):
            if key not in entry:
                continue
            label = entry[key]
            drop = key == "file" and entry.get("drop_capitalised", False)
            if (label, fmt, drop) not in read:
                got = read_list(name, {label: lexicon_files[label]}, fmt, lenient, language, drop)
                read[label, fmt, drop] = got
                skipped.append(got[1])
                warnings.append(got[2])
                notes.append(got[3])
            pieces[prefix + name] = read[label, fmt, drop][0]
    kept = [column for column in pieces if not column.startswith("remove_")]
    words = (
        in_order(pl.concat([pieces[c].select(Col.word) for c in kept]).unique(), language).with_row_index(Col.id)
        if kept
        else pl.DataFrame(schema={Col.id: pl.UInt32, Col.word: pl.String})
    )
    columns = {}
    for column, table in pieces.items():
        columns[column] = words[Col.word].is_in(table[Col.word].implode())
    senses = {}
    for name, entry in lexicons.items():
        if "file" in entry:
            senses[f"{name}_senses"] = _senses_of(words, pieces[f"list_{name}"])
    adds = [pieces[f"add_{name}"] for name, entry in lexicons.items() if "add" in entry]
    if adds:
        # The first add-list (in config order) that defines a word gives its definition.
        defined = pl.concat([t.filter(pl.col("senses").is_not_null()) for t in adds])
        senses["added_senses"] = _senses_of(words, defined.unique(Col.word, keep="first", maintain_order=True))
    lexicon = words.with_columns(**columns, **senses).select(list(lexicon_schema(lexicons)))
    strays, stray_notes = remove_strays(lexicons, pieces, words)
    warnings.append(strays)
    notes += stray_notes
    skipped = pl.concat(skipped).cast(SKIPPED) if skipped else pl.DataFrame(schema=SKIPPED)
    warnings = pl.concat([w.cast(SKIPPED) for w in warnings]) if warnings else pl.DataFrame(schema=SKIPPED)
    if "list_csw" in lexicon.columns and "list_owl" in lexicon.columns:
        owl_only = lexicon.filter(pl.col("list_owl") & ~pl.col("list_csw")).height
        notes.append(f"{counted(owl_only, 'OWL word')} {'is' if owl_only == 1 else 'are'} not in CSW (kept)")
    if skipped.height:
        notes.append(
            f"{counted(skipped.height, 'line')} skipped, listed in 01_skipped.parquet; first: "
            f"{skipped['file'][0]}, line {skipped['line'][0]}: {skipped['reason'][0]}"
        )
    if warnings.height:
        top = warnings.group_by("reason").len().sort("len", "reason", descending=[True, False]).row(0)
        notes.append(
            f"{warnings_text(warnings.height, int((warnings['reason'] == STRAY).sum()))}, listed in 01_warnings.parquet (`ladders warnings`); "
            f"most often: {top[0]} ({top[1]:,})"
        )
    return {"lexicon": lexicon, "skipped": skipped, "warnings": warnings, "notes": notes}  # not a column: output names


def in_order(words: pl.DataFrame, language: str) -> pl.DataFrame:
    """`words` sorted in the alphabet's order of letters (Polish Ą after A, not after Z): each letter written
    as one ASCII character in its place's order, which sorts by bytes (A-Z is already in order)."""
    letters = alphabet(language).letters
    if letters == "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        return words.sort(Col.word)
    places = [chr(0x21 + i) for i in range(len(letters))]  # '!' onwards: one byte each, in order
    key = pl.col(Col.word).str.replace_many(list(letters), places)
    return words.sort(key)


def remove_strays(lexicons: dict, pieces: dict[str, pl.DataFrame], words: pl.DataFrame) -> tuple[pl.DataFrame, list]:
    """Warning rows and notes for the remove-lists' words that no list holds: most likely typos, worth a look."""
    warnings, notes = [], []
    for name, entry in lexicons.items():
        if "remove" in entry:
            table = pieces[f"remove_{name}"]
            stray = table.filter(~pl.col(Col.word).is_in(words[Col.word].implode())).sort("line")
            warnings.append(
                stray.select(
                    pl.lit(name).alias("list"),
                    pl.lit(entry["remove"]).alias("file"),
                    "line",
                    pl.col(Col.word).alias("text"),
                    pl.lit(STRAY).alias("reason"),
                )
            )
            if stray.height:
                notes.append(
                    f"warning: {entry['remove']}, line {stray['line'][0]}: {stray[Col.word][0]} is in no list"
                    + (f" ({stray.height - 1:,} more such words)" if stray.height > 1 else "")
                )
    return pl.concat(warnings) if warnings else pl.DataFrame(schema=SKIPPED), notes


def _senses_of(words: pl.DataFrame, table: pl.DataFrame) -> pl.Series:
    """The `senses` of `table` lined up with `words` (null where it has none)."""
    return words.select(Col.word).join(table.select(Col.word, "senses"), on=Col.word, how="left")["senses"]


STAGE = Stage(
    number=1,
    name="lexicon",  # not a column: the stage's name
    transform=build_lexicon,
    raw=("lexicon_files",),  # not a column: every file the lexicons name (pipeline.config.LEXICON_FILES)
    settings=("lexicons", "lenient", "language"),
    assets=(ALPHABETS,),  # pipeline/languages.toml: a changed fold or order changes the output
    writes={
        "lexicon": Output("01_lexicon.parquet", lexicon_schema),  # not a column: an output name
        "skipped": Output("01_skipped.parquet", SKIPPED),
        "warnings": Output("01_warnings.parquet", SKIPPED),
    },
)
