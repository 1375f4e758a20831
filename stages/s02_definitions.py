"""Stage 2, definitions: one definition per word, clean text for people.

Reads build/01_lexicon.parquet (`id`, `word`, `csw_senses`, `owl_senses`) and
the WordNet folder named by config key `wordnet` (see stages/wordnet.py).

and the supplement file named by config key `supplement` (NASPA format: our
own definitions of function words, which WordNet lacks: AND, FOR, THEY).

Sources are tried in the order of config `definition_sources` (default csw,
owl, supplement, wordnet). A list's own senses are rendered, joined by ` / `, each with
its bracket; links are resolved recursively as a reader expects:
- `AM <be=v> [v]` -> `BE, to have actuality [v]` (the linked word's first
  sense of that part of speech, or its first sense if it has none of it);
- `AE {one=adj} [adj]` -> `one (being a single entity) [adj]`;
- a run-on form `ADDABLE` of ADD -> `from ADD, to join [adj]`;
- `{ldquo}`/`{rdquo}` -> quotation marks; whitespace normalised; no markup left.
Cycles and links to words the list lacks are counted in the notes and leave
the linked word alone; resolution never loops (and stops MAX_DEPTH links deep).
Words the lists do not define fall back to WordNet.

Writes build/02_definitions.parquet, one row per word, key `id`:
- id u32, word str
- definition str: null when no source has one
- definition_source str: `csw`, `owl`, `supplement`, `csw-link`, `owl-link`,
  `supplement-link` (that source, through at least one link) or `wordnet`;
  null with no definition
"""
from __future__ import annotations

import re
from collections import Counter

import polars as pl

from pipeline.schemas import DEFINITIONS
from pipeline.stage import Output, Stage
from pipeline.errors import InputFormatError
from stages.definition_lines import MARKUP, QUOTES, content_lines, parse_defined
from stages.wordnet import wordnet_definitions

MAX_DEPTH = 4


class Resolver:
    """Renders one list's senses, following its links within that list."""

    def __init__(self, senses: dict[str, list[dict]]):
        self.senses = senses
        self.problems: Counter[str] = Counter()

    def target(self, word: str, pos: str | None) -> dict | None:
        senses = self.senses.get(word)
        if not senses:
            self.problems["links to words the list lacks"] += 1
            return None
        same = [s for s in senses if s["pos"] == pos]
        if pos is not None and not same:
            self.problems[f"links to a word without that part of speech (first sense used)"] += 1
        return (same or senses)[0]

    def body(self, sense: dict, stack: tuple[str, ...]) -> tuple[str, bool]:
        """The sense's text without its bracket, links resolved; and whether a link was followed."""
        linked = False

        def follow(word: str, pos: str | None) -> str | None:
            nonlocal linked
            if word in stack:
                self.problems["link cycles (cut)"] += 1
                return None
            if len(stack) > MAX_DEPTH:
                return None
            target = self.target(word, pos)
            if target is None:
                return None
            linked = True
            return self.body(target, stack + (word,))[0]

        def replace(m: re.Match) -> str:
            inner = m["brace"] if m["brace"] is not None else m["angle"]
            if m["brace"] is not None and inner in QUOTES:
                return QUOTES[inner]
            word, _, pos = inner.partition("=")
            text = follow(word.upper(), pos)
            if m["angle"] is not None:
                return f"{word.upper()}, {text}" if text else word.upper()
            return f"{word} ({text})" if text else word

        text = MARKUP.sub(replace, sense["text"])
        if sense["runon_of"]:
            head = follow(sense["runon_of"], None)
            text = f"from {sense['runon_of']}, {head}" if head else f"from {sense['runon_of']}"
        return " ".join(text.split()), linked

    def render(self, word: str, senses: list[dict]) -> tuple[str, bool]:
        parts, any_link = [], False
        for sense in senses:
            text, linked = self.body(sense, (word,))
            any_link |= linked
            bracket = sense["pos"] + (f" {sense['inflection']}" if sense["inflection"] else "")
            parts.append(f"{text} [{bracket}]".strip())
        return " / ".join(parts), any_link


def render_all(rows: list[tuple[int, str, list[dict]]], senses: dict[str, list[dict]], source: str
               ) -> tuple[pl.DataFrame, Counter]:
    """(`id`, `definition`, `definition_source`) for (id, word, senses) rows, links followed within `senses`."""
    resolver = Resolver(senses)
    out = []
    for id_, word, word_senses in rows:
        text, linked = resolver.render(word, word_senses)
        out.append((id_, text, f"{source}-link" if linked else source))
    table = pl.DataFrame(out, orient="row", schema={"id": pl.UInt32, "definition": pl.String,
                                                     "definition_source": pl.String})
    return table, resolver.problems


def list_definitions(lexicon: pl.DataFrame, column: str, source: str) -> tuple[pl.DataFrame, Counter]:
    """Definitions from one list's own senses (column csw_senses or owl_senses)."""
    rows = lexicon.filter(pl.col(column).is_not_null()).select("id", "word", column).rows()
    return render_all(rows, {word: senses for _, word, senses in rows}, source)


def supplement_definitions(lexicon: pl.DataFrame, supplement: dict[str, bytes]) -> tuple[pl.DataFrame, Counter]:
    """Definitions from the supplement file (NASPA format), for the lexicon's words it defines."""
    ((name, data),) = supplement.items()
    entries, bad = parse_defined(content_lines(name, data), "naspa")
    if bad:
        line, text, reason = bad[0]
        raise InputFormatError(f"{name}, line {line}: {reason}, in {text[:60]!r}")
    senses = {word: word_senses for _, word, word_senses, _ in entries}
    rows = [(id_, word, senses[word]) for id_, word in lexicon.select("id", "word").rows() if word in senses]
    return render_all(rows, senses, "supplement")


def build_definitions(lexicon: pl.DataFrame, wordnet: dict[str, bytes], supplement: dict[str, bytes],
                      definition_sources: list[str]) -> dict:
    notes, candidates = [], []
    for rank, source in enumerate(definition_sources):
        if source == "wordnet":
            found, by_base = wordnet_definitions(lexicon["word"], wordnet)
            table = lexicon.select("id", "word").join(found, on="word").select(
                "id", "definition", pl.lit("wordnet").alias("definition_source"))
            notes.append(f"wordnet defines {table.height:,} words, {by_base:,} of them through a base form")
        elif source == "supplement":
            table, problems = supplement_definitions(lexicon, supplement)
            notes += [f"supplement: {n:,} {what}" for what, n in sorted(problems.items())]
        else:
            table, problems = list_definitions(lexicon, f"{source}_senses", source)
            notes += [f"{source}: {n:,} {what}" for what, n in sorted(problems.items())]
        candidates.append(table.with_columns(pl.lit(rank).alias("rank")))
    best = pl.concat(candidates).sort("rank").unique("id", keep="first").drop("rank")
    table = (lexicon.select("id", "word").join(best, on="id", how="left").sort("id").select(list(DEFINITIONS)))
    have = table["definition"].is_not_null().sum()
    per_source = table["definition_source"].drop_nulls().value_counts().sort("definition_source").rows()
    notes.insert(0, f"definitions for {have:,} of {table.height:,} words ({have / max(table.height, 1):.1%}): "
                 + ", ".join(f"{s} {n:,}" for s, n in per_source))
    return {"definitions": table, "notes": notes}


STAGE = Stage(
    number=2,
    name="definitions",
    transform=build_definitions,
    reads=("lexicon",),
    raw=("wordnet", "supplement"),
    settings=("definition_sources",),
    writes={"definitions": Output("02_definitions.parquet", DEFINITIONS)},
)
