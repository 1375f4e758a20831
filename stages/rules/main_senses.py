"""The main-sense table's candidates and its checks, for stage 2 and for the reviewers (not a stage itself).

Reads WordNet's senses (stages/sources/wordnet.py `senses`: `lemma`, `pos`, `key`, `gloss`, ...), the
lexicon's morphology (stages/rules/morphology.py) and the table (stages/sources/main_senses.py `read`).
- `candidates`: every sense a reviewer chooses among for a word: its own lemma's senses (all parts of
  speech), and for a form the senses of each base it is a form of by the rules, in the form's part of
  speech, shown as a player reads them (`plural of TRIO: a group of three`);
- `resolved`: the table's rows whose key is a candidate of their word, as (`word`, `lemma`, `pos`, `key`);
  a key that is not is an InputFormatError naming the file and the line;
- `forms_as_chosen`: a form the table gives a base's sense (PANTS: PANT's trousers, not `breathe noisily`)
  leads with that reading, whatever the rules put first;
- `gcide_resolved`: the rows naming GCIDE's n-th first sense (`gcide:<headword>:<n>`, for a word whose main
  meaning WordNet lacks: SUNNY's weather, HELL's abode), checked against GCIDE's glosses the same way.
"""

from __future__ import annotations

import polars as pl

from pipeline.columns import Col
from pipeline.errors import InputFormatError
from pipeline.terminal import inert
from stages.rules.inflections import readings

COLUMNS = [Col.word, "key", "pos", "gloss", "lemma"]


def candidates(
    words: pl.Series, senses: pl.DataFrame, forms: pl.DataFrame, lexicon: pl.Series, names: pl.Series
) -> pl.DataFrame:
    """(`word`, `key`, `pos`, `gloss`, `lemma`): each of `words`' (upper case) candidate senses (module
    docstring), its own first in WordNet's order, then each base's; `lemma` the lemma the key is a sense of."""
    wanted = words.str.to_lowercase().to_frame("lemma")
    own = senses.join(wanted, on="lemma", maintain_order="left").select(
        pl.col("lemma").str.to_uppercase().alias(Col.word), "key", "pos", "gloss", "lemma", pl.lit(0).alias("order")
    )
    bases = readings(words, senses.select("lemma", "pos", "gloss"), forms, lexicon, names)
    forms_of = bases.join(
        senses.select(pl.col("lemma").alias("base"), "pos", "key", "gloss", "rank", "sense"), on=["base", "pos"]
    ).select(
        Col.word,
        "key",
        "pos",
        pl.format("{} {}: {}", "relation", pl.col("base").str.to_uppercase(), "gloss").alias("gloss"),
        pl.col("base").alias("lemma"),
        pl.lit(1).alias("order"),
    )
    return (
        pl.concat([own, forms_of])
        .unique([Col.word, "key"], keep="first", maintain_order=True)
        .sort(Col.word, "order", maintain_order=True)
        .select(COLUMNS)
    )


def resolved(table: pl.DataFrame, name: str, found: pl.DataFrame, strict: bool = True) -> pl.DataFrame:
    """(`word`, `lemma`, `pos`, `key`, `gloss` as `candidates` shows it): the rows of `table`
    (main_senses.read) whose key is a WordNet sense among `found` (candidates of the table's words).
    `strict`: a WordNet key that is none is an error naming file and line (the committed table against raw/'s
    WordNet: tests/integration/test_senses_table.py); else such rows are left out, for a build of other lists
    or another WordNet, where the rules decide those words.
    GCIDE keys (`gcide:...`) are left to the GCIDE reader and not returned."""
    wordnet_keys = table.filter(~pl.col("key").str.starts_with("gcide:"))
    matched = wordnet_keys.join(
        found.select(Col.word, "key", "lemma", "pos", "gloss"), on=[Col.word, "key"], how="left"
    )
    bad = matched.filter(pl.col("lemma").is_null())
    if bad.height and strict:
        word, key, line = bad.select(Col.word, "key", "line").row(0)
        raise InputFormatError(
            f"{inert(name)} line {line}: {inert(key)} is no sense of {word} nor of a base it is a form of "
            f"({bad.height} such line{'s' if bad.height > 1 else ''}); fix or remove it"
        )
    return matched.filter(pl.col("lemma").is_not_null()).select(Col.word, "lemma", "pos", "key", "gloss")


