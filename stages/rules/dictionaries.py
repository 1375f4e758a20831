"""The dictionaries' definitions for stage 2 (not a stage itself): evidence before order, for the words no
list ahead of the dictionaries (config `definition_sources`) defines.

Reads the still undefined words (`id`, `word`), the dictionaries' senses (name -> (`lemma`, `pos`, `rank`,
`gloss`, and `tagged` where known), in the configured order: WordNet's from stages/sources/wordnet.py,
GCIDE's from stages/sources/gcide.py, a list's own from stages/sources/list_senses.py), the lexicon's
morphology (stages/rules/morphology.py) and its words; gives (`id`, `definition`, `definition_source`) and
notes counting each kind (docs/definitions.md):
1. a dictionary entry whose headword is the word (any dictionary's, before any morphology): `wordnet`,
   `gcide`, or the list's name. An irregular form's base comes first (HELD: `form of HOLD: ... [v] /
   occupied or in the control of [adj]`), and a regular form of a base WordNet knows in that part of
   speech reads through its base (regular_forms_first): then `<source>-inflection`, the base's source
   (but `wordnet` where the form's own WordNet entry leads);
2. an inflection of a verified base (stages/rules/inflections.py): `<source>-inflection`;
3. a derivation by a rule judged at least 95% right (stages/rules/derivations.py), and the inflections
   of derived words (UNSNAPPING from UNSNAP): `<source>-derived`.
"""

from __future__ import annotations

import polars as pl

from pipeline.columns import Col
from pipeline import wording
from stages.rules.derivations import derived_definitions
from stages.rules.inflections import inflections
from stages.sources.wordnet import MAX_CHARS, headwords


def dictionary_definitions(
    lexicon: pl.DataFrame,
    missing: pl.DataFrame,
    dictionaries: dict[str, pl.DataFrame],
    forms: pl.DataFrame,
    names: pl.Series,
    own_first: pl.Series | None = None,
) -> tuple[pl.DataFrame, list[str]]:
    """(`id`, `definition`, `definition_source`) from the dictionaries (name -> (`lemma`, `pos`, `rank`,
    `gloss`), in the configured order) for the words `missing` (`id`, `word`). Evidence before order:
    every dictionary's headwords first, then inflections of verified bases, then derivations (and their
    inflections); an irregular form's base comes before its own senses (HELD: HOLD's first). `forms`: the
    lexicon's morphology.morphology; `names`: the lemmas WordNet writes only with capitals
    (wordnet.proper_lemmas); `own_first`: words whose own sense the reviewed main-sense table puts first (ROSE
    the flower before `form of RISE`): they keep their headword definition as it is."""
    heads, left, notes = _headword_definitions(missing.select(Col.id, Col.word), dictionaries)
    senses = _all_senses(dictionaries)
    kept = heads.filter(
        pl.col(Col.word).is_in((own_first if own_first is not None else pl.Series([], dtype=pl.String)).implode())
    )
    heads = heads.join(kept, on=Col.id, how="anti")
    heads, irregular_note = _irregular_forms_first(heads, senses, forms, lexicon)
    notes.append(irregular_note)
    heads, regular_notes = regular_forms_first(heads, senses, forms, lexicon, names)
    heads = pl.concat([heads, kept])
    notes += regular_notes
    table = left.join(inflections(left[Col.word], senses, forms, lexicon[Col.word], names), on=Col.word).select(
        Col.id, Col.word, Col.definition, (pl.col("source") + "-inflection").alias(Col.definition_source)
    )
    left = left.join(table, on=Col.id, how="anti")
    notes.append(f"inflections of a verified base: {wording.words(table.height)}")
    derived, derived_note = _derivations(left, senses, forms, lexicon)
    notes.append(derived_note)
    return pl.concat([heads, table, *derived]).select(Col.id, Col.definition, Col.definition_source), notes


def _headword_definitions(
    left: pl.DataFrame, dictionaries: dict[str, pl.DataFrame]
) -> tuple[pl.DataFrame, pl.DataFrame, list[str]]:
    """(`id`, `word`, `definition`, `definition_source`) of the words of `left` (`id`, `word`) that are a
    dictionary's headword, the first dictionary's in order; the words left (`id`, `word`); the note."""
    found = []
    for name, lemmas in dictionaries.items():
        table = left.join(headwords(left[Col.word], lemmas), on=Col.word).with_columns(
            pl.lit(name).alias(Col.definition_source)
        )
        found.append(table)
        left = left.join(table, on=Col.id, how="anti")
    heads = pl.concat(found)
    by_source = heads[Col.definition_source].value_counts().sort(Col.definition_source).rows()
    note = f"headwords: {wording.words(heads.height)}" + "".join(f", {s} {n:,}" for s, n in by_source)
    return heads, left, [note]


