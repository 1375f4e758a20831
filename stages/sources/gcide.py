"""GCIDE (the GNU Collaborative International Dictionary of English) as a definition source for stage 2.

Not a stage, and no files: it reads GCIDE's entries as stages/sources/gcide_dictd.py gives them (`lemma`,
`entry`, `order`: one row per single-word index key) and parses them. An entry looks like

    Heron \\Her"on\\, n. [OE. heiroun, ... Cf. {Aigret}, {Egret}.] (Zool.)
       Any wading bird of the genus {Ardea} and allied genera, ...
       [1913 Webster]

or has numbered senses (`1. Deprived of heat, ...`). For a gloss, an entry counts
only under its own headword (the index also points forms and cross-references into
other entries: SYN into TRACE's), and not when it is an acronym (the offensive
label is read from every entry the index lists under the lemma, forms and
acronyms included). For each lemma and part
of speech the first sense is kept (obsolete ones after archaic ones, and those
after the rest, across all its entries: a lemma with a current sense shows none),
cleaned for people and cut to its first sentence (never at an abbreviation's
full stop): character codes (`['e]`, `[imac]`) become letters, the etymology
and every other bracket, quotations (`"..." --Milton.`), notes, plural notes,
sense numbers and `{}` cross-reference braces removed, whitespace folded,
parentheses balanced, at most MAX_CHARS (character codes, quotation lines and
sense numbers are handled here; the rest of the cleaning and the cut are
stages/sources/gcide_text.py's). `See X.` and `Same as X.` are followed once to
X's first sense of the same part of speech; a pointer X cannot answer in that
part of speech is dropped. A word is flagged offensive when the head or first sense of one
of its entries carries a usage label naming it vulgar, obscene, offensive or
derogatory (`[Low, deprecatory, and vulgar]`).

From the entries, `glosses` gives (`lemma`, `pos`, `rank`, `gloss`): lemma in
lower case, pos one of n, v, adj, adv, prep, conj, interj, pron, rank the order
of the part of speech in the dictionary; `offensive_lemmas` the lemmas labelled
offensive; `current_firsts` (`lemma`, `pos`, `gloss`) the first current sense,
cleaned but not cut, for comparing with WordNet. Stage 2 cleans glosses only for
the lemmas its still undefined words can be looked up by, and reads labels only
for its words.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import polars as pl

from pipeline.columns import Col
from stages.sources.gcide_text import FOLD, clean, cut

POS = {
    "n.": "n",
    "v. t.": "v",
    "v. i.": "v",
    "v.": "v",
    "a.": "adj",
    "adv.": "adv",
    "prep.": "prep",
    "conj.": "conj",
    "interj.": "interj",
    "pron.": "pron",
}
SENSE_MARK = "\x01"
CHUNK = 16_384  # the lemmas whose entries are parsed at once (_by_lemmas)
# A usage label, not an etymology that mentions {Vulgar}: a short bracket of plain words.
OFFENSIVE_LABEL = r"\[(?:[A-Za-z]+\.?,? (?:and |or )?){0,4}(?i:vulgar|obscene|offensive|derogatory)[A-Za-z,. ]{0,20}\]"
# Those words in an entry's raw text, any letter perhaps a character code ([a], ['e]).
LABEL_WORDS = "(?i)" + "|".join(
    "".join(rf"(?:{c}|\[[^\[\]]{{1,8}}\])" for c in word)
    for word in ("vulgar", "obscene", "offensive", "derogatory")  # not a column
)
# A letter GCIDE could not write, left as `?` inside a word or a pronunciation (Leucorrh?a, mi?ing,
# `(-b?nts)`, `Edward ?`); a question mark ends a word and is followed by a space and a capital or the end.
LOST_LETTER = r"\?[^\s]|(?:^|[^A-Za-z])\?|\? [a-z]"


# Every head of the entry (`Color \Col"or\, Colour \Col"our\, n.`), then its parts of speech, perhaps
# a list (`a. & n.`, `v. t. & i.`): the first is the entry's.
HEADER = (
    r"^[^\\]*\\[^\\]*\\(?:,? (?:or )?[^\\]*\\[^\\]*\\)*\s*(?:\([^)]*\))?,?\s*"
    r"(?P<pos>(?:[a-z]{1,6}\. ?){1,3}(?:& (?:[a-z]{1,6}\. ?){1,3})*)"
)


def _flat(entry: pl.Expr) -> pl.Expr:
    """An entry's text on one line: quotations and citations removed, whitespace folded, character codes
    made letters."""
    # Quotations stand on lines indented deeper than the senses; citations start with --Author.
    flat = entry.str.replace_all(r"\n {9,}[^\n]*", "").str.replace_all(r"--[A-Z][^\n]*", "").str.replace_all(FOLD, " ")
    # Character codes first, so that removing brackets later keeps the letter: Ardeid[ae], caf['e].
    return flat.str.replace_all(r"\[(ae|oe|AE|OE)\]", "$1").str.replace_all(
        r"\[['`^~=.:\"]?([a-zA-Z])(?:um|mac|circ|ced|til|ring|acute|grave|dot)?\]", "$1"
    )


def _heads(flat: pl.Expr) -> pl.Expr:
    """The heads a flat entry is written under (`Color`, `Colour`), letters only, as written."""
    return (
        flat.str.extract(r"^([^\\]*\\[^\\]*\\(?:,? (?:or )?[^\\]*\\[^\\]*\\)*)", 1)
        .str.extract_all(r"(?:^|, |or )[^\\,]+?\s*\\")
        .list.eval(pl.element().str.replace_all(r"^(?:, |or )|[^A-Za-z]", ""))
    )


def _entry_texts(table: pl.DataFrame) -> pl.LazyFrame:
    """(`entry`, `pos`, `offensive`, `lower_heads`, `acronym`, `sense`): each distinct entry text of `table`
    that names a part of speech, parsed (the columns as in parsed; `lower_heads` its heads in lower case)."""
    # Several index keys point at one entry (forms, cross-references): each text is parsed once.
    return (
        table.lazy()
        .select(pl.col("entry").unique())
        .with_columns(_flat(pl.col("entry")).alias("flat"))
        .with_columns(
            # `v. t.` is one part of speech; otherwise the first word says it (`n. sing. & pl.`: n).
            pl.col("flat")
            .str.extract(HEADER, 1)
            .str.extract(r"^(v\. [ti]\.|[a-z]+\.)", 1)
            .replace_strict(POS, default=None)
            .alias("pos"),
            pl.col("flat").str.replace(HEADER, "").str.replace(r"^[\s,;]+", "").alias("body"),
            _heads(pl.col("flat")).alias("heads"),
        )
        .filter(pl.col("pos").is_not_null())
        .with_columns(
            pl.col("heads").list.eval(pl.element().str.to_lowercase()).alias("lower_heads"),
            (
                pl.col("heads").list.first().str.contains(r"^[A-Z]{2,}$")
                | pl.col("flat").str.slice(0, 200).str.contains(r"(?i)\[(?:acronym|abbrev)")
            ).alias("acronym"),
            # Senses are numbered `1. `, `2. ` (at the start of the body too: ALS `1. Also.`).
            pl.col("body")
            .str.replace_all(r"(^|\s)(?:\d{1,2}\.\s+)+", "$1" + SENSE_MARK)
            .str.split(SENSE_MARK)
            .alias("sense"),
        )
        # With numbered senses, the text before the first is etymology and labels: skip it.
        # The label of an entry stands in its head or its first sense: a later sense's label
        # (MOTHER's vulgar compound) does not make the word offensive.
        .with_columns(pl.col("sense").list.head(2).list.join(" ").str.contains(OFFENSIVE_LABEL).alias(Col.offensive))
        .select(
            "entry",
            "pos",
            Col.offensive,
            "lower_heads",
            "acronym",
            pl.when(pl.col("sense").list.len() > 1)
            .then(pl.col("sense").list.slice(1))
            .otherwise(pl.col("sense"))
            .alias("sense"),
        )
    )


def parsed(table: pl.DataFrame) -> pl.LazyFrame:
    """Entries (`lemma`, `entry`, `order`) with a part of speech: (`lemma`, `order`, `pos`, `sense`: the list
    of its senses' texts, `offensive`: its head or first sense carries an offensive usage label,
    `headword`: the lemma is a headword of the entry as written (not a form or cross-reference the
    index points into it), `acronym`: written in capitals or labelled an acronym or abbreviation)."""
    return (
        table.lazy()
        .join(_entry_texts(table), on="entry", maintain_order="left")
        .select(
            "lemma",
            "order",
            "pos",
            Col.offensive,
            pl.col("lower_heads").list.contains(pl.col("lemma")).alias("headword"),
            "acronym",
            "sense",
        )
    )


def offensive_lemmas(table: pl.DataFrame) -> pl.Series:
    """The lemmas, sorted, of entries (`lemma`, `entry`, `order`) labelled offensive (module docstring):
    entries with a part of speech, whether or not a sense of theirs gives a gloss."""
    # Only entries that spell a label word somewhere can carry the label: the others (all but a few
    # hundred) skip the parse. Flattening removes text and turns character codes into letters, so a
    # letter of the word may be written as a code (vulg[a]r) but nothing else can make one appear.
    named = table.filter(pl.col("entry").str.contains(LABEL_WORDS))
    return (
        parsed(named)
        .filter(pl.col(Col.offensive))
        .select(pl.col("lemma").unique().sort())
        .collect(engine="streaming")["lemma"]
    )


def _first_senses(table: pl.DataFrame) -> pl.DataFrame:
    """(`lemma`, `order`, `pos`, `gloss`): per lemma and part of speech, the first sense of its headword
    entries (glosses' docstring), with bare pointers (`See X.`) still in place."""
    senses = (
        parsed(table)
        .filter(pl.col("headword") & ~pl.col("acronym"))
        .with_columns(pl.int_ranges(pl.col("sense").list.len()).alias("k"))
        .explode("sense", "k")
        .with_columns(
            pl.when(pl.col("sense").str.contains(r"\[Obs"))
            .then(2)
            .when(pl.col("sense").str.contains(r"\[(?:Archaic|R\.|Rare)"))
            .then(1)
            .otherwise(0)
            .alias("obsolete"),
            clean(pl.col("sense")).alias("gloss"),
        )
        .filter(pl.col("gloss").str.len_chars() > 2)
        .filter(pl.col("obsolete") == pl.col("obsolete").min().over("lemma"))
        .sort("lemma", "order", "k")
        # Cutting is the costly step: only the few senses that can come first are cut (a cut may leave
        # nothing readable, and then the next sense serves).
        .filter(pl.int_range(pl.len()).over("lemma", "pos") < 3)
        .with_columns(
            pl.col("gloss")
            # Sub-senses `(a) ... (b) ...`: the first, up to its last sentence or clause end (what stands
            # between them is often cut, ASHLER's `masonry made of squared (b)`); none when it has no end.
            .str.replace(r"^(.*)[.;][^.;]*\s\(b\)\s.*$", "$1.")
            .str.replace(r"^.*\s\(b\)\s.*$", "")
            .str.replace(r"^\(a\)\s*", "")
            # An example's `as, ...` whose quotation was removed: `... troops; as`.
            .str.replace(r"[;,]\s*as[,.]?$", ".")
            # A run-on word after the sense (`-- Spas*mod"ic*al*ly, adv.`, `-- a. Rowdy; rough.`), and a
            # comma left before the full stop (PILCROW `a paragraph mark,.`).
            .str.replace(r"\s+--\s+[A-Za-z]*[`*\"][A-Za-z`*\"]*,?\s+(?:[a-z]{1,5}\.\s*)+$", "")
            .str.replace(r"\s+--\s+(?:[a-z]{1,5}\.\s*)+[A-Z].*$", "")
            .str.replace(r",\s*\.$", ".")
            .alias("gloss")
        )
    )
    senses = (
        cut(senses, "gloss")
        # Letters GCIDE could not write (Greek, as `?????`) and etymology left over (`lying, fr.`).
        .filter(
            pl.col("gloss").is_not_null()
            & pl.col("gloss").str.contains("[A-Za-z]{2}")
            & ~pl.col("gloss").str.contains(r"\?\?|\ufffd|\bfr\.$")
            # An editor's note left in the text: GUIDELINE `hypen is changed from WN: adjust hier.`
            & ~pl.col("gloss").str.contains(r"\bWN\b")
            # An inflection's pointer (`pl. of Stratum.`, `imp. of Hold.`): the morphology's work.
            & ~pl.col("gloss").str.contains(r"^(?:of|from) [A-Z]")
            # A brand's name is a proper noun: SIMPLESSE is no `trade name for a fat substitute`.
            & ~pl.col("gloss").str.contains(r"(?i)^(?:an? |the )?trade ?name")
        )
    )
    # Only a bare pointer is followed: `See Crowd, a violin.` names one sense of CROWD, not its first.
    see = (
        pl.col("gloss")
        .str.extract(r"^(?:See|Same as) (?:\d(?:st|d|th) )?([A-Za-z]+)(?:, (?:n|v|a|adj|adv)\.)?\.?$", 1)
        .str.to_lowercase()
    )
    # The streaming engine runs the regular expressions on both cores: 2.7 s -> 1.6 s for raw/.
    return (
        senses.unique(["lemma", "pos"], keep="first", maintain_order=True)
        .select("lemma", "order", "pos", "gloss", see.alias("see"))
        .filter(pl.col("see").is_not_null() | ~pl.col("gloss").str.contains(r"^(?:See|Same as) "))
        .collect(engine="streaming")
    )


def _decode_lost(first: pl.DataFrame, table: pl.DataFrame) -> pl.DataFrame:
    """`first` (glosses' frame) with each word that holds a lost letter (`Leucorrh?a`) spelled with `oe` or
    `ae` where that makes a headword of `table` (entries: Leucorrhoea), and without the glosses that still
    hold one (LOST_LETTER)."""
    word = re.compile(r"[A-Za-z]+\?[a-z]+")
    lost = first.filter(pl.col("gloss").str.contains(word.pattern))
    tries = {w.lower().replace("?", pair) for g in lost["gloss"] for w in word.findall(g) for pair in ("oe", "ae")}
    known = set(table.filter(pl.col("lemma").is_in(sorted(tries)))["lemma"])

    def spelled(found: re.Match) -> str:
        text = found[0]
        return next((text.replace("?", p) for p in ("oe", "ae") if text.lower().replace("?", p) in known), text)

    decoded = pl.Series("gloss", [word.sub(spelled, g) for g in lost["gloss"]], dtype=pl.String)
    return (
        pl.concat([first.filter(~pl.col("gloss").str.contains(word.pattern)), lost.with_columns(decoded)])
        .sort("lemma", "order", maintain_order=True)
        .filter(~pl.col("gloss").str.contains(LOST_LETTER))
    )


def glosses(table: pl.DataFrame, wanted: pl.Series | None = None) -> pl.DataFrame:
    """(`lemma`, `pos`, `rank`, `gloss`) from entries (`lemma`, `entry`, `order`), for the lemmas `wanted`
    (all when None): per lemma and part of speech the first sense of the entries whose headword the
    lemma is (not an acronym), cleaned and cut (module docstring). Obsolete senses come after archaic
    ones, and those after the rest, across all of a lemma's entries; a lemma with a current sense shows
    none of them. A sense that only sends the reader elsewhere (`See Sarcenet.`, `Same as Crossbill.`)
    is followed once, to that entry's first sense: `same as SARCENET: ...`. `rank` orders a lemma's parts
    of speech as the dictionary does."""

    def of(lemmas: pl.Series | None) -> pl.DataFrame:
        return _by_lemmas(table, lemmas, _first_senses)

    first = _decode_lost(of(wanted), table)
    pointed = first["see"].drop_nulls().unique()
    known = first.filter(pl.col("see").is_null())
    if wanted is not None and pointed.len():
        known = pl.concat(
            [known, of(pointed.filter(~pointed.is_in(first["lemma"].implode()))).filter(pl.col("see").is_null())]
        )
    # To the target's sense of the same part of speech: JAMB, v. `See Jam.` is not JAM's noun sense.
    targets = known.select(pl.col("lemma").alias("see"), "pos", pl.col("gloss").alias("target"))
    # Only a pointer's new text is cut: the other glosses were cut in _first_senses, and cut leaves its
    # own output as it is (tests/unit/stages/test_definitions_rewrites.py).
    pointers = (
        cut(
            first.lazy()
            .filter(pl.col("see").is_not_null())
            .join(targets.lazy(), on=["see", "pos"], how="left")
            .with_columns(pl.format("same as {}: {}", pl.col("see").str.to_uppercase(), "target").alias("gloss")),
            "gloss",
        )
        .filter(pl.col("gloss").is_not_null())
        .select(first.columns)
        .collect()
    )
    followed = pl.concat([first.filter(pl.col("see").is_null()), pointers])
    return (
        followed.sort("lemma", "order", maintain_order=True)
        .with_columns(pl.int_range(pl.len()).over("lemma").alias("rank"))
        .select("lemma", "pos", "rank", "gloss")
    )


# Labels of a sense no one reads first today: obsolete, archaic or rare, and a region's or a trade's word.
NOT_CURRENT = r"\[(?:Obs|Archaic|R\.|Rare|Prov|Dial|Local|Scot|Colloq|Slang|Cant|Low)"


def current_firsts(table: pl.DataFrame, wanted: pl.Series) -> pl.DataFrame:
    """(`lemma`, `pos`, `gloss`): for the lemmas `wanted`, per part of speech, the first sense of their headword
    entries (not an acronym's) that no label marks obsolete, archaic, rare, dialect, colloquial or slang,
    brackets, quotations and pronunciations removed but not cut: stage 2 compares its words with WordNet's
    glosses (wordnet.agreeing_senses), it shows no one this text."""
    return _by_lemmas(table, wanted, _current_firsts)


def _current_firsts(table: pl.DataFrame) -> pl.DataFrame:
    """current_firsts of every lemma of `table` (entries)."""
    return (
        parsed(table)
        .filter(pl.col("headword") & ~pl.col("acronym"))
        .with_columns(pl.int_ranges(pl.col("sense").list.len()).alias("k"))
        .explode("sense", "k")
        .filter(~pl.col("sense").str.contains(NOT_CURRENT))
        .with_columns(clean(pl.col("sense")).alias("gloss"))
        .filter(pl.col("gloss").str.contains("[A-Za-z]{3}"))
        .sort("lemma", "order", "k")
        .unique(["lemma", "pos"], keep="first", maintain_order=True)
        .select("lemma", "pos", "gloss")
        .collect(engine="streaming")
    )


def _by_lemmas(
    table: pl.DataFrame, wanted: pl.Series | None, senses: Callable[[pl.DataFrame], pl.DataFrame]
) -> pl.DataFrame:
    """`senses` of the entries (`table`) of the lemmas `wanted` (all when None), CHUNK lemmas at a time in
    their sorted order. What `senses` gives a lemma comes from its own entries alone, in lemma order, so
    the rows are those of one call; only a chunk's entries are parsed and their senses exploded at once
    (all of them at once were stage 2's peak memory, about 230 MiB above what it held)."""
    lemmas = table["lemma"].unique()
    if wanted is not None:
        lemmas = lemmas.filter(lemmas.is_in(wanted.implode()))
    lemmas = lemmas.sort()
    return pl.concat(
        [
            senses(
                table.join(lemmas.slice(start, CHUNK).to_frame("lemma"), on="lemma", how="semi", maintain_order="left")
            )
            for start in range(0, max(lemmas.len(), 1), CHUNK)
        ]
    )
