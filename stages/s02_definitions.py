"""Stage 2, definitions: one definition per word, from the lists or WordNet.

Reads build/01_lexicon.parquet (`id`, `word`, `csw_text`, `owl_text`) and the
WordNet 3.0 folder named by config key `wordnet`: index.{noun,verb,adj,adv}
(a lemma's synsets, most frequent sense first), data.{...} (each synset's
gloss) and {...}.exc (irregular forms: MICE -> mouse).

Sources are tried in the order of config `definition_sources` (csw, owl,
wordnet): the lists' own text first, then WordNet.
- A word that is a WordNet lemma gets the first (most frequent) sense of each
  part of speech it has: `a mild viral infection ... [n] / having a low
  temperature [adj]`.
- Otherwise its base form is looked up as WordNet's morphy does: the
  exception lists, then the suffix rules (SILVERS -> silver, BARKED -> bark),
  and the definition says whose it is: `plural of SILVER: a soft white ... [n]`.

Writes build/02_definitions.parquet, one row per word, key `id`:
- id u32, word str
- definition str: null when no source has one
- definition_source str: `csw`, `owl` or `wordnet` (null with no definition)
"""
from __future__ import annotations

import polars as pl

from pipeline.errors import InputFormatError
from pipeline.schemas import DEFINITIONS
from pipeline.stage import Output, Stage

POS = {"noun": "n", "verb": "v", "adj": "adj", "adv": "adv"}

# WordNet's morphy suffix rules, with what the inflected form is of its base.
RULES = [
    ("noun", "s", "", "plural of"), ("noun", "ses", "s", "plural of"), ("noun", "xes", "x", "plural of"),
    ("noun", "zes", "z", "plural of"), ("noun", "ches", "ch", "plural of"), ("noun", "shes", "sh", "plural of"),
    ("noun", "men", "man", "plural of"), ("noun", "ies", "y", "plural of"),
    ("verb", "s", "", "present tense of"), ("verb", "ies", "y", "present tense of"),
    ("verb", "es", "e", "present tense of"), ("verb", "es", "", "present tense of"),
    ("verb", "ed", "e", "past tense of"), ("verb", "ed", "", "past tense of"),
    ("verb", "ing", "e", "present participle of"), ("verb", "ing", "", "present participle of"),
    ("adj", "er", "", "comparative of"), ("adj", "est", "", "superlative of"),
    ("adj", "er", "e", "comparative of"), ("adj", "est", "e", "superlative of"),
]


