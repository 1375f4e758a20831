"""Derivations for stage 2 (not a stage itself): words made from a base by a prefix, a suffix or a British
spelling, by rules that were each judged at least 95% right (docs/definitions.md).

`derived_definitions` reads the still undefined words (`id`, `word`), the dictionaries' senses as bases
(`base`, `pos_right`, `gloss`, `source`, `preference`) and the lexicon (`word`), and gives (`id`, `word`,
`definition`, `base_source`, `pos`, `gloss`): what the word means in its own part of speech: `not BATED
[adj]`, `PLEDGE again [v]`, `in a way that is GULLIBLE: naive and easily deceived or tricked [adv]`, `British
spelling of NEUTRALIZER: ... [n]`.
"""

from __future__ import annotations

import polars as pl

from pipeline.columns import Col

# Derivations by a productive rule, tried on words no source defines or inflects. Each rule is kept only
# while its precision on a judged sample is at least 95% (docs/definitions.md has the table, and the
# judgements are in tests/data/definitions_rules_judged.tsv; `make audit` measures the build). A prefix
# keeps the part of speech. With `gloss` the base's own sense is shown (GULLIBLY: `in a way that is
# GULLIBLE: naive and easily deceived or tricked [adv]`); without, only what the word means (REOFFEND:
# `OFFEND again [v]`): those affixes mean one thing of every sense, but which of the base's senses
# is meant cannot be known (REOFFEND shown with OFFEND's first sense, "cause to feel resentment", was
# judged wrong; so were UNPROFESSED, UNGRAMMATIC and SPIKER, "stand in the way of", in the audit).
# Left out, judged below 95% either way: out- (OUTBULGE: outward, not "more than"; OUTWROTE is OUTWRITE's),
# over- (OVERDOG, OVERBOOT are nouns; OVERSCORE is to score a line over), mis- (MISSABLE is MISS + -able;
# MISGUGGLE is Scots for bungle) and -er (PISHER is Yiddish for a youngster; SPIKER is no "stand in the
# way of"-er).
# (prefix, the base's part of speech, what the word means, gloss): the meaning in the derived word's part
# of speech, `{}` standing for the base (REPLEDGE: `PLEDGE again [v]`).
# Of a base both an adjective and another part of speech, the adjective's reading first: un- and non- make
# adjectives most (NONINTEGRAL, NONTEMPORAL are `not INTEGRAL [adj]`, not nouns).
PREFIXES = [
    ("UN", "adj", "not {}", False),
    ("UN", "v", "reverse the action of {}", False),
    ("RE", "v", "{} again", False),
    ("NON", "adj", "not {}", False),
    ("NON", "n", "non- (not) + {}", False),
    ("PRE", "v", "{} beforehand", False),
    ("PRE", "n", "pre- (before) + {}", False),
]
# (suffix, what replaces it to give the base, the base's part of speech, the derived word's, what the word
# means, gloss): DRAFTINESS `the quality of being DRAFTY: not airtight [n]`.
SUFFIXES = [
    ("NESS", "", "adj", "n", "the quality of being {}", True),
    ("INESS", "Y", "adj", "n", "the quality of being {}", True),
    ("LY", "", "adj", "adv", "in a way that is {}", True),
    ("ILY", "Y", "adj", "adv", "in a way that is {}", True),
    ("ALLY", "", "adj", "adv", "in a way that is {}", True),
    ("BLY", "BLE", "adj", "adv", "in a way that is {}", True),
    ("LESS", "", "n", "adj", "without {}", False),
]
# British -is- and -our- spellings of American words (NEUTRALISER, ARMOURS): the same word.
BRITISH = [
    ("ISATION", "IZATION"),
    ("ISATIONS", "IZATIONS"),
    ("ISING", "IZING"),
    ("ISED", "IZED"),
    ("ISER", "IZER"),
    ("ISERS", "IZERS"),
    ("ISES", "IZES"),
    ("ISE", "IZE"),
    ("YSE", "YZE"),
    ("YSED", "YZED"),
    ("YSES", "YZES"),
    ("YSING", "YZING"),
    ("OUR", "OR"),
    ("OURS", "ORS"),
    ("OURED", "ORED"),
    ("OURING", "ORING"),
    ("OURER", "ORER"),
    ("OURERS", "ORERS"),
]