def gcide_resolved(table: pl.DataFrame, name: str, gcide: pl.DataFrame, strict: bool = True) -> pl.DataFrame:
    """(`word`, `lemma`, `rank`): the rows of `table` (main_senses.read) whose key is `gcide:<headword>:<n>`,
    the headword the word itself and `rank` (n - 1) one of GCIDE's first senses of it (`gcide`: gcide.glosses'
    `lemma`, `rank`). `strict`: any other such key is an error naming file and line (as `resolved`)."""
    keys = table.filter(pl.col("key").str.starts_with("gcide:")).with_columns(
        pl.col("key").str.split(":").list.get(1).alias("lemma"),
        (pl.col("key").str.split(":").list.get(2).cast(pl.Int64) - 1).alias("rank"),
    )
    known = gcide.select("lemma", pl.col("rank").cast(pl.Int64), pl.lit(True).alias("known"))
    matched = keys.join(known, on=["lemma", "rank"], how="left").with_columns(
        pl.col("known").fill_null(False) & (pl.col("lemma") == pl.col(Col.word).str.to_lowercase())
    )
    bad = matched.filter(~pl.col("known"))
    if bad.height and strict:
        word, key, line = bad.select(Col.word, "key", "line").row(0)
        raise InputFormatError(
            f"{inert(name)} line {line}: {inert(key)} is no first sense of {word}'s own GCIDE entries "
            f"({bad.height} such line{'s' if bad.height > 1 else ''}); fix or remove it"
        )
    return matched.filter("known").select(Col.word, "lemma", "rank")


# The sources whose text a chosen reading may replace: the dictionaries'. A list's own text, or ours (the
# supplement), comes first by the configured order and stays.
DICTIONARIES = ("wordnet", "gcide")
FROM_A_DICTIONARY = pl.col(Col.definition_source).is_null() | pl.col(Col.definition_source).str.contains(
    f"^(?:{'|'.join(DICTIONARIES)})"
)


def chosen_texts(best: pl.DataFrame, texts: pl.DataFrame, source: str) -> pl.DataFrame:
    """`best` (`id`, `word`, `definition`, `definition_source`) with the words of `texts` (`word`,
    `definition`: the table's choice rendered) given that text, from `source`, where a dictionary's text was."""
    new = best.join(texts.rename({Col.definition: "new"}), on=Col.word).filter(FROM_A_DICTIONARY)
    swapped = pl.col("new").is_not_null()
    return (
        best.join(new.select(Col.id, "new"), on=Col.id, how="left")
        .with_columns(
            pl.when(swapped).then("new").otherwise(Col.definition).alias(Col.definition),
            pl.when(swapped).then(pl.lit(source)).otherwise(Col.definition_source).alias(Col.definition_source),
        )
        .select(best.columns)
    )


def forms_as_chosen(best: pl.DataFrame, chosen: pl.DataFrame, limit: int) -> tuple[pl.DataFrame, int]:
    """`best` (`id`, `word`, `definition`, `definition_source`) with each form the table gives a base's sense
    (`chosen`: `resolved` rows whose lemma is not the word) leading with that reading as `candidates` shows it
    (`plural of PANT: (usually in the plural) a garment... [n]`), and how many changed. The form's other
    readings of WordNet's text follow while the whole fits in `limit` characters, less the one it replaces
    (the same base and part of speech); a text of GCIDE's is replaced whole (one source a definition)."""
    picks = chosen.filter(pl.col("lemma") != pl.col(Col.word).str.to_lowercase()).select(
        Col.word,
        pl.format("{} [{}]", "gloss", "pos").alias("lead"),
        pl.col("gloss").str.extract(r"^([^:]+: )", 1).alias("prefix"),
        pl.format("[{}]", "pos").alias("bracket"),
    )
    todo = best.join(picks, on=Col.word).filter(
        FROM_A_DICTIONARY
        & ~pl.col(Col.definition).fill_null("").str.starts_with(pl.col("lead"))
        & (pl.col("lead").str.len_chars() <= limit)
    )
    rows = []
    for id_, definition, origin, lead, prefix, bracket in todo.select(
        Col.id, Col.definition, Col.definition_source, "lead", "prefix", "bracket"
    ).rows():
        text = lead
        for said in (definition or "").split(" / ") if (origin or "").startswith("wordnet") else []:
            if not (said.startswith(prefix) and said.endswith(bracket)) and len(text) + 3 + len(said) <= limit:
                text += " / " + said
        rows.append((id_, text, "wordnet-inflection"))
    changed = pl.DataFrame(
        rows,
        schema={Col.id: best.schema[Col.id], Col.definition: pl.String, Col.definition_source: pl.String},
        orient="row",
    )
    kept = best.join(changed.select(Col.id), on=Col.id, how="anti")
    return pl.concat([kept, best.select(Col.id, Col.word).join(changed, on=Col.id)], how="diagonal_relaxed").select(
        best.columns
    ), changed.height
