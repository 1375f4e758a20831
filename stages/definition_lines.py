"""The grammar of a definition, as NASPA- and Collins-style word lists write it.

Used by stage 1 only (it is not a stage): the text after the word on one line
becomes a list of senses and a list of run-on forms, each a plain dict whose
keys are the fields of pipeline.schemas.SENSE. Stage 2 works from these structures and never parses
text again.

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
