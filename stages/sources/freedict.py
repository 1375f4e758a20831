"""A FreeDict bilingual dictionary (dictd files) read into one English gloss per headword.

Not a stage, and pure: the caller hands over the files as bytes (`freedict-<xxx>-eng.index` and
`freedict-<xxx>-eng.dict.dz`, from raw/<lang>/, fetched by `make raw-lang`), and they are read by
stages/sources/gcide_dictd.py's read_dictd, the one reader of dictd files. FreeDict's entries (made from TEI)
look like

    przestawać /pʃɛˈstavaʨ̑/ <v>             the headword, its pronunciation, its part of speech
    1. associate with, mix with              a sense: its English translation
    (przestarzałe) obcować z kimś             a note in the source language (left out)
    2. stop
       Synonym: {…}   see: {…}               indented cross-references (left out)

A sense is the line after the headword line, or a line `N. ...`; its translation is that line with the
part-of-speech tags (`<n>`) removed. The lines after it (notes in the source language, usage, synonyms,
cross-references) are left out: a gloss shows the translation alone.

`glosses` gives (`headword` str, as the index writes it, case and accents kept: the caller folds it into the
language's alphabet; `gloss` str, the entry's senses joined by "; ", the entries of one headword in index
order, a repeated translation once). Phrases (a space in the headword) and the 00-database entries are left
out, and so are the entries of another headword under the same key (`a-`, a prefix, under `a`) or of an
acronym, prefix, suffix, abbreviation or symbol (NOT_WORDS); an entry with no translation gives no row. Damage is gcide_dictd's InputFormatError, naming the file.
"""

from __future__ import annotations

import polars as pl

from pipeline.alphabet import alphabet
from pipeline.columns import Col
from stages.sources.gcide_dictd import read_dictd

SEPARATOR = "; "  # between the senses of a gloss
TRANSLATION = "(English) "  # a gloss is shown as what it is: a translation, not a definition
# A single word: no blank, and not one of dictd's 00-database entries (00databaseinfo, 00-database-url).
HEADWORD = r"^[^\s]+$"
SENSE_NUMBER = r"^\d+\.\s+"


def source_name(files: dict[str, bytes]) -> str:
    """The dictionary's name as a definition_source: `freedict-spa-eng` (its index file's name)."""
    return _files(files)[0].removesuffix(".index")


def translations(files: dict[str, bytes], language: str) -> pl.DataFrame:
    """(`word`, `definition`): each headword folded into `language`'s alphabet (pipeline.alphabet; one that
    does not fold is left out), its gloss shown as a translation, `(English) duck`; the glosses of the
    headwords one folded word gathers (French `élève`, `élevé`) joined in index order, each once."""
    table = glosses(files)
    folded, refused = alphabet(language).fold_column(table["headword"])
    return (
        table.with_columns(folded.alias(Col.word))
        .filter(~refused)
        .with_columns(pl.col("gloss").str.split(SEPARATOR))
        .explode("gloss")
        .unique([Col.word, "gloss"], keep="first", maintain_order=True)
        .group_by(Col.word, maintain_order=True)
        .agg((pl.lit(TRANSLATION) + pl.col("gloss").str.join(SEPARATOR)).alias(Col.definition))
    )


# Entries that are no word of a ladder under the index's key: an acronym (AA under `aa`), a prefix or suffix
# (`a-` under `a`), an abbreviation or a symbol. Their part of speech says so: `<acronym>`.
NOT_WORDS = ("acronym", "prefix", "suffix", "abbreviation", "symbol")


def _files(files: dict[str, bytes]) -> tuple[str, str]:
    """The index and dict.dz names among `files` (freedict-xxx-eng.*: one pair)."""
    names = sorted(path.rsplit("/", 1)[-1] for path in files)
    index = [n for n in names if n.endswith(".index")]
    if len(index) != 1:
        return "freedict.index", "freedict.dict.dz"  # read_dictd names what is missing
    return index[0], index[0].removesuffix(".index") + ".dict.dz"


def glosses(files: dict[str, bytes], label: str = "FreeDict") -> pl.DataFrame:
    """(`headword`, `gloss`): one row per headword with a translation, in order of first appearance."""
    index, data = _files(files)
    rows = read_dictd(files, index, data, label, HEADWORD).filter(~pl.col("head").str.starts_with("00"))
    first = pl.col("entry").str.extract(r"^([^\n]*)", 1)
    written = first.str.extract(r"^(.*?)(?:\s+/[^/]*/)?(?:\s+<[^<>]*>)?\s*$", 1)
    pos = first.str.extract(r"<([^<>]*)>\s*$", 1).fill_null("")
    rows = rows.filter(
        (written.str.to_lowercase() == pl.col("head").str.to_lowercase())
        & ~pos.str.contains("^(?:" + "|".join(NOT_WORDS) + ")$")
    )
    lines = (
        rows.select("head", "order", pl.col("entry").str.split("\n").alias("line"))
        .explode("line")
        .with_columns(pl.int_range(pl.len()).over("order").alias("at"))
        .filter(pl.col("at") > 0)  # the headword line
    )
    line = pl.col("line")
    # A sense: the first line after the headword line, or a numbered line; notes and references are not.
    sense = (pl.col("at") == 1) & ~line.str.contains(SENSE_NUMBER) & ~line.str.contains(r"^\s*$")
    sense = sense | line.str.contains(SENSE_NUMBER)
    text = (
        line.str.replace(SENSE_NUMBER, "")
        .str.replace_all(r"<[^<>]*>", "")
        .str.replace(r"\s+\d+\.$", "")  # a sense number left at the end of the line before it (FreeDict's TEI)
        .str.replace_all(r"\s+", " ")
        .str.strip_chars(" ;,")
    )
    senses = (
        lines.filter(sense)
        .select("head", "order", "at", text.alias("text"))
        .filter(pl.col("text") != "")
        .unique(["head", "text"], keep="first", maintain_order=True)
        .sort("order", "at")
    )
    return (
        senses.group_by("head", maintain_order=True)
        .agg(pl.col("text").str.join(SEPARATOR).alias("gloss"))
        .rename({"head": "headword"})
    )
