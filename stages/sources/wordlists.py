"""Word lists in every format stage 1 reads, parsed in one vectorised pass per file.

Not a stage: stage 1 reads the CSW and OWL lists with it, stage 2 the
supplement of definitions. Formats (one per file):

    plain     AA                                        one word per line, any case
    naspa     AA rough, cindery lava [n -S]             the word, a space, its definition
    collins   AAHED<TAB>AAH, to exclaim in surprise [v] the word, a TAB, its definition
    scores    542388 QI                                 a playability list: a number, a space, the word

The definition grammar, as the real NASPA and Collins files write it:

    AM      <be=v> [v]                          the sense is only a link: BE's first verb sense
    AE      {one=adj} [adj]                     the same, written as a synonym link
    BI      a {bisexual=n} [n -S]               a synonym link inside a sentence
    MOUSE   a small {rodent=n} [n MICE] / to catch mice [v MOUSED, MOUSING, MOUSES]
    ADD     to combine [v -ED, -ING, -S] : ADDABLE ~adj          run-on forms (OWL)
    AWN     a bristle [n -S] : AWNED, AWNLESS, AWNY [adj]        run-on forms (OSPD), several
    WRY     contorted [adj] : WRYLY ~adv / to contort [v]        run-ons then more senses
    AN      used before a vowel sound [indefinite_article]       any part-of-speech token
    ABANDONER                                   a bare word among defined lines: no definition

Senses are separated by ` / `; `{ldquo}` and `{rdquo}` are quotation marks.
A part of speech is mapped to the short set in PARTS_OF_SPEECH where it is
known (`indefinite_article` -> `article`) and kept as written where not.

Two kinds of trouble, kept apart so that a word is never lost because of its
definition:
- word-level (the word is not A-Z, more than MAX_LETTERS letters, a score
  line without its number): an error row; stage 1 stops on it, or skips and
  lists it with `--lenient`;
- definition-level (a sense without its bracket, a bracket doubled or left
  open, an unknown part of speech, unknown markup or an unclosed link, text
  after the bracket, ` : ` not followed by run-on forms, control or invisible
  characters): the word and the cleanest text that can be recovered are kept,
  and the line is listed in a warning row with its reason.

A definition is text to show, never markup or a command: control characters
(C0, DEL, C1: a terminal acts on ESC sequences and 0x9B), whole escape
sequences (`ESC [31m`, an OSC 8 hyperlink's target), and invisible formatting
characters (bidi overrides and isolates, zero-width characters, tags) are
removed from it before it is parsed, with a warning row; line and paragraph
separators become a space (with a warning), a TAB a space (without).

`read_wordlist` returns three frames:
- entries: line u32, word str (upper case), senses list[SENSE] (null for a
  plain or bare line), is_runon bool (a run-on form, listed under `line`);
- errors and warnings: line u32, text str, reason str.
SENSE is in pipeline/schemas.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import polars as pl

from pipeline.columns import Col
from pipeline.errors import InputFormatError
from pipeline.schemas import SENSE
from pipeline.terminal import UNSEEN  # the one rule of unsafe characters

FORMATS = ("plain", "naspa", "collins", "scores")
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
MAX_LETTERS = 64  # longer than any word of any list; bounds the links stage, which is quadratic in length

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

NOT_A_LETTER = re.compile(r"[^A-Za-z]")
# A terminal's escape sequences, removed whole (left behind, `[31m` would read as a bracket): OSC
# (hyperlinks, titles) to its BEL or ST; DCS, SOS, PM, APC to their ST; CSI with its parameters; any
# other ESC with its one final character. 7-bit (ESC ]) and 8-bit (0x9D) introducers alike.
ESCAPE_SEQUENCE = (
    r"(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|(?:\x1b[PX^_]|[\x90\x98\x9e\x9f])[^\x1b\x9c]*(?:\x1b\\|\x9c)?"
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|\x1b[ -/]*[0-~]?"
)
UNSEEN_REASON = "control or invisible characters removed from the definition"
# A definition longer than this is damage, not a definition (the longest real ones are a few hundred
# bytes): kept whole it could exceed a SQL server's packet (MariaDB's default max_allowed_packet is 16 MiB,
# and a batch of rows goes as one packet). The word is kept, without the text, and the line is warned about.
MAX_DEFINITION_BYTES = 16_384
TOO_LONG_REASON = f"a definition over {MAX_DEFINITION_BYTES:,} bytes left out (the word is kept)"
PROBLEMS = {"line": pl.UInt32, "text": pl.String, "reason": pl.String}
ENTRIES = {"line": pl.UInt32, Col.word: pl.String, "senses": pl.List(SENSE), "is_runon": pl.Boolean}
LINE_KIND = "kind"  # not a column: a line's format in detect (line_kinds), not a link's kind


@dataclass(frozen=True)
class WordList:
    format: str
    entries: pl.DataFrame
    errors: pl.DataFrame
    warnings: pl.DataFrame


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


def line_kinds(lines: pl.DataFrame) -> pl.Series:
    """What each line looks like: bare (no blank), collins (a TAB first), naspa (a space, and a `[`
    somewhere), scores (a number, a space, a word), other (a space but nothing defined)."""
    text = pl.col("text")
    return lines.select(
        pl.when(~text.str.contains(r"[ \t]"))
        .then(pl.lit("bare"))
        .when(text.str.contains(r"^[^ \t]+\t"))
        .then(pl.lit("collins"))
        .when(text.str.contains(r"^[0-9]+(?:\.[0-9]+)? +[^ \t]+$"))
        .then(pl.lit("scores"))
        .when(text.str.contains(r"\["))
        .then(pl.lit("naspa"))
        .otherwise(pl.lit("other"))
        .alias(LINE_KIND)
    )[LINE_KIND]


def detect(name: str, lines: pl.DataFrame, key: str = "its _format key") -> str:
    """The format of a whole file from every line: bare words alone are plain; bare words mixed with
    defined lines are a list with definitions (long words often have none); two kinds of defined
    lines in one file are an error naming the first line of each."""
    kinds = lines.with_columns(line_kinds(lines))
    defined = (
        kinds.filter(pl.col(LINE_KIND).is_in(["naspa", "collins", "scores"]))
        .group_by(LINE_KIND)
        .agg(pl.col("line").min())
        .sort("line")
    )
    if defined.height == 0:
        return "plain"
    if defined.height == 1:
        return defined[LINE_KIND][0]
    examples = "; ".join(f"line {line} looks {kind}" for kind, line in defined.rows())
    raise InputFormatError(
        f"{name}: cannot tell its format, it mixes two formats ({examples}); "
        f"set {key} to plain, naspa, collins or scores"
    )


def _word_errors(split: pl.DataFrame) -> pl.DataFrame:
    """Rows whose `word` is not 1..MAX_LETTERS letters A-Z, with the reason naming the first bad character."""
    word = pl.col(Col.word)
    bad = split.filter(~word.str.contains(r"^[A-Za-z]+$") | (word.str.len_chars() > MAX_LETTERS))
    if bad.height == 0:
        return pl.DataFrame(schema=PROBLEMS)
    rows = []
    for line, text, w in bad.select("line", "text", Col.word).rows():
        if not w:
            reason = "expected a word before the blank"
        else:
            at = NOT_A_LETTER.search(w)
            reason = (
                f"{_shown(w)} is not a word of letters A-Z ({at[0]!r}, column {at.start() + 1:,})"
                if at
                else f"{_shown(w)} has {len(w):,} letters (at most {MAX_LETTERS})"
            )
        rows.append((line, text, reason))
    return pl.DataFrame(rows, schema=PROBLEMS, orient="row")


def _shown(text: str, limit: int = 60) -> str:
    return repr(text[:limit] + ("..." if len(text) > limit else ""))


def split_lines(lines: pl.DataFrame, fmt: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(`line`, `text`, `word`, `rest`) for each line, and the score lines without a number."""
    text = pl.col("text")
    if fmt == "plain":
        return (
            lines.with_columns(text.alias(Col.word), pl.lit(None, pl.String).alias("rest")),
            pl.DataFrame(schema=PROBLEMS),
        )
    if fmt == "scores":
        parts = lines.with_columns(
            text.str.extract_groups(r"^[0-9]+(?:\.[0-9]+)? +(?P<word>[^ \t]+)$").alias("p")
        ).unnest("p")
        bad = parts.filter(pl.col(Col.word).is_null()).select(
            "line", "text", pl.lit("expected a score, a space and a word").alias("reason")
        )
        return parts.filter(pl.col(Col.word).is_not_null()).with_columns(pl.lit(None, pl.String).alias("rest")), bad
    # Two anchored patterns without captures of the whole line: 4x faster than one extract_groups.
    parts = lines.with_columns(
        text.str.extract(r"^([^ \t]*)", 1).alias(Col.word), text.str.replace(r"^[^ \t]*[ \t]*", "").alias("rest")
    )
    rest = pl.when(pl.col("rest") != "").then(pl.col("rest")).alias("rest")
    return parts.with_columns(rest), pl.DataFrame(schema=PROBLEMS)


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


