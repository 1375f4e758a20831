"""A word list's own definitions for stage 2 (not a stage itself): its parsed senses rendered as text.

Reads stage 1's parsed senses of one list (`id`, `word`, `senses`: a list of SENSE structs, pipeline/schemas.py:
`pos`, `inflection`, `text`, `link_word`, `link_pos`, `runon_of`), or the supplement file (NASPA format,
parsed by stages/sources/wordlists.py), and gives:
- (`id`, `definition`, `definition_source`): a word's senses joined by ` / `, each with its bracket; a link
  inside a sentence becomes its word (`not {good=adj}` -> `not good`); a sense that is only a link (`AM
  <be=v>`) takes the target's first sense of that part of speech, following a chain of links within the
  list to the first text; a run-on form (ADDABLE of ADD) -> `from ADD, to combine ... [adj]`. A chain that
  never reaches a text (a cycle, or longer than MAX_HOPS) or a link to a word the list lacks leaves just
  the linked word; both are counted (a Counter of problems). `definition_source` is the list's name, with
  `-link` when a link or a run-on form's head was followed to its text;
- (`lemma`, `pos`, `rank`, `gloss`): the list's senses read as a dictionary's (as_lemmas), so that the
  inflections and derivations of its words are defined from them too.
"""

from __future__ import annotations

from collections import Counter

import polars as pl

from pipeline.columns import Col
from pipeline.errors import InputFormatError
from stages.sources.definition_grammar import QUOTES
from stages.sources.wordlists import read_wordlist

MAX_HOPS = 8  # real lists chain at most two links (AM -> BE); longer chains are cycles or damage


def sense_rows(rows: pl.DataFrame) -> pl.DataFrame:
    """(`id`, `word`, `senses`) -> one row per sense: id, word, k (its order), pos, bracket, base
    (its own text with markup flattened), link_word, link_pos, runon_of."""
    # One pass for both quotes, and whitespace replaced only where it is not already one space: 2.7x
    # and 3.5x faster than a replace_all per quote and `\s+` -> " ", with the same text.
    text = pl.col("text").str.replace_many({"{" + name + "}": quote for name, quote in QUOTES.items()})
    return (
        rows.select(Col.id, Col.word, "senses")
        .with_columns(pl.int_ranges(pl.col("senses").list.len(), dtype=pl.UInt32).alias("k"))
        .explode("senses", "k")
        .unnest("senses")
        .select(
            Col.id,
            Col.word,
            "k",
            "pos",
            "link_word",
            "link_pos",
            "runon_of",
            pl.concat_str("pos", "inflection", separator=" ", ignore_nulls=True).replace("", None).alias("bracket"),
            text.str.replace_all(r"[{<]([a-z]+)=[a-z_]*[}>]", "$1")
            .str.replace_all(r"\s\s+|[^\S ]", " ")
            .str.strip_chars()
            .alias("base"),
        )
    )


def resolve(senses: pl.DataFrame) -> tuple[pl.DataFrame, Counter]:
    """For each sense that is a link or a run-on form: `final`, the text at the end of its chain
    (null when the chain is cut), and `missed_pos` (the target lacked that part of speech)."""
    problems: Counter[str] = Counter()
    # A word's senses lie together in the order k (sense_rows explodes them so): its first row is its
    # first sense, of any part of speech or of one.
    first = senses.unique(Col.word, keep="first").select(
        pl.col(Col.word).alias("at"),
        pl.col("base").alias("t_base"),
        pl.col("link_word").alias("t_link"),
        pl.col("link_pos").alias("t_pos"),
        pl.col("runon_of").alias("t_runon"),
    )
    first_of_pos = senses.unique([Col.word, "pos"], keep="first").select(
        pl.col(Col.word).alias("at"),
        pl.col("pos").alias("at_pos"),
        pl.col("base").alias("p_base"),
        pl.col("link_word").alias("p_link"),
        pl.col("link_pos").alias("p_pos"),
        pl.col("runon_of").alias("p_runon"),
    )
    frontier = senses.filter(pl.col("link_word").is_not_null() | pl.col("runon_of").is_not_null()).select(
        Col.id,
        "k",
        pl.coalesce("link_word", "runon_of").alias("at"),
        pl.when(pl.col("link_word").is_not_null()).then(pl.col("link_pos")).alias("at_pos"),
    )
    done = []
    for _ in range(MAX_HOPS):
        step = frontier.join(first_of_pos, on=["at", "at_pos"], how="left").join(first, on="at", how="left")
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
        done += [
            missing.select(Col.id, "k", pl.lit(None, pl.String).alias("final")),
            ends.select(Col.id, "k", pl.col("n_base").alias("final")),
        ]
        frontier = step.filter(pl.col("n_link").is_not_null() | pl.col("n_runon").is_not_null()).select(
            Col.id,
            "k",
            pl.coalesce("n_link", "n_runon").alias("at"),
            pl.when(pl.col("n_link").is_not_null()).then(pl.col("n_pos")).alias("at_pos"),
        )
        if frontier.height == 0:
            break
    problems["link chains that never reach a text (cycles, cut)"] += frontier.height
    done.append(frontier.select(Col.id, "k", pl.lit(None, pl.String).alias("final")))
    return pl.concat(done), +problems


