"""Inflections for stage 2 (not a stage itself): a word defined as a form of a verified base.

Reads a word's proposed bases (stages/rules/morphology.py: the exception lists, MICE -> mouse, HELD ->
hold, and the suffix rules) and the dictionaries' senses (`lemma`, `pos`, `rank`, `gloss`, `source`,
`tagged`). A base is verified when it is a word of the lexicon of 3+ letters, an exception list's entry
(of 2+ letters, 2 only when a word of the lexicon), or a 2-letter word of the lexicon reached by a plain
suffix that has no forms in the exception lists (ADS -> AD; not BES -> BE); never one letter. The base has
the part of speech the inflection implies in the dictionary that defines it (plural: noun; past tense:
verb; comparative: adjective), and its gloss keeps its own tag: `plural of SILVER: a soft white ... [n]`;
a plural by a suffix rule may also have a base of 3+ letters known only in another part of speech, shown
without its gloss (`plural of PLENARY`). An irregular form's base comes before the form's own senses (stages/rules/dictionaries.py puts it
there): HELD is `form of HOLD: ... [v] / occupied or in the control of [adj]`.

`inflections` gives (`word`, `definition`, `source`, `irregular`, `base`, `sense`, `everyday`, `guarded`),
one row per word that is such a form; its steps: the proposals that verify (_verified), those a rule of
English spelling allows (_plausible), the readings in order of evidence (_ranked) and the text shown
(_shown). Glosses are kept to wordnet.MAX_CHARS - 40 so that a definition fits in wordnet.MAX_CHARS; only
a second reading is checked (it is shown when the two fit).
"""

from __future__ import annotations

import polars as pl

from pipeline.columns import Col
from stages.rules.morphology import CLASSICAL, RULES, relations
from stages.sources.wordnet import MAX_CHARS

# Rules whose base may be a word the dictionary knows only in another part of speech: the form is
# then shown without a gloss (`plural of PLENARY`, judged right 20 times of 20), never with the other
# part of speech's sense. Not -ed/-ing of a noun (14 of 16 and 17 of 18 right: BUCKTOOTHED and APANAGED
# are adjectives, having buckteeth or an apanage), nor -er/-est (LIBELLER is no comparative), nor -s/-es
# of a verb (SAVANTES is SAVANTE's plural, not `present tense of SAVANT`).
UNTYPED = ("plural of",)
# A second reading of a form (LEADS: `present tense of LEAD ... / plural of LEAD ...`) is shown when the
# corpus tagged that part of speech of the base at least this many times: BEARS is the animal as well
# (BEAR's noun tagged once), SELLS only the verb (SELL's noun never tagged).
EVERYDAY_SECOND = 1

BASE_SIZE = pl.col("base").str.len_chars()
GRADED = pl.col("relation").is_in(["comparative of", "superlative of"])


def inflections(
    words: pl.Series,
    lemmas: pl.DataFrame,
    forms: pl.DataFrame,
    lexicon: pl.Series,
    names: pl.Series | None = None,
) -> pl.DataFrame:
    """(`word`, `definition`, `source`, `irregular`, `base`, `sense`, `everyday`, `guarded`) for each of `words` (upper
    case) that is an inflection of a verified base (module docstring) that `lemmas` (`lemma`, `pos`, `rank`,
    `gloss`, `source`, and `tagged` where known: the dictionaries' senses, in order of preference) defines
    (`forms`: the rows of morphology.morphology() to read, for these words or more): `past tense of HOLD: ... [v]`
    when in the part of speech the inflection implies; else, for the plain rules of UNTYPED only,
    `past tense of DOLL`. Of several readings: one with a gloss first, then the base the rules rank first,
    then the dictionary's order, then the base's main part of speech (SELLS: `present tense of SELL`, the
    corpus tagged SELL as a verb, never as a noun). A second reading of the same base in another part of
    speech the corpus tagged at least EVERYDAY_SECOND times follows (LEADS: the verb, then the noun).
    `lexicon`: every word of the lexicon (upper case); `irregular`: the form is an exception list's; `base`
    the base (upper case), `sense` its gloss and tag (null when not shown); `everyday`: the tagged count of
    the first reading's base in its part of speech (null when not WordNet's), -1 for a comparative or a
    Latin or Greek plural (it never leads over a dictionary's own entry for the form: COMMA is no plural of
    COMMON); `guarded`: a regular past tense of a verb the
    exception lists give a past and a participle of its own (it leads only over an entry the corpus never
    tagged: SEED is no `past tense of SEE`, LIED no German song). `names`: wordnet.proper_lemmas;
    such a word is no comparative (NORTHERNER, HIGHLANDER, ACER are nouns that WordNet writes with a
    capital); nor is a word whose base has three syllables or more (INTIMATER, ENAMELLER, NEANDERTALER)."""
    senses = _base_senses(lemmas)
    proposed = _plausible(_verified(words, senses, forms, lexicon), names)
    return _shown(_ranked(proposed, senses), _irregular_verbs(forms))