def parse_senses(defined: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """(`line`, `word`, `rest`) rows -> senses per line, run-on entries, warning rows."""
    segments = (
        defined.select("line", Col.word, pl.col("rest").str.split(" / ").alias("segment"))
        .with_columns(pl.int_ranges(pl.col("segment").list.len(), dtype=pl.UInt32).alias("k"))
        .explode("segment", "k")
    )
    segments = split_runons(segments)
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
    senses = senses.with_columns(
        pl.when(bad_markup)
        .then(body.str.replace_all(r"[{<]([^{}<>=]*)=[a-z_]*[}>]", "$1").str.replace_all(r"[{}<>]", ""))
        .otherwise(body)
        .str.strip_chars()
        .alias("body"),
        bad_markup.alias("bad_markup"),
    )
    body = pl.col("body")
    pure = body.str.extract_groups(PURE_LINK)
    senses = senses.with_columns(
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
    warnings = [senses.filter(cond.fill_null(False)).select("line", reason.alias("reason")) for cond, reason in reasons]

    runons = (
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
    warnings.append(
        runons.filter(pl.col("pos").is_null() | ~pl.col("pos").is_in(PARTS_OF_SPEECH)).select(
            "line", pl.lit("a run-on form without a known part of speech").alias("reason")
        )
    )
    runon_entries = runons.select(
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

    per_line = (
        senses.filter(pl.col("segment") != "")
        .sort("line", "k")
        .group_by("line", maintain_order=True)
        .agg(
            pl.struct(pl.col("body").alias("text"), *[c for c in SENSE.to_schema() if c != "text"])
            .cast(SENSE)
            .alias("senses")
        )
    )
    return per_line, runon_entries, pl.concat(warnings)


def remove_unseen(defined: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(`line`, ..., `rest`) rows -> the same with escape sequences, controls and invisible characters
    removed from `rest` (TABs, line and paragraph separators made spaces), and a warning row (`line`,
    `reason`) for each line that had any."""
    rest = pl.col("rest").str.replace_all("\t", " ", literal=True)
    found = defined.filter(rest.str.contains(UNSEEN)).select("line", pl.lit(UNSEEN_REASON).alias("reason"))
    return defined.with_columns(strip_unseen(rest)), found


def strip_unseen(text: pl.Expr) -> pl.Expr:
    """`text` with escape sequences, controls and invisible characters removed (line and paragraph
    separators made spaces), spaces folded: what a definition may hold, whoever wrote it."""
    removed = (
        text.str.replace_all(ESCAPE_SEQUENCE, "").str.replace_all(r"[\p{Zl}\p{Zp}]", " ").str.replace_all(UNSEEN, "")
    )
    return removed.str.replace_all("  +", " ").str.strip_chars()


def read_wordlist(name: str, data: bytes, fmt: str, key: str = "its _format key") -> WordList:
    """Parse one list file in format `fmt` (`auto` decides from the lines; see detect; `key`: the config
    key that forces a format, for the message)."""
    lines = content_lines(name, data)
    chosen = detect(name, lines, key) if fmt == "auto" else fmt
    split, bad_scores = split_lines(lines, chosen)
    errors = pl.concat([bad_scores, _word_errors(split)]).sort("line")
    good = split.join(errors.select("line"), on="line", how="anti").with_columns(pl.col(Col.word).str.to_uppercase())
    defined, unseen = remove_unseen(good.filter(pl.col("rest").is_not_null()))
    too_long = pl.col("rest").str.len_bytes() > MAX_DEFINITION_BYTES
    unseen = pl.concat([unseen, defined.filter(too_long).select("line", pl.lit(TOO_LONG_REASON).alias("reason"))])
    defined = defined.filter(~too_long)
    if defined.height:
        per_line, runons, warnings = parse_senses(defined)
        warnings = pl.concat([unseen, warnings])
    else:
        per_line, runons, warnings = (
            pl.DataFrame(schema={"line": pl.UInt32, "senses": pl.List(SENSE)}),
            pl.DataFrame(schema=ENTRIES),
            pl.DataFrame(schema={"line": pl.UInt32, "reason": pl.String}),
        )
    own = good.join(per_line, on="line", how="left").select("line", Col.word, "senses", pl.lit(False).alias("is_runon"))
    entries = pl.concat([own.cast(ENTRIES), runons.cast(ENTRIES)]).sort("line", "is_runon", maintain_order=True)
    warnings = (
        warnings.unique(maintain_order=True)
        .join(lines, on="line", how="left")
        .select("line", "text", "reason")
        .sort("line", maintain_order=True)
        .cast(PROBLEMS)
    )
    return WordList(chosen, entries, errors.cast(PROBLEMS), warnings)
