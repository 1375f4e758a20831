"""The definition grammar of NASPA and Collins lists: a line's definition text parsed into senses.

Not a stage, and no files: stages/sources/wordlists.py reads a list, splits each line into its word and
the rest, and hands the rest here (after removing unseen characters). The grammar, as the real NASPA and
Collins files write it:

    AM      <be=v> [v]                          the sense is only a link: BE's first verb sense
    AE      {one=adj} [adj]                     the same, written as a synonym link
    BI      a {bisexual=n} [n -S]               a synonym link inside a sentence
    MOUSE   a small {rodent=n} [n MICE] / to catch mice [v MOUSED, MOUSING, MOUSES]
    ADD     to combine [v -ED, -ING, -S] : ADDABLE ~adj          run-on forms (OWL)
    AWN     a bristle [n -S] : AWNED, AWNLESS, AWNY [adj]        run-on forms (OSPD), several
    WRY     contorted [adj] : WRYLY ~adv / to contort [v]        run-ons then more senses
    AN      used before a vowel sound [indefinite_article]       any part-of-speech token

Senses are separated by ` / `; `{ldquo}` and `{rdquo}` are quotation marks (QUOTES, which stage 2
renders). A part of speech is mapped to the short set in PARTS_OF_SPEECH where it is known
(`indefinite_article` -> `article`) and kept as written where not.

`parse_senses` takes (`line` u32, `word` str, `rest` str: the definition text) and gives three frames:
- per line: line u32, senses list[SENSE] (SENSE is in pipeline/schemas.py), the line's senses in order;
- run-on entries: line u32, word str, senses list[SENSE] (one sense, `runon_of` its head word),
  is_runon bool (true);
- warnings: line u32, reason str, a row per definition-level trouble of a sense (empty; without its
  bracket; a bracket doubled or left open; no, or an unknown, part of speech, or no space after it; text
  after the bracket; unknown markup or an unclosed link; ` : ` not followed by run-on forms; an unknown
  part of speech in a link) or of a run-on form (no known part of speech). The word and the cleanest
  text that can be recovered are kept whatever the trouble.
"""

from __future__ import annotations

import polars as pl

from pipeline.columns import Col
from pipeline.schemas import SENSE

PARTS_OF_SPEECH = ("n", "v", "adj", "adv", "interj", "prep", "conj", "pron", "article", "det")
POS_ALIASES = {
    "indefinite_article": "article",
    "definite_article": "article",
    "interjection": "interj",
    "noun": "n",
    "verb": "v",
    "adjective": "adj",
    "adverb": "adv",
    "pronoun": "pron",
    "preposition": "prep",
    "conjunction": "conj",
    "determiner": "det",
}
QUOTES = {"ldquo": "\u201c", "rdquo": "\u201d"}

LINK = r"\{[a-z]+=[a-z_]*\}|<[a-z]+=[a-z_]*>"  # {one=adj}, <be=v>
MARKUP = rf"{LINK}|\{{(?:ldquo|rdquo)\}}"
PURE_LINK = r"^[{<](?P<word>[a-z]+)=(?P<pos>[a-z_]*)[}>]$"
_RUNON_ITEM = r"[A-Z]+(?:, [A-Z]+)* (?:~[a-z_]+|\[[^\[\]]*\])"
SEGMENT = rf"^(?P<sense>.*?)(?: : (?P<runons>{_RUNON_ITEM}(?:(?:, | : ){_RUNON_ITEM})*))?$"
# SEGMENT's run-on forms as the leftmost match that reaches the end: the same split as its lazy `.*?`.
RUNONS_AT_END = rf" : ({_RUNON_ITEM}(?:(?:, | : ){_RUNON_ITEM})*)$"
RUNON = r"^(?P<words>[A-Z]+(?:, [A-Z]+)*) (?:~(?P<tilde>[a-z_]+)|\[(?P<bracket>[^\[\]]*)\])$"
ROOT = r"^([A-Z]{2,}), "
ORIGIN = r"^(?:[A-Z]{2,}, )?\(([^()]+)\)"
ALSO = r"\balso ([A-Z]{2,}(?:,? [A-Z]{2,})*)\b"


def _pos(column: pl.Expr) -> pl.Expr:
    return column.replace(POS_ALIASES)


def split_runons(segments: pl.DataFrame) -> pl.DataFrame:
    """(`line`, `k`, `segment`, ...) -> the same with SEGMENT's groups `sense` and `runons` added, in
    (`line`, `k`) order. SEGMENT's lazy capture was the slowest expression of the parse. Without " : "
    a segment has no run-on forms, so only the segments holding one are searched (licensed CSW:
    0.34 -> 0.19 s), and for those RUNONS_AT_END finds the forms, the sense being what comes before
    (0.19 -> 0.04 s): a leftmost search whose capture the regex engine runs only on the match."""
    seg, runon = pl.col("segment").str.strip_chars(), pl.col("segment").str.contains(" : ", literal=True)
    forms = pl.col("runons")
    return pl.concat(
        [
            segments.filter(~runon).with_columns(seg.alias("sense"), pl.lit(None, pl.String).alias("runons")),
            segments.filter(runon)
            .with_columns(seg.alias("sense"), seg.str.extract(RUNONS_AT_END, 1).alias("runons"))
            .with_columns(
                pl.when(forms.is_not_null())
                .then(pl.col("sense").str.head(-(forms.str.len_chars().cast(pl.Int64) + 3)))
                .otherwise(pl.col("sense"))
            ),
        ]
    ).sort("line", "k")