def _lines(files: dict[str, bytes], name: str) -> pl.Series:
    """Lines of the file called `name` in the WordNet folder, licence header dropped."""
    data = next((d for path, d in files.items() if path.rsplit("/", 1)[-1] == name), None)
    if data is None:
        raise InputFormatError(f"WordNet folder has no file {name} (have: {', '.join(sorted(files))})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputFormatError(f"WordNet file {name}: not UTF-8 text (offset {e.start})") from None
    lines = pl.Series("line", text.splitlines(), dtype=pl.String)
    return lines.filter(~lines.str.starts_with("  ") & (lines != ""))


def wordnet_glosses(wordnet: dict[str, bytes]) -> pl.DataFrame:
    """(`lemma`, `pos`, `rank`, `gloss`): the first-sense gloss of each single-word lemma per part of speech."""
    frames = []
    for rank, (pos, tag) in enumerate(POS.items()):
        index = (
            _lines(wordnet, f"index.{pos}").str.strip_chars().str.split(" ").to_frame("f")
            .select(
                pl.col("f").list.first().alias("lemma"),
                pl.col("f").list.get(pl.col("f").list.len() - pl.col("f").list.get(2).cast(pl.Int64)).alias("offset"),
            )
            .filter(pl.col("lemma").str.contains(r"^[a-z]+$"))
        )
        data = (
            _lines(wordnet, f"data.{pos}").to_frame()
            .select(
                pl.col("line").str.slice(0, 8).alias("offset"),
                pl.col("line").str.splitn(" | ", 2).struct.field("field_1")
                .str.split('; "').list.first().str.strip_chars().alias("gloss"),
            )
        )
        frames.append(index.join(data, on="offset").select(
            "lemma", pl.lit(tag).alias("pos"), pl.lit(rank).alias("rank"), "gloss"))
    return pl.concat(frames)


def base_forms(words: pl.DataFrame, wordnet: dict[str, bytes], lemmas: pl.DataFrame) -> pl.DataFrame:
    """(`lower`, `base`, `pos`, `relation`): the best WordNet base of each inflected word."""
    exceptions = []
    for pos, tag in POS.items():
        exc = _lines(wordnet, f"{pos}.exc").str.split(" ").to_frame("f").select(
            pl.col("f").list.first().alias("lower"), pl.col("f").list.get(1, null_on_oob=True).alias("base"),
            pl.lit(tag).alias("pos"),
            pl.lit("plural of" if pos == "noun" else "form of").alias("relation"))
        exceptions.append(exc)
    candidates = [pl.concat(exceptions).with_columns(pl.lit(0).alias("priority"))]
    for i, (pos, suffix, ending, relation) in enumerate(RULES, start=1):
        candidates.append(
            words.filter(pl.col("lower").str.ends_with(suffix) & (pl.col("lower").str.len_bytes() > len(suffix)))
            .select("lower",
                    (pl.col("lower").str.slice(0, pl.col("lower").str.len_bytes() - len(suffix)) + ending).alias("base"),
                    pl.lit(POS[pos]).alias("pos"), pl.lit(relation).alias("relation"), pl.lit(i).alias("priority"))
        )
    return (
        pl.concat(candidates)
        .join(words.select("lower"), on="lower")
        .join(lemmas.select(pl.col("lemma").alias("base"), "pos", "gloss"), on=["base", "pos"])
        .sort("priority")
        .unique("lower", keep="first")
    )


def build_definitions(lexicon: pl.DataFrame, wordnet: dict[str, bytes], definition_sources: list[str]) -> dict:
    lemmas = wordnet_glosses(wordnet)
    exact = (
        lemmas.sort("lemma", "rank")
        .group_by("lemma", maintain_order=True)
        .agg(pl.format("{} [{}]", "gloss", "pos").str.join(" / ").alias("wordnet"))
        .rename({"lemma": "lower"})
    )
    words = lexicon.select("id", "word", pl.col("word").str.to_lowercase().alias("lower"))
    missing = words.join(exact, on="lower", how="anti")
    inflected = base_forms(missing, wordnet, lemmas).select(
        "lower", pl.format("{} {}: {} [{}]", "relation", pl.col("base").str.to_uppercase(), "gloss", "pos")
        .alias("wordnet"))
    from_wordnet = pl.concat([exact, inflected])

    sources = {"csw": pl.col("csw_text"), "owl": pl.col("owl_text"), "wordnet": pl.col("wordnet")}
    table = (
        lexicon.select("id", "word", "csw_text", "owl_text", pl.col("word").str.to_lowercase().alias("lower"))
        .join(from_wordnet, on="lower", how="left")
        .with_columns(
            pl.coalesce([sources[s] for s in definition_sources]).alias("definition"),
            pl.coalesce([pl.when(sources[s].is_not_null()).then(pl.lit(s)) for s in definition_sources])
            .alias("definition_source"),
        )
        .sort("id")
        .select(list(DEFINITIONS))
    )
    have = table["definition"].is_not_null().sum()
    per_source = table["definition_source"].drop_nulls().value_counts().sort("definition_source").rows()
    note = (f"definitions for {have:,} of {table.height:,} words ({have / max(table.height, 1):.1%}): "
            + ", ".join(f"{s} {n:,}" for s, n in per_source))
    return {"definitions": table, "notes": [note, f"{inflected.height:,} of them through a base form"]}


STAGE = Stage(
    number=2,
    name="definitions",
    transform=build_definitions,
    reads=("lexicon",),
    raw=("wordnet",),
    settings=("definition_sources",),
    writes={"definitions": Output("02_definitions.parquet", DEFINITIONS)},
)