def _all_senses(dictionaries: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """Every dictionary's senses as one table (`lemma`, `pos`, `rank`, `gloss`, `source`, `tagged`), in order
    of preference (the configured order)."""
    return pl.concat(
        [
            lemmas.select(
                "lemma",
                "pos",
                "rank",
                "gloss",
                pl.lit(name).alias("source"),
                (pl.col("tagged") if "tagged" in lemmas.columns else pl.lit(None)).cast(pl.Int64).alias("tagged"),
            )
            for name, lemmas in dictionaries.items()
        ]
    )


def _irregular_forms_first(
    heads: pl.DataFrame, senses: pl.DataFrame, forms: pl.DataFrame, lexicon: pl.DataFrame
) -> tuple[pl.DataFrame, str]:
    """`heads` (_headword_definitions) with an irregular form's base first: HELD is HOLD's past tense before
    it is an adjective of its own; the note."""
    # Its reading is an exception list's (priority 0), which ranks before every rule's: those need no lookup.
    exceptions = forms.filter(pl.col("priority") == 0)
    firsts = inflections(heads[Col.word], senses, exceptions, lexicon[Col.word]).filter("irregular")
    joined = pl.format("{} / {}", "form", Col.definition)
    heads = (
        heads.join(
            firsts.select(
                Col.word, pl.col(Col.definition).alias("form"), pl.col("source").alias("form_source"), "sense"
            ),
            on=Col.word,
            how="left",
        )
        # A form whose own first sense is its base's (CANDELABRA) says it once.
        .with_columns(
            pl.when(pl.col("form").is_null())
            .then(pl.col(Col.definition))
            .when((joined.str.len_chars() <= MAX_CHARS) & ~pl.col(Col.definition).str.starts_with(pl.col("sense")))
            .then(joined)
            .otherwise("form")
            .alias(Col.definition),
            pl.when(pl.col("form").is_null())
            .then(Col.definition_source)
            .otherwise(pl.col("form_source") + "-inflection")
            .alias(Col.definition_source),
        )
        .drop("form", "form_source", "sense")
    )
    return heads, f"irregular forms shown with their base first: {firsts.height:,}"


def regular_forms_first(
    heads: pl.DataFrame, senses: pl.DataFrame, forms: pl.DataFrame, lexicon: pl.DataFrame, names: pl.Series
) -> tuple[pl.DataFrame, list[str]]:
    """Headword definitions (`id`, `word`, `definition`, `definition_source`) of words that are regular
    forms of a base WordNet knows in the form's part of speech, read through that base first
    (docs/definitions.md): SLOWS is `present tense of SLOW: ...`, not GCIDE's `Milk sickness`. A GCIDE entry
    of such a form is dropped (old, dialect or a coincidence: GIVES `Fetters`, ONES `Once`, KEELS
    `Ninepins`); WordNet's own entry of the form follows the base (JOINED's `married`, HOOKS' `large strong
    hand`), or leads when the corpus tagged the form at least once and at least as often as the base in the
    reading's part of speech (`everyday` of inflections.inflections: CLOTHES, PROFITS). `senses`: every
    dictionary's (`lemma`, `pos`, `rank`, `gloss`, `source`, `tagged`)."""
    joined = _regular_readings(heads, senses, forms, lexicon, names)
    # The own entry's senses are cut to its first when the two do not fit together.
    whole = pl.col(Col.definition)
    first = whole.str.split(" / ").list.first()
    own = pl.when(whole.str.len_chars() + pl.col("form").str.len_chars() + 3 <= MAX_CHARS).then(whole).otherwise(first)
    fits = own.str.len_chars() + pl.col("form").str.len_chars() + 3 <= MAX_CHARS
    tagged = pl.col("own_tagged").fill_null(0)
    own_leads = (pl.col(Col.definition_source) == "wordnet") & (tagged >= pl.col("everyday")) & (tagged >= 1)
    changed = joined.with_columns(
        pl.when(pl.col(Col.definition_source) == "gcide")
        .then("form")
        .when(own_leads)
        .then(pl.when(fits).then(pl.format("{} / {}", own, "form")).otherwise(own))
        .when(fits)
        .then(pl.format("{} / {}", "form", own))
        .otherwise("form")
        .alias(Col.definition),
        pl.when(own_leads)
        .then(Col.definition_source)
        .otherwise(pl.col("form_source") + "-inflection")
        .alias(Col.definition_source),
    ).select(heads.columns)
    notes = [
        "regular forms read through their base: "
        f"{joined.filter(pl.col(Col.definition_source) == 'gcide').height:,} GCIDE entries replaced, "
        f"{joined.filter((pl.col(Col.definition_source) == 'wordnet') & ~own_leads).height:,} WordNet entries "
        f"after the base, {joined.filter(own_leads).height:,} before it"
    ]
    return pl.concat([heads.join(changed, on=Col.id, how="anti"), changed]), notes


def _regular_readings(
    heads: pl.DataFrame, senses: pl.DataFrame, forms: pl.DataFrame, lexicon: pl.DataFrame, names: pl.Series
) -> pl.DataFrame:
    """The rows of `heads` from WordNet or GCIDE that read as a regular form (regular_forms_first), with
    `form` (the reading through the base), `form_source`, `everyday`, `sense`, `guarded` (of
    inflections.inflections) and `own_tagged` (the word's own tagged count in WordNet, null if none)."""
    own_tagged = (
        senses.filter((pl.col("source") == "wordnet") & (pl.col("rank") < 100))
        .group_by("lemma")
        .agg(pl.col("tagged").max().alias("own_tagged"))
        .select(pl.col("lemma").str.to_uppercase().alias(Col.word), "own_tagged")
    )
    wordnet_tags = (
        senses.filter(pl.col("source") == "wordnet")
        .group_by(pl.col("lemma").str.to_uppercase().alias("base"), "pos")
        .agg(pl.col("tagged").max().alias("wordnet_tagged"))
    )
    # Only -s, -d and -ing forms can lead with their base (a comparative never does: inflections.inflections).
    asked = heads.filter(
        pl.col(Col.definition_source).is_in(["wordnet", "gcide"]) & pl.col(Col.word).str.contains(r"(?:S|D|ING)$")
    )
    readings = (
        inflections(asked[Col.word], senses, forms, lexicon[Col.word], names)
        # A base of our own text (the supplement: CLAP, SEW, said by WordNet only in a circle) counts the tags
        # WordNet's senses of it have in that part of speech; one WordNet lacks (BICEP, WILLIE) has none.
        .with_columns(pl.col("sense").str.extract(r"\[([a-z]+)\]$", 1).alias("pos"))
        .join(wordnet_tags, on=["base", "pos"], how="left")
        .with_columns(
            pl.when(pl.col("source") == "supplement")
            .then(pl.coalesce("everyday", "wordnet_tagged"))
            .otherwise("everyday")
            .alias("everyday")
        )
        .filter(~pl.col("irregular") & (pl.col("everyday") >= 0) & pl.col(Col.definition).str.contains(": "))
        .select(
            Col.word,
            pl.col(Col.definition).alias("form"),
            pl.col("source").alias("form_source"),
            "everyday",
            "sense",
            "guarded",
        )
    )
    return (
        asked.join(readings, on=Col.word)
        .join(own_tagged, on=Col.word, how="left")
        # A form WordNet gives its base's own sense is a variant of it, not a form: MATHS is MATH.
        .filter(~pl.col(Col.definition).str.starts_with(pl.col("sense")))
        # SEE's past is SAW: SEED's entry stays. LIED's (a German song, never tagged) follows LIE's past,
        # named without a sense: LIE's first is the one whose past is LAY.
        .filter(
            ~pl.col("guarded")
            | ((pl.col(Col.definition_source) == "wordnet") & (pl.col("own_tagged").fill_null(0) == 0))
        )
        .with_columns(
            pl.when("guarded").then(pl.col("form").str.extract(r"^([^:]*): ", 1)).otherwise("form").alias("form")
        )
    )


def _derivations(
    left: pl.DataFrame, senses: pl.DataFrame, forms: pl.DataFrame, lexicon: pl.DataFrame
) -> tuple[list[pl.DataFrame], str]:
    """The derived words of `left` (`id`, `word`: still undefined) and then the inflections of derived words,
    each (`id`, `word`, `definition`, `definition_source`); the note."""
    bases = (
        senses.filter(pl.col("gloss").str.len_chars() <= MAX_CHARS - 40)
        .with_row_index("preference")
        .select(
            pl.col("lemma").str.to_uppercase().alias("base"),
            pl.col("pos").alias("pos_right"),
            "gloss",
            "source",
            "preference",
        )
    )
    derived = derived_definitions(left, bases, lexicon)
    left = left.join(derived, on=Col.id, how="anti")
    # A derived word's inflections: UNSNAPPING is the present participle of UNSNAP (un- + SNAP).
    derived_lemmas = derived.select(
        pl.col(Col.word).str.to_lowercase().alias("lemma"), "pos", pl.lit(0).alias("rank"), "gloss", "base_source"
    ).rename({"base_source": "source"})
    inflected = left.join(inflections(left[Col.word], derived_lemmas, forms, lexicon[Col.word]), on=Col.word).rename(
        {"source": "base_source"}
    )
    source = (pl.col("base_source") + "-derived").alias(Col.definition_source)
    found = [
        derived.select(Col.id, Col.word, Col.definition, source),
        inflected.select(Col.id, Col.word, Col.definition, source),
    ]
    note = (
        f"derivations by a judged rule: {wording.words(derived.height)}, and {inflected.height:,} of their inflections"
    )
    return found, note
