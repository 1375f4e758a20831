"""Morphology for stage 2 (not a stage itself): the base forms a word may be an inflection of.

Proposes, for each word, every base that WordNet's exception lists give it (MICE -> mouse, HELD -> hold;
read by stages/sources/wordnet.py, `exception_lists`) or that a suffix rule makes of it: morphy's rules in
its order and a few it lacks (doubled consonants: GABBED -> gab; CHALKIER -> chalky; AVOCADOES, TOGAE,
CELLI). A proposal need not be a word: stages/rules/inflections.py verifies it against the lexicon and the
dictionaries. stages/rules/offensive.py and verify (through ladders/compose.py) read the same rules.

- `morphology`: (`lower`, `base`, `pos`, `priority`, `plain`) of every proposal for the given words, and
  every exception list entry (priority 0; priority i is the i-th rule of RULES, then of DOUBLED);
- `relations`: (`priority`, `pos`, `relation`), how a definition through each rule names its relation;
- `lookup_forms`: the lemmas a dictionary is asked about for some words (the words, their proposals and
  every exception-list base);
- `proposed_bases`: (`word`, `base`) by the suffix rules alone and stage 2's adjective derivations.
"""

from __future__ import annotations

import polars as pl

from pipeline.columns import Col
from stages.rules.derivations import SUFFIXES
from stages.sources.wordnet import POS, exception_lists

# (part of speech of the base, suffix, ending that replaces it, relation). First the suffix rules of
# WordNet's morphy, in its order; then inflections it leaves to its exception lists. Only inflections:
# a rule never changes the part of speech (CASUALS is not `plural of` an adjective's sense).
RULES = [
    ("noun", "s", "", "plural of"),
    ("noun", "ses", "s", "plural of"),
    ("noun", "xes", "x", "plural of"),
    ("noun", "zes", "z", "plural of"),
    ("noun", "ches", "ch", "plural of"),
    ("noun", "shes", "sh", "plural of"),
    ("noun", "men", "man", "plural of"),
    ("noun", "ies", "y", "plural of"),
    ("verb", "s", "", "present tense of"),
    ("verb", "ies", "y", "present tense of"),
    ("verb", "es", "e", "present tense of"),
    # morphy's plain -es, only where English writes it: after a sibilant or o (BAYES is no form of BAY).
    ("verb", "ses", "s", "present tense of"),
    ("verb", "xes", "x", "present tense of"),
    ("verb", "zes", "z", "present tense of"),
    ("verb", "ches", "ch", "present tense of"),
    ("verb", "shes", "sh", "present tense of"),
    ("verb", "oes", "o", "present tense of"),
    ("verb", "ed", "e", "past tense of"),
    ("verb", "ed", "", "past tense of"),
    ("verb", "ing", "e", "present participle of"),
    ("verb", "ing", "", "present participle of"),
    ("adj", "er", "", "comparative of"),
    ("adj", "est", "", "superlative of"),
    ("adj", "er", "e", "comparative of"),
    ("adj", "est", "e", "superlative of"),
    # Beyond morphy.
    ("verb", "ied", "y", "past tense of"),
    ("adj", "ier", "y", "comparative of"),
    ("adj", "iest", "y", "superlative of"),
    # Plurals morphy leaves to its exception lists: AVOCADOES, TOGAE, CELLI, DELIRIA, LEXICA,
    # BEHALVES, HANDSFUL.
    ("noun", "oes", "o", "plural of"),
    ("noun", "ae", "a", "plural of"),
    ("noun", "i", "o", "plural of"),
    ("noun", "i", "us", "plural of"),
    ("noun", "a", "um", "plural of"),
    ("noun", "a", "on", "plural of"),
    ("noun", "ves", "f", "plural of"),
    ("noun", "ves", "fe", "plural of"),
    ("noun", "sful", "ful", "plural of"),
]
CLASSICAL = {("i", "o"), ("i", "us"), ("a", "um"), ("a", "on")}
# Suffixes after which a doubled final consonant is undone: GABBED -> GAB, FUNNEST -> FUN, BUSSES -> BUS.
DOUBLED = [
    ("verb", "ed", "past tense of"),
    ("verb", "ing", "present participle of"),
    ("adj", "er", "comparative of"),
    ("adj", "est", "superlative of"),
    ("noun", "es", "plural of"),
    ("verb", "es", "present tense of"),
]  # BUSSES, FOCUSSES