def last_bracket(text: pl.Expr) -> pl.Expr:
    """What the last [...] of each text holds (null without one): the last of all of them, 5x faster
    than a greedy `^.*` before one bracket pattern, which says the same."""
    return text.str.extract_all(r"\[[^\[\]]*\]").list.last().str.slice(1).str.strip_suffix("]")


def _segments(defined: pl.DataFrame) -> pl.DataFrame:
    """(`line`, `word`, `rest`) -> one row per sense segment (`line`, `word`, `segment`, `k`: its place
    in the line), split from its run-on forms (split_runons)."""
    segments = (
        defined.select("line", Col.word, pl.col("rest").str.split(" / ").alias("segment"))
        .with_columns(pl.int_ranges(pl.col("segment").list.len(), dtype=pl.UInt32).alias("k"))
        .explode("segment", "k")
    )
    return split_runons(segments)


def _bodies(segments: pl.DataFrame) -> pl.DataFrame:
    """Segments with their bracket read: `opens`, `closes` (brackets counted), `bracket` (the last one's
    text), `after` (text after it), `pos_written`, `inflection_written` (the bracket's two parts), `body`
    (the sense's text, markup that is not a link removed) and `bad_markup`."""
    text = pl.col("sense")
    senses = segments.with_columns(
        text.str.count_matches(r"\[").alias("opens"),
        text.str.count_matches(r"\]").alias("closes"),
        last_bracket(text).alias("bracket"),
        text.str.extract(r"\]([^\[\]]*)$", 1).str.strip_chars().alias("after"),
        text.str.replace(r"\[.*$", "").str.replace(r"\]", "").str.strip_chars().alias("body"),
    ).with_columns(
        pl.col("bracket").str.extract(r"^([a-z_]+)", 1).alias("pos_written"),
        pl.col("bracket").str.replace(r"^[a-z_]*", "").alias("inflection_written"),
    )
    # Text after the bracket: a lone full stop is dropped, words are kept as part of the body.
    body = (
        pl.when(pl.col("after").str.contains(r"[A-Za-z0-9]"))
        .then(pl.concat_str(pl.col("body"), pl.lit(" "), pl.col("after")))
        .otherwise(pl.col("body"))
    )
    unmarked = body.str.replace_all(MARKUP, "")
    bad_markup = unmarked.str.contains(r"[{}<>]")
    return senses.with_columns(
        pl.when(bad_markup)
        .then(body.str.replace_all(r"[{<]([^{}<>=]*)=[a-z_]*[}>]", "$1").str.replace_all(r"[{}<>]", ""))
        .otherwise(body)
        .str.strip_chars()
        .alias("body"),
        bad_markup.alias("bad_markup"),
    )


def _sense_fields(senses: pl.DataFrame) -> pl.DataFrame:
    """_bodies' rows with SENSE's fields read from the bracket and the body: pos, inflection, origin,
    also, root, link_word, link_pos, synonyms, runon_of (null: a line's own sense)."""
    body = pl.col("body")
    pure = body.str.extract_groups(PURE_LINK)
    return senses.with_columns(
        _pos(pl.col("pos_written")).alias("pos"),
        pl.col("inflection_written").str.strip_chars().replace("", None).alias("inflection"),
        body.str.extract(ORIGIN, 1).alias("origin"),
        body.str.extract(ALSO, 1)
        .str.split(" ")
        .list.eval(pl.element().str.strip_chars(","))
        .fill_null([])
        .alias("also"),
        body.str.extract(ROOT, 1).alias("root"),
        pure.struct.field("word").str.to_uppercase().alias("link_word"),  # not a column: PURE_LINK's group
        _pos(pure.struct.field("pos").replace("", None)).alias("link_pos"),
        body.str.extract_all(r"\{[a-z]+=[a-z_]+\}")
        .list.eval(
            pl.struct(
                pl.element().str.extract(r"^\{([a-z]+)=", 1).str.to_uppercase().alias(Col.word),
                _pos(pl.element().str.extract(r"=([a-z_]+)\}$", 1)).alias("pos"),
            )
        )
        .alias("synonyms"),
        pl.lit(None, pl.String).alias("runon_of"),
    )


