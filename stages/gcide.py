"""GCIDE (the GNU Collaborative International Dictionary of English) as a definition source for stage 2.

Not a stage. Reads the dictd files of the folder named by config key `gcide`:
gcide.index (`headword<TAB>offset<TAB>length`, numbers in dictd's base 64)
and gcide.dict.dz (dictzip, which gzip reads whole). An entry looks like

    Heron \\Her"on\\, n. [OE. heiroun, ... Cf. {Aigret}, {Egret}.] (Zool.)
       Any wading bird of the genus {Ardea} and allied genera, ...
       [1913 Webster]

or has numbered senses (`1. Deprived of heat, ...`). For each single-word
headword and part of speech, the first sense not marked obsolete is kept,
cleaned for people and cut to its first sentence: character codes (`['e]`, `[imac]`) become letters, the
etymology and every other bracket, quotations (`"..." --Milton.`), notes and
`{}` cross-reference braces removed, whitespace folded; a sense with no
sentence end is cut at a clause end or a word end within MAX_CHARS. A word
is flagged offensive when the head or first sense of one of its entries
carries a usage label naming it vulgar, obscene, offensive or derogatory
(`[Low, deprecatory, and vulgar]`).

`gcide_lemmas` returns (`lemma`, `pos`, `rank`, `gloss`, `offensive`): lemma in
lower case, pos one of n, v, adj, adv, prep, conj, interj, pron, rank the
order of the part of speech in the dictionary.
"""
from __future__ import annotations

import gzip
import zlib

import polars as pl

from pipeline.artifact.contract import Col
from pipeline.errors import InputFormatError

MAX_CHARS = 300  # a rung's definition is read at a glance
POS = {"n.": "n", "v. t.": "v", "v. i.": "v", "v.": "v", "a.": "adj", "adv.": "adv", "prep.": "prep",
       "conj.": "conj", "interj.": "interj", "pron.": "pron"}
B64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
SENSE_MARK = "\x01"
# A usage label, not an etymology that mentions {Vulgar}: a short bracket of plain words.
OFFENSIVE_LABEL = r"\[(?:[A-Za-z]+\.?,? (?:and |or )?){0,4}(?i:vulgar|obscene|offensive|derogatory)[A-Za-z,. ]{0,20}\]"


def _b64(text: str) -> int:
    n = 0
    for c in text:
        n = n * 64 + B64[c]
    return n


def _file(files: dict[str, bytes], name: str) -> bytes:
    data = next((d for path, d in files.items() if path.rsplit("/", 1)[-1] == name), None)
    if data is None:
        raise InputFormatError(f"GCIDE folder has no file {name} (have: {', '.join(sorted(files)) or 'nothing'})")
    return data


def entries(files: dict[str, bytes], keep: set[str] | None = None) -> pl.DataFrame:
    """(`lemma`, `entry`, `order`): the text of every single-word headword's entry (of those in `keep`,
    lower case, when given), in index order."""
    try:
        text = gzip.decompress(_file(files, "gcide.dict.dz"))
        index = _file(files, "gcide.index").decode("utf-8")
    except (OSError, EOFError, zlib.error) as e:
        raise InputFormatError(f"GCIDE gcide.dict.dz: not a dictzip file ({e})") from None
    except UnicodeDecodeError as e:
        raise InputFormatError(f"GCIDE gcide.index: not UTF-8 text (offset {e.start})") from None
    rows = []
    for number, line in enumerate(index.split("\n"), start=1):
        head, _, rest = line.partition("\t")
        if not head.isascii() or not head.isalpha() or (keep is not None and head.lower() not in keep):
            continue  # phrases, hyphenated words, the 00-database entries; words no one will look up
        offset, _, length = rest.partition("\t")
        try:
            start, size = _b64(offset), _b64(length)
        except KeyError:
            raise InputFormatError(f"GCIDE gcide.index, line {number}: bad offset in {line[:60]!r}") from None
        rows.append((head.lower(), text[start:start + size].decode("utf-8", errors="replace"), number))
    return pl.DataFrame(rows, schema={"lemma": pl.String, "entry": pl.String, "order": pl.Int64}, orient="row")