def readings(
    words: pl.Series, lemmas: pl.DataFrame, forms: pl.DataFrame, lexicon: pl.Series, names: pl.Series
) -> pl.DataFrame:
    """(`word`, `base`, `pos`, `relation`): every reading of each of `words` (upper case) as a form of a verified
    base that English allows (the readings `inflections` chooses among), in the part of speech of the base
    that `lemmas` (`lemma`, `pos`, `rank`, `gloss`) knows it in; `base` lower case. The candidates a reviewer
    of the main-sense table chooses among for a form (stages/rules/main_senses.py)."""
    lemmas = lemmas.with_columns(pl.lit(0).alias("rank"), pl.lit("any").alias("source"))
    found = _plausible(_verified(words, _base_senses(lemmas), forms, lexicon), names)
    return (
        found.filter(pl.col("gloss").is_not_null())
        .select(pl.col("lower").str.to_uppercase().alias(Col.word), "base", "pos", "relation")
        .unique(maintain_order=True)
    )


def _base_senses(lemmas: pl.DataFrame) -> pl.DataFrame:
    """(`base`, `pos`, `gloss`, `source`, `preference`, `pos_rank`, `tagged`): the senses of `lemmas` a
    form may read through, `preference` their order in `lemmas`."""
    tagged = pl.col("tagged") if "tagged" in lemmas.columns else pl.lit(None, pl.Int64)
    return (
        lemmas.with_columns(pl.int_range(pl.len()).alias("preference"))
        # A labelled sense shown after the others (rank 100 on, wordnet.glosses) is no base's reading, nor
        # is a sense that is itself a form's (the supplement's AMUS `plural of AMU`: AMUSES is AMUSE's).
        .filter(
            (pl.col("gloss").str.len_chars() <= MAX_CHARS - 40)
            & (pl.col("rank") < 100)
            & ~pl.col("gloss").str.contains(r"^(?:plural|past tense|present tense|present participle) of ")
        )
        .select(
            pl.col("lemma").alias("base"),
            "pos",
            "gloss",
            "source",
            "preference",
            pl.col("rank").alias("pos_rank"),
            tagged.alias("tagged"),
        )
    )


def _verified(words: pl.Series, senses: pl.DataFrame, forms: pl.DataFrame, lexicon: pl.Series) -> pl.DataFrame:
    """The rows of `forms` for `words` whose base is verified (module docstring) and a lemma of `senses`
    (_base_senses), each joined to every sense of its base in the rule's part of speech (`gloss` null
    when the base has none there) and to the `relation` it reads by."""
    lowered = words.str.to_lowercase().to_frame("lower")
    known = lexicon.str.to_lowercase().to_frame("base").with_columns(pl.lit(True).alias("in_lexicon"))
    # A 2-letter base with forms of its own in the exception lists is irregular: BE's present is IS, not BES.
    irregular = (
        forms.filter(pl.col("priority") == 0).select("base").unique().with_columns(pl.lit(True).alias("has_exceptions"))
    )
    plurals = forms.filter((pl.col("priority") == 0) & (pl.col("pos") == "n") & (pl.col("base") != pl.col("lower")))
    plurals = plurals["base"].unique()
    verified = (
        (pl.col("base") != pl.col("lower"))
        & (BASE_SIZE >= 2)
        & pl.when(pl.col("priority") == 0)
        .then((BASE_SIZE >= 3) | pl.col("in_lexicon"))
        .when(BASE_SIZE >= 3)
        .then(pl.col("in_lexicon"))
        .otherwise(pl.col("in_lexicon") & pl.col("plain") & ~pl.col("has_exceptions"))
    )
    return (
        forms
        # Most proposed bases are not lemmas (581k proposals, 84k lemmas for raw/): drop those first.
        .join(senses.select("base").unique(), on="base", maintain_order="left")
        .join(lowered, on="lower", maintain_order="left")
        .join(known, on="base", how="left")
        .join(irregular, on="base", how="left")
        .with_columns(pl.col("in_lexicon", "has_exceptions").fill_null(False))
        .filter(verified)
        .join(relations(), on=["priority", "pos"], maintain_order="left")
        .join(senses, on=["base", "pos"], how="left", maintain_order="left")
        # A base the exception lists give another plural has no regular one that is a word of its own:
        # GENUS is no plural of GENU (GENUA); BROTHERS, no lemma, stays BROTHER's beside BRETHREN.
        .filter(
            ~(
                (pl.col("priority") > 0)
                & (pl.col("relation") == "plural of")
                & pl.col("base").is_in(plurals.implode())
                & pl.col("lower").is_in(senses["base"].implode())
            )
        )
        # An exception list does not say which form it lists; the ending does (LYING, FATTER, BEST).
        .with_columns(
            pl.when(pl.col("priority") > 0)
            .then("relation")
            .when((pl.col("pos") == "v") & pl.col("lower").str.ends_with("ing"))
            .then(pl.lit("present participle of"))
            .when(pl.col("pos").is_in(["adj", "adv"]) & pl.col("lower").str.ends_with("er"))
            .then(pl.lit("comparative of"))
            .when(pl.col("pos").is_in(["adj", "adv"]) & pl.col("lower").str.ends_with("est"))
            .then(pl.lit("superlative of"))
            .otherwise("relation")
            .alias("relation")
        )
    )