def _sense_warnings(senses: pl.DataFrame) -> list[pl.DataFrame]:
    """(`line`, `reason`) frames, one per kind of trouble a sense of _sense_fields can show, in this order."""
    reasons = [
        (pl.col("segment") == "", pl.lit("an empty sense (nothing between two ' / ')")),
        (
            pl.col("bracket").is_null() & (pl.col("segment") != ""),
            pl.lit("a sense without its [part of speech] bracket (kept without one)"),
        ),
        (
            (pl.col("opens") > 1) | (pl.col("closes") > 1) | (pl.col("opens") != pl.col("closes")),
            pl.lit("a bracket doubled or left open (the last one kept)"),
        ),
        (pl.col("after") != "", pl.lit("text after the bracket")),
        (
            pl.col("bracket").is_not_null() & pl.col("pos").is_null(),
            pl.lit("no part of speech in the bracket (").add(pl.col("bracket")).add(pl.lit(")")),
        ),
        (
            pl.col("pos").is_not_null() & ~pl.col("pos").is_in(PARTS_OF_SPEECH),
            pl.lit("unknown part of speech '").add(pl.col("pos")).add(pl.lit("' (kept as written)")),
        ),
        (
            pl.col("pos_written").is_not_null() & pl.col("inflection_written").str.contains(r"^[^ ]"),
            pl.lit("no space after the part of speech in [").add(pl.col("bracket")).add(pl.lit("]")),
        ),
        (pl.col("bad_markup"), pl.lit("unknown markup or an unclosed link (markup removed)")),
        (
            pl.col("sense").str.contains(r" : [A-Z]{2,}"),
            pl.lit("' : ' not followed by run-on forms ~pos (kept as text)"),
        ),
        (
            pl.col("link_pos").is_not_null() & ~pl.col("link_pos").is_in(PARTS_OF_SPEECH),
            pl.lit("unknown part of speech in a link"),
        ),
    ]
    return [senses.filter(cond.fill_null(False)).select("line", reason.alias("reason")) for cond, reason in reasons]


def _runons(segments: pl.DataFrame) -> pl.DataFrame:
    """One row per run-on form of the segments that have them: `line`, `head` (the line's word), `k`,
    `word`, `pos_written`, `pos`, `inflection` (and RUNON's groups)."""
    return (
        segments.filter(pl.col("runons").is_not_null())
        .select(
            "line", pl.col(Col.word).alias("head"), "k", pl.col("runons").str.extract_all(_RUNON_ITEM).alias("item")
        )
        .explode("item")
        .with_columns(pl.col("item").str.extract_groups(RUNON).alias("r"))
        .unnest("r")
        .with_columns(
            pl.coalesce(pl.col("tilde"), pl.col("bracket").str.extract(r"^([a-z_]+)", 1)).alias("pos_written"),
            pl.col("bracket").str.replace(r"^[a-z_]*", "").str.strip_chars().replace("", None).alias("inflection"),
            pl.col("words").str.split(", ").alias(Col.word),
        )
        .explode(Col.word)
        .with_columns(_pos(pl.col("pos_written")).alias("pos"))
    )


def _runon_entries(runons: pl.DataFrame) -> pl.DataFrame:
    """_runons' rows as entries: `line`, `word`, `senses` (one SENSE: part of speech, inflection and the
    head it is a run-on form of), `is_runon` (true)."""
    return runons.select(
        "line",
        Col.word,
        pl.concat_list(
            pl.struct(
                pl.lit("").alias("text"),
                "pos",
                "inflection",
                pl.lit(None, pl.String).alias("origin"),
                pl.lit([], pl.List(pl.String)).alias("also"),
                pl.lit(None, pl.String).alias("root"),
                pl.lit(None, pl.String).alias("link_word"),
                pl.lit(None, pl.String).alias("link_pos"),
                pl.lit([], SENSE.to_schema()["synonyms"]).alias("synonyms"),
                pl.col("head").alias("runon_of"),
            )
        )
        .cast(pl.List(SENSE))
        .alias("senses"),
        pl.lit(True).alias("is_runon"),
    )


def _per_line(senses: pl.DataFrame) -> pl.DataFrame:
    """(`line`, `senses`): each line's senses in order, as list[SENSE] (an empty segment is none)."""
    return (
        senses.filter(pl.col("segment") != "")
        .sort("line", "k")
        .group_by("line", maintain_order=True)
        .agg(
            pl.struct(pl.col("body").alias("text"), *[c for c in SENSE.to_schema() if c != "text"])
            .cast(SENSE)
            .alias("senses")
        )
    )


def parse_senses(defined: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """(`line`, `word`, `rest`) rows -> senses per line, run-on entries, warning rows (module docstring)."""
    segments = _segments(defined)
    senses = _sense_fields(_bodies(segments))
    runons = _runons(segments)
    warnings = _sense_warnings(senses)
    warnings.append(
        runons.filter(pl.col("pos").is_null() | ~pl.col("pos").is_in(PARTS_OF_SPEECH)).select(
            "line", pl.lit("a run-on form without a known part of speech").alias("reason")
        )
    )
    return _per_line(senses), _runon_entries(runons), pl.concat(warnings)