def _clean(sense: pl.Expr) -> pl.Expr:
    for _ in range(3):  # brackets nest: [OE. ... [root]130.]
        sense = sense.str.replace_all(r"\[[^\[\]]*\]", "")
    return (sense.str.replace_all(r"\\[^\\]*\\", "")  # pronunciations first: they hold quote marks
            .str.replace_all(r'"[^"]*"', "")
            .str.replace(r"\b(?:Note|Syn): .*$", "")
            .str.replace_all(r"\S*\\\S*", "")
            .str.replace_all(r"\S*[\[\]]\S*", "")
            .str.replace_all(r"[{}]", "")
            .str.replace_all(r"\s+", " ")
            .str.replace_all(r"\s+([,.;:])", "$1")
            .str.replace(r"^\s*(?:Also \S+\s*)?(?:\([^()]*\)\s*)*", "")  # (Zool.), (Physiol. Chem.)
            .str.replace_all(r"\(\s*\)", "")
            .str.strip_chars(" ,;:"))


def _cut(text: pl.Expr) -> pl.Expr:
    """At most MAX_CHARS, ending at a sentence or clause end, else a word end; never mid-word."""
    head = text.str.slice(0, MAX_CHARS)
    first = head.str.extract(r"^(.{20,}?\.)(?: |$)", 1)  # the first sentence says what the word is
    return (pl.when(first.is_not_null()).then(first)
            .when(text.str.len_chars() <= MAX_CHARS).then(text)
            .otherwise(pl.coalesce(head.str.extract(r"^(.{40,}[;,])", 1).str.strip_chars(";,"),
                                   head.str.extract(r"^(.*) ", 1))))


def gcide_lemmas(files: dict[str, bytes], keep: set[str] | None = None) -> pl.DataFrame:
    table = entries(files, keep)
    # Quotations stand on lines indented deeper than the senses; citations start with --Author.
    flat = (pl.col("entry").str.replace_all(r"\n {9,}[^\n]*", "").str.replace_all(r"--[A-Z][^\n]*", "")
            .str.replace_all(r"\s+", " "))
    # Character codes first, so that removing brackets later keeps the letter: Ardeid[ae], caf['e].
    flat = (flat.str.replace_all(r"\[(ae|oe|AE|OE)\]", "$1")
            .str.replace_all(r"\[['`^~=.:\"]?([a-zA-Z])(?:um|mac|circ|ced|til|ring|acute|grave|dot)?\]", "$1"))
    header = r"^[^\\]*\\[^\\]*\\(?:, [^\\]*\\[^\\]*\\)*\s*(?:\([^)]*\))?,?\s*(?P<pos>(?:[a-z]{1,5}\. ?){1,3})"
    parts = table.lazy().with_columns(flat.alias("flat")).with_columns(
        pl.col("flat").str.extract(header, 1).str.strip_chars().alias("pos_written"),
        pl.col("flat").str.replace(header, "").alias("body"),
    ).with_columns(pl.col("pos_written").replace_strict(POS, default=None).alias("pos")).filter(
        pl.col("pos").is_not_null())
    senses = (
        parts.with_columns(pl.col("body").str.replace_all(r" \d{1,2}\. ([A-Z(\[{])", SENSE_MARK + "$1")
                           .str.split(SENSE_MARK).alias("sense"))
        # With numbered senses, the text before the first is etymology and labels: skip it.
        # The label of an entry stands in its head or its first sense: a later sense's label
        # (MOTHER's vulgar compound) does not make the word offensive.
        .with_columns(pl.col("sense").list.head(2).list.join(" ").str.contains(OFFENSIVE_LABEL).alias(Col.offensive))
        .with_columns(pl.when(pl.col("sense").list.len() > 1).then(pl.col("sense").list.slice(1))
                      .otherwise(pl.col("sense")).alias("sense"))
        .with_columns(pl.int_ranges(pl.col("sense").list.len()).alias("k"))
        .explode("sense", "k")
        .with_columns(pl.col("sense").str.contains(r"\[(?:Obs|Archaic|R\.)").alias("obsolete"),
                      _clean(pl.col("sense")).alias("gloss"))
        .filter(pl.col("gloss").str.len_chars() > 2)
        .with_columns(_cut(pl.col("gloss")).alias("gloss"))
        .filter(pl.col("gloss").is_not_null())
        .sort("lemma", "order", "obsolete", "k")
    )
    best = senses.unique(["lemma", "pos"], keep="first", maintain_order=True)
    offensive = senses.group_by("lemma").agg(pl.col(Col.offensive).any())
    # The streaming engine runs the regular expressions on both cores: 2.7 s -> 1.6 s for raw/.
    return (best.sort("lemma", "order", maintain_order=True)
            .with_columns(pl.int_range(pl.len()).over("lemma").alias("rank"))
            .select("lemma", "pos", "rank", "gloss")
            .join(offensive, on="lemma", how="left", maintain_order="left")).collect(engine="streaming")
