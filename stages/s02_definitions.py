"""Stage 2, definitions: one definition per word, clean text for people.

Reads build/01_lexicon.parquet (`id`, `word`, `csw_senses`, `owl_senses`),
the WordNet folder named by config key `wordnet` (see stages/wordnet.py) and
the supplement file named by config key `supplement` (NASPA format: our own
definitions of function words, which WordNet lacks: AND, FOR, THEY).

Sources are tried in the order of config `definition_sources` (default csw,
owl, supplement, wordnet). A list's own senses are rendered, joined by ` / `,
each with its bracket. Rendering is linear: no definition holds another
definition inside it, so none grows with the links around it.
- a synonym link inside a sentence becomes its word: `not {good=adj}` -> `not good`;
- a sense that is only a link (`AM <be=v> [v]`, `AE {one=adj} [adj]`) takes
  the target's first sense of that part of speech (or its first sense),
  following a chain of such links to the first text: `BE, to have actuality [v]`;
- a run-on form `ADDABLE` of ADD -> `from ADD, to combine ... [adj]`;
- `{ldquo}`/`{rdquo}` -> quotation marks; whitespace normalised; no markup left.
A chain that never reaches a text (a cycle, or longer than MAX_HOPS) and a
link to a word the list lacks leave just the linked word; both are counted in
the notes. Words the lists do not define fall back to WordNet.

Writes build/02_definitions.parquet, one row per word, key `id`:
- id u32, word str
- definition str: null when no source has one
- definition_source str: `csw`, `owl`, `supplement`, `csw-link`, `owl-link`,
  `supplement-link` (that source, through at least one link) or `wordnet`;
  null with no definition
"""
from __future__ import annotations

from collections import Counter

import polars as pl

from pipeline.errors import InputFormatError
from pipeline.schemas import DEFINITIONS
from pipeline.stage import Output, Stage
from stages.wordlists import QUOTES, read_wordlist
from stages.wordnet import wordnet_definitions

MAX_HOPS = 8  # real lists chain at most two links (AM -> BE); longer chains are cycles or damage


def sense_rows(rows: pl.DataFrame) -> pl.DataFrame:
    """(`id`, `word`, `senses`) -> one row per sense: id, word, k (its order), pos, bracket, base
    (its own text with markup flattened), link_word, link_pos, runon_of."""
    text = pl.col("text")
    for name, quote in QUOTES.items():
        text = text.str.replace_all("{" + name + "}", quote, literal=True)
    return (
        rows.select("id", "word", "senses")
        .with_columns(pl.int_ranges(pl.col("senses").list.len(), dtype=pl.UInt32).alias("k"))
        .explode("senses", "k").unnest("senses")
        .select(
            "id", "word", "k", "pos", "link_word", "link_pos", "runon_of",
            pl.concat_str("pos", "inflection", separator=" ", ignore_nulls=True).replace("", None).alias("bracket"),
            text.str.replace_all(r"[{<]([a-z]+)=[a-z_]*[}>]", "$1")
            .str.replace_all(r"\s+", " ").str.strip_chars().alias("base"),
        )
    )