def _rule_tries(missing: pl.DataFrame) -> pl.DataFrame:
    """(`id`, `base`, `pos`, `shown_pos`, `how`, `gloss_shown`, `priority`): every derivation a rule proposes
    for the words (`id`, `word`); `pos` the part of speech the base must have (null: any, for a spelling)."""
    word, n = pl.col(Col.word), pl.col(Col.word).str.len_chars()
    tries = []
    for british, american in BRITISH:
        tries.append(
            missing.filter(word.str.ends_with(british)).select(
                Col.id,
                (word.str.slice(0, n - len(british)) + american).alias("base"),
                pl.lit(None, pl.String).alias("pos"),
                pl.lit(None, pl.String).alias("shown_pos"),
                pl.lit("British spelling of {}").alias("how"),
                pl.lit("british").alias("rule"),
                pl.lit(True).alias("gloss_shown"),
            )
        )
    for prefix, pos, meaning, gloss in PREFIXES:
        tries.append(
            missing.filter(word.str.starts_with(prefix) & (n >= len(prefix) + 3)).select(
                Col.id,
                word.str.slice(len(prefix)).alias("base"),
                pl.lit(pos).alias("pos"),
                pl.lit(pos).alias("shown_pos"),
                pl.lit(meaning).alias("how"),
                pl.lit(f"{prefix}-{pos}").alias("rule"),
                pl.lit(gloss).alias("gloss_shown"),
            )
        )
    for suffix, ending, pos, shown, meaning, gloss in SUFFIXES:
        tries.append(
            missing.filter(word.str.ends_with(suffix) & (n >= len(suffix) + 3)).select(
                Col.id,
                (word.str.slice(0, n - len(suffix)) + ending).alias("base"),
                pl.lit(pos).alias("pos"),
                pl.lit(shown).alias("shown_pos"),
                pl.lit(meaning).alias("how"),
                pl.lit(f"-{suffix}").alias("rule"),
                pl.lit(gloss).alias("gloss_shown"),
            )
        )
    return pl.concat(tries).with_row_index("priority")


def derived_definitions(missing: pl.DataFrame, bases: pl.DataFrame, lexicon: pl.DataFrame) -> pl.DataFrame:
    """(`id`, `word`, `definition`, `base_source`, `pos`, `gloss`) for the words (`id`, `word`) a rule
    derives from a base of the lexicon (3+ letters) that a dictionary defines in the rule's part of speech,
    tagged with the derived word's: `in a way that is GULLIBLE: naive ... [adv]`, or without the base's
    sense: `CHECK again [v]`.
    `bases`: (`base`, `pos_right`, `gloss`, `source`, `preference`), the dictionaries' first sense per word
    and part of speech. `pos`/`gloss`: the
    derived word's, for inflecting it in turn (UNSNAPPING from UNSNAP)."""
    words = lexicon.select(pl.col(Col.word).alias("base")).filter(pl.col("base").str.len_chars() >= 3)
    found = (
        _rule_tries(missing)
        .join(words, on="base", how="semi")
        .join(bases, on="base")
        .filter(pl.col("pos").is_null() | (pl.col("pos") == pl.col("pos_right")))
        # One affix, two bases (-ly and -ily, say): which is meant cannot be known.
        .filter(pl.col("base").n_unique().over(Col.id, "rule") == 1)
        # The rules in their order; of one base's parts of speech, the first dictionary's, in its order
        # (UNSNAP: WordNet's verb SNAP, not GCIDE's adjective).
        .with_columns(
            pl.col("priority").min().over(Col.id, "base").alias("base_priority"),
            pl.col("preference").min().over("source").alias("source_order"),
        )
        .sort("base_priority", "source_order", "preference", "priority")
        .unique(Col.id, keep="first", maintain_order=True)
    )
    # pre- on a word that is a noun as well as a verb makes adjectives as often as verbs (PRECRASH and
    # PRESTRIKE are no `CRASH beforehand`): the relation alone, untagged, as pre- and non- on nouns (PREWAR,
    # NONSEXIST are adjectives).
    nouns = bases.filter(pl.col("pos_right") == "n").select("base").unique().with_columns(pl.lit(True).alias("noun"))
    found = found.join(nouns, on="base", how="left")
    ambiguous = (pl.col("rule") == "PRE-v") & pl.col("noun").fill_null(False)
    shown = pl.coalesce("shown_pos", "pos_right")
    how = (
        pl.when(ambiguous)
        .then(pl.lit("pre- (before) + {}"))
        .otherwise("how")
        .str.replace("{}", pl.col("base"), literal=True)
    )
    glossed = pl.col("gloss_shown")
    return found.join(missing, on=Col.id).select(
        Col.id,
        Col.word,
        pl.when(glossed)
        .then(pl.format("{}: {} [{}]", how, "gloss", shown))
        .when(how.str.contains(r" \+ "))
        .then(how)
        .otherwise(pl.format("{} [{}]", how, shown))
        .alias(Col.definition),
        pl.col("source").alias("base_source"),
        shown.alias("pos"),
        pl.when(glossed).then(pl.format("{}: {}", how, "gloss")).otherwise(how).alias("gloss"),
    )