def _plausible(proposed: pl.DataFrame, names: pl.Series | None) -> pl.DataFrame:
    """The rows of `proposed` (_verified) that English spelling and word formation allow."""
    # A one-syllable base ending consonant-vowel-consonant doubles it before -ed, -ing, -er, -est (CAP:
    # CAPPED): CAPED, RAPED, DINED are no forms of CAP, RAP, DIN. Not after c, s, w, x, y (ARCED, BUSED).
    doubles = pl.col("base").str.contains(r"^[^aeiouy]*[aeiouy][^aeiouycswx]$") & pl.col("lower").str.contains(
        r"(?:ed|ing|er|est)$"
    )
    proposed = proposed.filter(~(doubles & pl.col("plain") & (pl.col("priority") > 0)))
    # A base ending in a sibilant takes -es, never a bare -s: PUSS is no plural of PUS, nor HISS a form of HIS.
    # Not -ch, which says k as often (EPOCHS, MONARCHS, STOMACHS).
    bare_s = (pl.col("priority") > 0) & pl.col("plain") & (pl.col("lower") == pl.col("base") + "s")
    proposed = proposed.filter(~(bare_s & pl.col("base").str.contains(r"(?:s|x|z|sh)$")))
    if names is not None:
        proposed = proposed.filter(~(GRADED & pl.col("lower").is_in(names.implode())))
    # -er and -est make comparatives of words of one or two syllables (a final silent e not counted).
    syllables = pl.col("base").str.count_matches("[aeiouy]+") - pl.col("base").str.contains("[^aeiouyl]e$").cast(
        pl.UInt32
    )
    # (Of a -y adjective, more: UNSTEADIER, WATERIER.)
    proposed = proposed.filter(
        ~(GRADED & (pl.col("priority") > 0) & (syllables > 2) & ~pl.col("base").str.ends_with("y"))
    )
    # A word in -ics may name a field or a language (RABBINICS, a singular noun): no plural of an -ic noun
    # that GCIDE defines as a language, science, art, study, doctrine, theory or practice (`Rabbinic: The
    # language or dialect of the rabbins`); EXOTICS, TYMPANICS and CRITICS are plurals.
    uncountable = (pl.col("source") == "gcide") & pl.col("gloss").str.contains(
        r"^The (?:language|science|art|study|doctrine|theory|practice)\b"
    )
    return proposed.filter(
        ~((pl.col("relation") == "plural of") & pl.col("lower").str.ends_with("ics") & uncountable).fill_null(False)
    )