def resolve(senses: pl.DataFrame) -> tuple[pl.DataFrame, Counter]:
    """For each sense that is a link or a run-on form: `final`, the text at the end of its chain
    (null when the chain is cut), and `missed_pos` (the target lacked that part of speech)."""
    problems: Counter[str] = Counter()
    first = senses.sort("k").unique("word", keep="first").select(
        pl.col("word").alias("at"), pl.col("base").alias("t_base"), pl.col("link_word").alias("t_link"),
        pl.col("link_pos").alias("t_pos"), pl.col("runon_of").alias("t_runon"))
    first_of_pos = senses.sort("k").unique(["word", "pos"], keep="first").select(
        pl.col("word").alias("at"), pl.col("pos").alias("at_pos"), pl.col("base").alias("p_base"),
        pl.col("link_word").alias("p_link"), pl.col("link_pos").alias("p_pos"), pl.col("runon_of").alias("p_runon"))
    frontier = senses.filter(pl.col("link_word").is_not_null() | pl.col("runon_of").is_not_null()).select(
        "id", "k", pl.coalesce("link_word", "runon_of").alias("at"),
        pl.when(pl.col("link_word").is_not_null()).then(pl.col("link_pos")).alias("at_pos"))
    done = []
    for hop in range(MAX_HOPS):
        step = (frontier.join(first_of_pos, on=["at", "at_pos"], how="left")
                .join(first, on="at", how="left"))
        by_pos = pl.col("p_base").is_not_null() | pl.col("p_link").is_not_null() | pl.col("p_runon").is_not_null()
        step = step.with_columns(
            pl.when(by_pos).then("p_base").otherwise("t_base").alias("n_base"),
            pl.when(by_pos).then("p_link").otherwise("t_link").alias("n_link"),
            pl.when(by_pos).then("p_pos").otherwise("t_pos").alias("n_pos"),
            pl.when(by_pos).then("p_runon").otherwise("t_runon").alias("n_runon"),
            (pl.col("at_pos").is_not_null() & ~by_pos & pl.col("t_base").is_not_null()).alias("missed_pos"),
        )
        problems["links to a word without that part of speech (first sense used)"] += step["missed_pos"].sum()
        missing = step.filter(pl.col("n_base").is_null())
        problems["links to words the list lacks"] += missing.height
        ends = step.filter(pl.col("n_base").is_not_null() & pl.col("n_link").is_null() & pl.col("n_runon").is_null())
        done += [missing.select("id", "k", pl.lit(None, pl.String).alias("final")),
                 ends.select("id", "k", pl.col("n_base").alias("final"))]
        frontier = step.filter(pl.col("n_link").is_not_null() | pl.col("n_runon").is_not_null()).select(
            "id", "k", pl.coalesce("n_link", "n_runon").alias("at"),
            pl.when(pl.col("n_link").is_not_null()).then(pl.col("n_pos")).alias("at_pos"))
        if frontier.height == 0:
            break
    problems["link chains that never reach a text (cycles, cut)"] += frontier.height
    done.append(frontier.select("id", "k", pl.lit(None, pl.String).alias("final")))
    return pl.concat(done), +problems


def render(rows: pl.DataFrame, source: str) -> tuple[pl.DataFrame, Counter]:
    """(`id`, `definition`, `definition_source`) for (`id`, `word`, `senses`) rows, links followed
    within these rows (one list's words)."""
    senses = sense_rows(rows)
    finals, problems = resolve(senses)
    text = (
        pl.when(pl.col("runon_of").is_not_null())
        .then(pl.concat_str(pl.lit("from "), "runon_of", pl.lit(", ") + pl.col("final"), ignore_nulls=True))
        .when(pl.col("link_word").is_not_null())
        .then(pl.concat_str("link_word", pl.lit(", ") + pl.col("final"), ignore_nulls=True))
        .otherwise("base")
    )
    shown = pl.concat_str(text, pl.lit(" [") + pl.col("bracket") + pl.lit("]"), ignore_nulls=True).str.strip_chars()
    table = (
        senses.join(finals, on=["id", "k"], how="left")
        .with_columns(shown.alias("shown"), pl.col("final").is_not_null().alias("linked"))
        .filter(pl.col("shown") != "")
        .sort("id", "k")
        .group_by("id", maintain_order=True)
        .agg(pl.col("shown").str.join(" / ").alias("definition"), pl.col("linked").any())
        .select("id", "definition", pl.when("linked").then(pl.lit(f"{source}-link")).otherwise(pl.lit(source))
                .alias("definition_source"))
    )
    return table, problems


def list_definitions(lexicon: pl.DataFrame, column: str, source: str) -> tuple[pl.DataFrame, Counter]:
    """Definitions from one list's own senses (column csw_senses or owl_senses)."""
    return render(lexicon.filter(pl.col(column).is_not_null()).select("id", "word", pl.col(column).alias("senses")),
                  source)


def supplement_definitions(lexicon: pl.DataFrame, supplement: dict[str, bytes]) -> tuple[pl.DataFrame, Counter]:
    """Definitions from the supplement file (NASPA format), for the lexicon's words it defines."""
    ((name, data),) = supplement.items()
    wl = read_wordlist(name, data, "naspa")
    for bad in (wl.errors, wl.warnings):  # our own file: every problem is ours to fix
        if bad.height:
            line, text, reason = bad.row(0)
            raise InputFormatError(f"{name}, line {line}: {reason}, in {text[:60]!r}")
    entries = (wl.entries.filter(pl.col("senses").is_not_null()).unique("word", keep="first", maintain_order=True)
               .join(lexicon.select("id", "word"), on="word", how="left"))
    # Ids beyond the lexicon's let supplement words link to words the lexicon lacks; they are dropped after.
    extra = pl.int_range(lexicon.height, lexicon.height + pl.len(), dtype=pl.UInt32)
    entries = entries.with_columns(pl.coalesce(pl.col("id"), extra).alias("id"))
    table, problems = render(entries.select("id", "word", "senses"), "supplement")
    return table.filter(pl.col("id") < lexicon.height), problems


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
