"""Word-list lines, and the grammar of a definition as NASPA- and Collins-style lists write it.

Not a stage: stage 1 reads the CSW and OWL lists with it, stage 2 the
supplement of definitions. The text after the word on one line becomes a list
of senses and a list of run-on forms, each a plain dict whose keys are the
fields of pipeline.schemas.SENSE; stage 2 renders these structures and never
parses the lists' text again.

    AA      rough, cindery lava [n -S]
    AM      <be=v> [v]                          inflection link: the sense is BE's
    AE      {one=adj} [adj]                     synonym link, inline
    AAL     (Hindi) the Indian mulberry tree, also AL [n -S]
    ABACI   ABACUS, (Latin) a counting frame [n]    Collins: the root comes first
    ADD     to join [v -ED, -ING, -S] : ADDABLE [adj]   run-on derived form

Senses are separated by ` / `; `{ldquo}` and `{rdquo}` are quotation marks.
A text that breaks these rules raises DefinitionError with what was expected.
"""
from __future__ import annotations

import re

import polars as pl

from pipeline.errors import InputFormatError

PARTS_OF_SPEECH = ("n", "v", "adj", "adv", "interj", "prep", "conj", "pron", "article", "det")
QUOTES = {"ldquo": "\u201c", "rdquo": "\u201d"}


_BRACKET = re.compile(r"^(?P<body>.*?)\s*\[(?P<bracket>[^\[\]]*)\]$")
MARKUP = re.compile(r"\{(?P<brace>[^{}<>]*)\}|<(?P<angle>[^{}<>]*)>")
_LINK = re.compile(r"^(?P<word>[a-z]+)=(?P<pos>[a-z]+)$")
_ROOT = re.compile(r"^(?P<root>[A-Z]{2,}), ")
_ORIGIN = re.compile(r"^(?:[A-Z]{2,}, )?\((?P<origin>[^()]+)\)")
_ALSO = re.compile(r"\balso (?P<words>[A-Z]{2,}(?:,? [A-Z]{2,})*)\b")
_RUNON_ITEM = r"[A-Z]+ \[[^\[\]]*\]"
_RUNONS = re.compile(rf" : (?P<runons>{_RUNON_ITEM}(?:(?:, | : ){_RUNON_ITEM})*)$")


SEPARATOR = {"naspa": " ", "collins": "\t"}
WORD = re.compile(r"[A-Za-z]+")


class DefinitionError(ValueError):
    """A definition text that does not follow the grammar; the message says what was expected."""


def _bracket(content: str, where: str) -> tuple[str, str | None]:
    pos, _, inflection = content.strip().partition(" ")
    if pos not in PARTS_OF_SPEECH:
        raise DefinitionError(f"unknown part of speech {pos!r} in {where} (expected one of {', '.join(PARTS_OF_SPEECH)})")
    return pos, inflection.strip() or None


def parse_sense(text: str) -> dict:
    """One sense (`rough, cindery lava [n -S]`) -> a dict of SENSE's fields."""
    if text.count("[") > 1 or text.count("]") > 1:
        raise DefinitionError("two brackets in one sense (expected one [part of speech] at its end)")
    m = _BRACKET.match(text.strip())
    if m is None:
        raise DefinitionError("no [part of speech] bracket at the end of the sense")
    body = m["body"]
    pos, inflection = _bracket(m["bracket"], "the bracket")
    link, synonyms = None, []
    for token in MARKUP.finditer(body):
        inner = token["brace"] if token["brace"] is not None else token["angle"]
        found = _LINK.match(inner)
        if token["brace"] is not None and inner in QUOTES:
            continue
        if found is None:
            raise DefinitionError(f"unknown markup {token[0]!r} (expected {{word=pos}} or <word=pos>)")
        target = {"word": found["word"].upper(), "pos": _bracket(found["pos"], f"link {token[0]}")[0]}
        if token["angle"] is not None:
            if link is not None:
                raise DefinitionError("two <word=pos> inflection links in one sense")
            link = target
        else:
            synonyms.append(target)
    if any(c in MARKUP.sub("", body) for c in "{}<>"):
        raise DefinitionError("unclosed link (a {, }, < or > without its partner)")
    root, origin = _ROOT.match(body), _ORIGIN.match(body)
    also = _ALSO.search(body)
    return {
        "text": body, "pos": pos, "inflection": inflection,
        "origin": origin["origin"] if origin else None,
        "also": re.split(r",? ", also["words"]) if also else [],
        "root": root["root"] if root else None,
        "link_word": link["word"] if link else None, "link_pos": link["pos"] if link else None,
        "synonyms": synonyms, "runon_of": None,
    }


def parse_definition(head: str, text: str) -> tuple[list[dict], list[tuple[str, dict]]]:
    """The text after word `head` -> its senses, and its run-on forms as (word, sense) pairs."""
    runons: list[tuple[str, dict]] = []
    m = _RUNONS.search(text)
    if m is not None:
        text = text[: m.start()]
        for item in re.finditer(r"([A-Z]+) \[([^\[\]]*)\]", m["runons"]):
            pos, inflection = _bracket(item[2], f"run-on form {item[1]}")
            runons.append((item[1], {
                "text": "", "pos": pos, "inflection": inflection, "origin": None, "also": [], "root": None,
                "link_word": None, "link_pos": None, "synonyms": [], "runon_of": head,
            }))
    if not text.strip():
        raise DefinitionError("no definition after the word")
    return [parse_sense(s) for s in text.split(" / ")], runons


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


def parse_defined(lines: pl.DataFrame, fmt: str) -> tuple[list, list]:
    """Like parse_plain for naspa/collins lines; run-on forms come after the line's own entry."""
    entries, bad = [], []
    sep = SEPARATOR[fmt]
    for line, text in lines.rows():
        word, found, rest = text.partition(sep)
        try:
            if not found or not WORD.fullmatch(word):
                raise DefinitionError(f"expected a word of letters A-Z, {'a TAB' if fmt == 'collins' else 'one space'} "
                                      "and its definition")
            senses, runons = parse_definition(word.upper(), rest.strip())
        except DefinitionError as e:
            bad.append((line, text, str(e)))
            continue
        entries.append((line, word.upper(), senses, False))
        entries += [(line, runon, [sense], True) for runon, sense in runons]
    return entries, bad
