"""One GCIDE sense's text made fit to show: the cleaning and cutting stages/sources/gcide.py applies.

Not a stage; expressions and lazy frames only, no files. `clean` takes a sense's text as GCIDE writes it
(character codes already made letters) and removes what a player does not read: etymologies and every
other bracket, pronunciations, quotations, `Note:` and `Syn:` paragraphs, plural notes, field labels such
as `(Zool.)`, cross-reference braces; whitespace folded. `cut` keeps, of each text of a String column of a
lazy frame, its first sentence when that ends within MAX_CHARS (never at an abbreviation's full stop), else
the whole text when it fits, else a cut at a clause's or a word's end; parentheses balanced; null when what
is left is too little to read or ends mid-phrase.
"""

from __future__ import annotations

import polars as pl

MAX_CHARS = 300  # a rung's definition is read at a glance
# Whitespace folded to one space: a run of two or more, or one that is not a space. The same text as
# `\s+` -> " ", 3x faster (it leaves the single spaces between words alone).
FOLD = r"\s\s+|[^\S ]"


def clean(sense: pl.Expr) -> pl.Expr:
    """`sense` without brackets (nested up to three deep), pronunciations, quotations, notes, plural notes,
    leading field labels and `{}` braces, whitespace folded; not cut."""
    for _ in range(3):  # brackets nest: [OE. ... [root]130.]
        sense = sense.str.replace_all(r"\[[^\[\]]*\]", "")
    return (
        sense.str.replace_all(r"\\[^\\]*\\", "")  # pronunciations first: they hold quote marks
        .str.replace_all(r'"[^"]*"', "")
        .str.replace(r"\b(?:Note|Syn): .*$", "")
        .str.replace_all(r"\S*\\\S*", "")
        .str.replace_all(r"\S*[\[\]]\S*", "")
        .str.replace_all(r"[{}]", "")
        .str.replace_all(FOLD, " ")
        .str.replace_all(r"\s+([,.;:])", "$1")
        # A plural note opens some senses: `pl. Rami.`, `pl. (Zool.) An order of birds`.
        .str.replace(r"^\s*(?:pl|sing)\.(?: [A-Z][\w-]*(?:, [A-Z][\w-]*)*(?: \([^()]*\))?\.)?", "")
        .str.replace(r"^\s*(?:Also \S+\s*)?(?:\([^()]*\)\s*)*", "")  # (Zool.), (Physiol. Chem.)
        .str.replace(r"^(?:pl|sing)\.\s*", "")
        .str.replace(r"^&\s*(?:[a-z]{1,6}\.\s*)+(?:\([^()]*\)\s*)*", "")  # the rest of a list: `& pl. (Med.)`
        .str.replace_all(r"\(\s*\)", "")
        .str.replace(r"^\d+ ", "")  # WordNet 1.5's sub-sense number: `1. 1 a genus of herbs`
        .str.strip_chars(" ,;:")
    )


# A full stop after these ends an abbreviation, not a sentence: GCIDE writes `(Rom. Antiq.)`, `esp.`,
# `cf.`, `e. g.`. Their stops are hidden while the first sentence is cut, then put back.
ABBREVIATIONS = (
    "e. g",
    "e.g",
    "i. e",
    "i.e",
    "cf",
    "esp",
    "viz",
    "etc",
    "q. v",
    "usu",
    "fig",
    "lit",
    "opp",
    "pl",
    "sing",
    "Rom",
    "Gr",
    "Lat",
    "Fr",
    "Eng",
    "Am",
    "Brit",
    "Scot",
    "Ger",
    "Sp",
    "It",
    "Heb",
    "Ar",
    "Bot",
    "Zool",
    "Anat",
    "Chem",
    "Med",
    "Mus",
    "Naut",
    "Arch",
    "Antiq",
    "Geol",
    "Min",
    "Math",
    "Gram",
    "Mil",
    "Eccl",
    "Theol",
    "Law",
    "Her",
    "Mech",
    "Physiol",
    "Pathol",
    "Pharm",
    "Philos",
    "Astron",
    "Geom",
    "Zo[oö]l",
    "Mr",
    "Mrs",
    "Dr",
    "St",
    "Mt",
    "no",
    "vol",
    "U. S",
    "N. Amer",
    "S. Amer",
    "Amer",
    "Colloq",
    "Prov",
    "Obs",
    "dial",
)
HIDDEN_STOP = "\x02"
# A text that ends so was cut mid-phrase (`... parable of the`, `... weighing usually a`): not shown.
DANGLING = r"(?:\b(?:as|the|and|or|a|an)|,)\.?$"


def cut(frame: pl.LazyFrame, column: str) -> pl.LazyFrame:
    """`column` cut to at most MAX_CHARS, ending at a sentence or clause end, else a word end; never
    mid-word, never at an abbreviation's full stop; parentheses balanced (a cut that left one open ends
    before it); null when too little is left to read. Step by step: each step reads the last one's
    column once (one nested expression would compute the earlier steps again in every branch)."""
    abbreviation = r"(^|[^A-Za-z])(" + "|".join(a.replace(". ", r"\. ").replace(".", r"\.") for a in ABBREVIATIONS)
    text = pl.col("_text")
    head = text.str.slice(0, MAX_CHARS)
    first = head.str.extract(r"^(.{3,}?\.)(?: |$)", 1)  # the first sentence says what the word is
    short = pl.col("_cut")
    opened = short.str.count_matches(r"\(") != short.str.count_matches(r"\)")
    kept = pl.col("_kept")
    # A pointer names the part of speech (`Same as Spasmodic, a.`): no cut.
    dangling = pl.col(column).str.contains(DANGLING) & ~pl.col(column).str.contains(r", (?:n|v|a|adj|adv)\.$")
    return (
        frame.with_columns(
            pl.col(column)
            .str.replace_all(abbreviation + r")\.", "${1}${2}" + HIDDEN_STOP)
            .str.replace_all(r"(^|[^A-Za-z])([A-Z])\.", "${1}${2}" + HIDDEN_STOP)  # J. S. Bach
            .alias("_text")
        )
        .with_columns(
            pl.when(first.is_not_null())
            .then(first)
            .when(text.str.len_chars() <= MAX_CHARS)
            .then(text)
            .otherwise(
                pl.coalesce(head.str.extract(r"^(.{40,}[;,])", 1).str.strip_chars(";,"), head.str.extract(r"^(.*) ", 1))
            )
            .str.replace_all(HIDDEN_STOP, ".", literal=True)
            .alias("_cut")
        )
        .with_columns(
            pl.when(opened)
            .then(short.str.extract(r"^(.*?)\s*\([^()]*$", 1).str.strip_chars(" ,;:"))
            .otherwise(short)
            .alias("_kept")
        )
        .with_columns(
            pl.when((kept.str.count_matches(r"\(") == kept.str.count_matches(r"\)")) & (kept.str.len_chars() > 2))
            .then(kept)
            .alias(column)
        )
        # Cut mid-phrase: back to the last clause's end (LEMMATIZE's example `; as, is the ... for and.`),
        # or nothing.
        .with_columns(
            pl.when(dangling & pl.col(column).str.contains("; "))
            .then(pl.col(column).str.replace(r"^(.{3,});[^;]*$", "$1."))  # too little left ('; ,'): none
            .otherwise(pl.col(column))
            .alias(column)
        )
        .with_columns(pl.when(~dangling).then(pl.col(column)).alias(column))
        .drop("_text", "_cut", "_kept")
    )
