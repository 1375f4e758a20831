"""Word lists in every format stage 1 reads, parsed in one vectorised pass per file.

Not a stage: stage 1 reads every lexicon's list file, add-list and
remove-list with it, stage 2 the supplement of definitions (and strips
control and invisible characters from the dictionaries' text with
strip_unseen), stages/rules/offensive.py its lists' lines (content_lines).
Formats (one per file):

    plain     AA                                        one word per line, any case
    naspa     AA rough, cindery lava [n -S]             the word, a space, its definition
    collins   AAHED<TAB>AAH, to exclaim in surprise [v] the word, a TAB, its definition
    scores    542388 QI                                 a playability list: a number, a space, the word

A bare word among defined lines (ABANDONER) has no definition. A definition is
parsed into senses by the grammar in stages/sources/definition_grammar.py.

Two kinds of trouble, kept apart so that a word is never lost because of its
definition:
- word-level (the word is not A-Z, more than MAX_LETTERS letters, a score
  line without its number): an error row; stage 1 stops on it, or skips and
  lists it with `--lenient`;
- definition-level (the grammar's: a sense without its bracket, a bracket
  doubled or left open, an unknown part of speech, unknown markup or an
  unclosed link, text after the bracket, ` : ` not followed by run-on forms;
  and this module's: control or invisible characters): the word and the
  cleanest text that can be recovered are kept, and the line is listed in a
  warning row with its reason (a definition over MAX_DEFINITION_BYTES is left
  out whole; the word is kept).

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

import gzip
import io
import re
import zlib
from dataclasses import dataclass

import polars as pl

from pipeline.alphabet import Alphabet, FoldError, alphabet as alphabet_of, describe
from pipeline.columns import Col
from pipeline.errors import InputFormatError
from pipeline.schemas import SENSE
from pipeline.terminal import UNSEEN  # the one rule of unsafe characters
from stages.sources.definition_grammar import parse_senses

FORMATS = ("plain", "naspa", "collins", "scores")
MAX_LETTERS = 64  # longer than any word of any list; bounds the links stage, which is quadratic in length

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


MAX_LIST_BYTES = 2 * 2**30  # a list decompressed past this is damage or a bomb (wpolish: 60 MB), not a list


def decompressed(name: str, data: bytes, limit: int = MAX_LIST_BYTES) -> bytes:
    """A list's bytes, gunzipped when its name ends in .gz (a damaged one, or one over `limit` bytes
    decompressed, is an InputFormatError)."""
    if not name.endswith(".gz"):
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as f:
            text = f.read(limit + 1)
    except (OSError, EOFError, zlib.error) as e:
        raise InputFormatError(f"{name}: not a gzip file ({e})") from None
    if len(text) > limit:
        raise InputFormatError(f"{name}: over {limit:,} bytes decompressed: not a word list")
    return text


def spellings(name: str, data: bytes, drop_capitalised: bool = False) -> pl.Series:
    """The words of a plain list as it writes them (`élève`, `Straße`), before folding: what stage 3 looks
    up in wordfreq; `drop_capitalised` as read_wordlist."""
    words = split_lines(content_lines(name, decompressed(name, data)), "plain")[0][Col.word]
    if drop_capitalised:
        words = words.filter(words.str.slice(0, 1) == words.str.slice(0, 1).str.to_lowercase())
    return words


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


def _word_errors(split: pl.DataFrame, letters: Alphabet) -> tuple[pl.DataFrame, pl.Series]:
    """Rows whose `word` does not fold into 1..MAX_LETTERS letters of the alphabet, with the reason naming the
    first bad character; and every row's word folded (upper case; null where refused)."""
    folded, refused = letters.fold_column(split[Col.word])
    bad = split.filter(refused | (folded.str.len_chars() > MAX_LETTERS).fill_null(False))
    if bad.height == 0:
        return pl.DataFrame(schema=PROBLEMS), folded
    rows = []
    for line, text, w in bad.select("line", "text", Col.word).rows():
        if not w:
            reason = "expected a word before the blank"
        else:
            reason = _refusal(w, letters) or f"{_shown(w)} has {len(w):,} letters (at most {MAX_LETTERS})"
        rows.append((line, text, reason))
    return pl.DataFrame(rows, schema=PROBLEMS, orient="row"), folded


def _refusal(word: str, letters: Alphabet) -> str | None:
    """Why `word` does not fold (its first bad character), or None when it does."""
    if letters.code == "en":  # English's message as it always was: the character and its column
        at = NOT_A_LETTER.search(word)
        return f"{_shown(word)} is not a word of letters A-Z ({at[0]!r}, column {at.start() + 1:,})" if at else None
    try:
        letters.fold(word)
    except FoldError as e:
        if e.char is None:
            return None
        return f"{_shown(word)} is not a word of the {letters.name} alphabet ({describe(e.char)}, character {e.position:,})"
    return None


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


def read_wordlist(
    name: str, data: bytes, fmt: str, key: str = "its _format key", language: str = "en", drop_capitalised: bool = False
) -> WordList:
    """Parse one list file in format `fmt` (`auto` decides from the lines; see detect; `key`: the config
    key that forces a format, for the message); words folded into `language`'s alphabet (pipeline.alphabet).
    `drop_capitalised`: a line whose word starts with an upper-case letter (a proper name) is left out."""
    lines = content_lines(name, data)
    chosen = detect(name, lines, key) if fmt == "auto" else fmt
    split, bad_scores = split_lines(lines, chosen)
    if drop_capitalised:
        first = pl.col(Col.word).str.slice(0, 1)
        split = split.filter(first == first.str.to_lowercase())
    word_errors, folded = _word_errors(split, alphabet_of(language))
    errors = pl.concat([bad_scores, word_errors]).sort("line")
    split = split.with_columns(folded.alias("folded"))
    good = split.join(errors.select("line"), on="line", how="anti").with_columns(pl.col("folded").alias(Col.word))
    good = good.drop("folded")
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