def _candidates(words: pl.DataFrame, exceptions: pl.DataFrame) -> pl.DataFrame:
    """(`lower`, `base`, `pos`, `priority`, `plain`): every base form a rule proposes for `words` (`lower`)
    and every row of `exceptions` (wordnet.exception_lists) (`relations` names each; priority 0 is an
    exception list's entry; `plain`: the rule only added letters to the base)."""
    lower, n = pl.col("lower"), pl.col("lower").str.len_bytes()
    found = [exceptions.lazy().with_columns(pl.lit(0).alias("priority"), pl.lit(False).alias("plain"))]
    lazy = words.lazy()
    for i, (pos, suffix, ending, _) in enumerate(RULES, start=1):
        # Latin and Greek plurals need a stem of their own: DELIRIA, CELLI; not DA (D + ON), HA (H + UM), MASA.
        shortest = 4 if (suffix, ending) in CLASSICAL else 1
        found.append(
            lazy.filter(lower.str.ends_with(suffix) & (n >= len(suffix) + shortest)).select(
                "lower",
                (lower.str.slice(0, n - len(suffix)) + ending).alias("base"),
                pl.lit(POS[pos]).alias("pos"),
                pl.lit(i).alias("priority"),
                pl.lit(ending == "").alias("plain"),
            )
        )
    for i, (pos, suffix, _) in enumerate(DOUBLED, start=len(RULES) + 1):
        stem = lower.str.slice(0, n - len(suffix))
        found.append(
            lazy.filter(lower.str.ends_with(suffix) & (n > len(suffix) + 2))
            .with_columns(stem.alias("stem"))
            .filter(pl.col("stem").str.slice(-1) == pl.col("stem").str.slice(-2, 1))
            .select(
                "lower",
                pl.col("stem").str.slice(0, pl.col("stem").str.len_bytes() - 1).alias("base"),
                pl.lit(POS[pos]).alias("pos"),
                pl.lit(i).alias("priority"),
                pl.lit(False).alias("plain"),
            )
        )
    return pl.concat(found).collect()  # one plan: the rules run side by side


def relations() -> pl.DataFrame:
    """(`priority`, `pos`, `relation`): how a definition through each rule of `morphology` names the
    relation (an exception list's: by its part of speech; 0 also serves adjectives and adverbs)."""
    rows = [(0, tag, "plural of" if pos == "noun" else "form of") for pos, tag in POS.items()]
    rows += [(i, POS[pos], relation) for i, (pos, _, _, relation) in enumerate(RULES, start=1)]
    rows += [(i, POS[pos], relation) for i, (pos, _, relation) in enumerate(DOUBLED, start=len(RULES) + 1)]
    return pl.DataFrame(rows, schema={"priority": pl.Int32, "pos": pl.String, "relation": pl.String}, orient="row")


def morphology(words: pl.Series, exceptions: pl.DataFrame) -> pl.DataFrame:
    """(`lower`, `base`, `pos`, `priority`, `plain`): every base form the rules propose for each of `words`
    (upper case), and every entry of the exception lists (`exceptions`: wordnet.exception_lists) whatever
    the words (_candidates; priority 0 is an exception list's). Stage 2 computes it once, for the lexicon,
    and `lookup_forms` and inflections.inflections read the rows of the words they are given."""
    return _candidates(words.str.to_lowercase().to_frame("lower"), exceptions)


def lookup_forms(words: pl.Series, forms: pl.DataFrame) -> pl.Series:
    """Every lemma wordnet.headwords and inflections.inflections may look up for `words` (upper case), once
    each: each word in lower case and every base form a rule proposes for it (`forms`: morphology() of these
    words or more). A dictionary parsed for these alone defines the same words."""
    lowered = words.str.to_lowercase()
    proposed = forms.filter((pl.col("priority") == 0) | pl.col("lower").is_in(lowered.implode()))
    return pl.concat([lowered.rename("lower"), proposed["base"].drop_nulls()]).unique()


def proposed_bases(words: pl.Series, forms: pl.DataFrame | None = None) -> pl.DataFrame:
    """(`word`, `base`), upper case: every base form RULES and DOUBLED propose for each of `words` (the
    morphology of _candidates without the exception lists, so that it needs no WordNet files: the
    irregular forms they list are of everyday words), and stage 2's derivation suffixes of adjectives (such
    a word is offensive with its base: BITCHILY, SHITTINESS). Not the doubled -es of BUSSES,
    which would make JIZZES a form of JIZ and PISSES of PIS as well. A proposal need not be a word; rows
    in no order. `forms`: morphology() of these words, when the caller has it (its rules' rows are read)."""
    lowered = words.str.to_lowercase().unique().to_frame("lower")  # a frame's unique() holds 3x the memory
    doubled_es = [i for i, (_, suffix, _) in enumerate(DOUBLED, start=len(RULES) + 1) if suffix == "es"]
    lower, n = pl.col("lower"), pl.col("lower").str.len_bytes()
    derived = [
        lowered.lazy()
        .filter(lower.str.ends_with(suffix) & (n > len(suffix) + 2))
        .select("lower", (lower.str.slice(0, n - len(suffix)) + ending).alias("base"))
        # Those of an adjective only: an adverb or a noun of quality keeps its adjective's sense; -less
        # makes a word of its own (TOOLLESS says nothing of TOOL's vulgar sense).
        for suffix, ending in ((suffix.lower(), ending.lower()) for suffix, ending, pos, *_ in SUFFIXES if pos == "adj")
    ]
    if forms is None:
        forms = _candidates(lowered, exception_lists({f"{pos}.exc": b"" for pos in POS}))
    rules = (pl.col("priority") > 0) & ~pl.col("priority").is_in(doubled_es)  # not the exception lists
    proposed = forms.lazy().filter(rules).select("lower", "base")
    # Streamed: the in-memory engine's unique() of two string columns peaked stage 2 (136 -> ~50 MiB here).
    return (
        pl.concat([proposed, *derived])
        .filter(pl.col("base").str.len_bytes() > 0)
        .select(pl.col("lower").str.to_uppercase().alias(Col.word), pl.col("base").str.to_uppercase())
        .unique()
        .collect(engine="streaming")
    )