def _irregular_verbs(forms: pl.DataFrame) -> pl.Series:
    """The bases to which the exception lists give both a past and a participle of their own (SEE: saw,
    seen; not BARREL's barrelled, SEW's sewn nor BURN's burnt): they have no regular past that leads (SEED)."""
    own_past = (
        pl.col("lower").str.contains(r"^[a-z]+[^s]$")  # not CO-ORDINATED, nor a present tense
        & ~pl.col("lower").str.ends_with("ing")
        & (pl.col("lower") != pl.col("base") + pl.col("base").str.slice(-1) + "ed")
    )
    return (
        forms.filter(
            (pl.col("priority") == 0) & (pl.col("pos") == "v") & own_past & ~pl.col("lower").str.ends_with("t")
        )
        .group_by("base")
        .agg(pl.col("lower").n_unique().alias("forms"))
        .filter(pl.col("forms") >= 2)["base"]
    )


def _ranked(proposed: pl.DataFrame, senses: pl.DataFrame) -> pl.DataFrame:
    """The readings of `proposed` (_plausible) that can be shown, each word's best first (the order of
    `inflections`' docstring), with `source` the base's dictionary."""
    # A bare reading needs a base 3+ letters long that a dictionary knows (in another part of speech).
    untyped = (
        pl.col("gloss").is_null() & pl.col("relation").is_in(UNTYPED) & (pl.col("priority") > 0) & (BASE_SIZE >= 3)
    )
    return (
        proposed.filter(pl.col("gloss").is_not_null() | untyped)
        .join(senses.group_by("base").agg(pl.col("source").first().alias("known_in")), on="base", how="left")
        .with_columns(pl.coalesce("source", "known_in").alias("source"))
        .with_columns(
            pl.col("priority").min().over("lower", "base", pl.col("gloss").is_null()).alias("base_priority"),
            pl.col("preference").min().over("source").alias("source_order"),
            # A base the corpus saw in the reading's part of speech before one it never did: SKIES is SKY's,
            # SOLES SOLE's, IMAGINES IMAGINE's (noun.exc has them of SKI, SOL, IMAGO), SWINGING SWING's.
            (pl.col("tagged").max().over("lower", "base").fill_null(0) < 1).alias("rare_base"),
        )
        # Stable: of two readings with one priority (GASSES in noun.exc and verb.exc), the first listed wins.
        .sort(
            pl.col("gloss").is_null(),
            "rare_base",
            "base_priority",
            "source_order",
            "pos_rank",
            "priority",
            "preference",
            "lower",
            maintain_order=True,
            nulls_last=True,
        )
    )


def _shown(readings: pl.DataFrame, irregular_verbs: pl.Series) -> pl.DataFrame:
    """`inflections`' table from the ranked `readings` (_ranked): each word's first reading, and a second
    of the same base in another part of speech the corpus tagged (EVERYDAY_SECOND) when both fit."""
    found = readings.unique("lower", keep="first", maintain_order=True)
    base = pl.col("base").str.to_uppercase()
    shown = pl.format("{} {}: {} [{}]", "relation", base, "gloss", "pos")
    second = (
        readings.join(
            found.select("lower", "base", "source", pl.col("pos").alias("first_pos")), on=["lower", "base", "source"]
        )
        .filter(
            (pl.col("pos") != pl.col("first_pos"))
            & pl.col("gloss").is_not_null()
            & (pl.col("tagged") >= EVERYDAY_SECOND)
            & (pl.col("priority") > 0)
        )
        .unique("lower", keep="first", maintain_order=True)
        .select("lower", shown.alias("second"))
    )
    # Nor a Latin or Greek plural: BATTALIA is no plural of BATTALION.
    classical = [i for i, (_, suffix, ending, _) in enumerate(RULES, start=1) if (suffix, ending) in CLASSICAL]
    exceptional = (pl.col("relation") == "past tense of") & pl.col("base").is_in(irregular_verbs.implode())
    return (
        found.join(second, on="lower", how="left")
        .with_columns(
            pl.when(pl.col("gloss").is_null())
            .then(pl.format("{} {}", "relation", base))
            .otherwise(shown)
            .alias("first")
        )
        .select(
            pl.col("lower").str.to_uppercase().alias(Col.word),
            pl.when(
                pl.col("second").is_not_null()
                & (pl.col("first").str.len_chars() + pl.col("second").str.len_chars() + 3 <= MAX_CHARS)
            )
            .then(pl.format("{} / {}", "first", "second"))
            .otherwise("first")
            .alias(Col.definition),
            "source",
            (pl.col("priority") == 0).alias("irregular"),
            base,
            pl.format("{} [{}]", "gloss", "pos").alias("sense"),
            pl.when(GRADED | pl.col("priority").is_in(classical)).then(-1).otherwise("tagged").alias("everyday"),
            exceptional.alias("guarded"),
        )
    )