def render(senses: pl.DataFrame, source: str) -> tuple[pl.DataFrame, Counter]:
    """(`id`, `definition`, `definition_source`) for one list's sense_rows, links followed within these rows
    (one list's words)."""
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
        senses.join(finals, on=[Col.id, "k"], how="left")
        .with_columns(shown.alias("shown"), pl.col("final").is_not_null().alias("linked"))
        .filter(pl.col("shown") != "")
        .sort(Col.id, "k")
        .group_by(Col.id, maintain_order=True)
        .agg(pl.col("shown").str.join(" / ").alias(Col.definition), pl.col("linked").any())
        .select(
            Col.id,
            Col.definition,
            pl.when("linked").then(pl.lit(f"{source}-link")).otherwise(pl.lit(source)).alias(Col.definition_source),
        )
    )
    return table, problems


def list_definitions(lexicon: pl.DataFrame, column: str, source: str) -> tuple[pl.DataFrame, Counter, pl.DataFrame]:
    """Definitions from one list's own senses (column csw_senses or owl_senses); its senses as a
    dictionary's (as_lemmas: a licensed list's bare-word lines, ABANDONER, are derived from its ABANDON)."""
    rows = lexicon.filter(pl.col(column).is_not_null()).select(Col.id, Col.word, pl.col(column).alias("senses"))
    senses = sense_rows(rows)
    return *render(senses, source), as_lemmas(senses)


def as_lemmas(senses: pl.DataFrame) -> pl.DataFrame:
    """(`lemma`, `pos`, `rank`, `gloss`) from a list's sense_rows: its own first sense of each part of
    speech that names inflections, as a dictionary's, so that its words' forms are defined too (CORNROWS
    from `CORNROW ... [n -S]`)."""
    # Only senses whose bracket names their inflections (`[n -S]`) are bases: the function words' (CAN,
    # WILL, AT) are not, so that CANER is no `CAN + -er` and ATES no `present tense of AT`.
    return (
        senses.filter(
            pl.col("link_word").is_null()
            & pl.col("runon_of").is_null()
            & pl.col("pos").is_not_null()
            & (pl.col("base") != "")
            & pl.col("bracket").str.contains(" ")
        )
        .unique([Col.word, "pos"], keep="first", maintain_order=True)
        .select(
            pl.col(Col.word).str.to_lowercase().alias("lemma"),
            "pos",
            pl.col("k").cast(pl.Int64).alias("rank"),
            pl.col("base").alias("gloss"),
        )
    )


def supplement_definitions(
    lexicon: pl.DataFrame, supplement: dict[str, bytes]
) -> tuple[pl.DataFrame, Counter, pl.DataFrame]:
    """Definitions from the supplement file (NASPA format), for the lexicon's words it defines; its senses
    as a dictionary's (as_lemmas)."""
    ((name, data),) = supplement.items()
    wl = read_wordlist(name, data, "naspa")
    for bad in (wl.errors, wl.warnings):  # our own file: every problem is ours to fix
        if bad.height:
            line, text, reason = bad.row(0)
            raise InputFormatError(f"{name}, line {line}: {reason}, in {text[:60]!r}")
    entries = (
        wl.entries.filter(pl.col("senses").is_not_null())
        .unique(Col.word, keep="first", maintain_order=True)
        .join(lexicon.select(Col.id, Col.word), on=Col.word, how="left")
    )
    # Ids beyond the lexicon's let supplement words link to words the lexicon lacks; they are dropped after.
    extra = pl.int_range(lexicon.height, lexicon.height + pl.len(), dtype=pl.UInt32)
    entries = entries.with_columns(pl.coalesce(pl.col(Col.id), extra).alias(Col.id))
    senses = sense_rows(entries.select(Col.id, Col.word, "senses"))
    table, problems = render(senses, "supplement")
    return table.filter(pl.col(Col.id) < lexicon.height), problems, as_lemmas(senses)
