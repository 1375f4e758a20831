"""Stage 2, definitions: one definition per word, right or absent, and the two offensive levels.

Reads build/01_lexicon.parquet (`id`, `word`, each list's senses: `csw_senses`, `owl_senses`, any
lexicon's `<name>_senses`, and the add-lists' `added_senses`), the supplement file named by
config key `supplement` (NASPA format, ours: function words and common words the dictionaries lack), the
WordNet folder (config `wordnet`, stages/sources/wordnet.py), the GCIDE folder (config `gcide`, stages/sources/gcide.py),
the reviewed offensive list (config `offensive`) and the cuss ratings (config `cuss`; both in
stages/rules/offensive.py).

A definition is one of, for each word (docs/definitions.md):
1. a list's own text, in the order of config `definition_sources` (default csw, owl, supplement, wordnet,
   gcide) between the lists and the dictionaries. A list's senses are rendered joined by ` / `, each with
   its bracket; a link inside a sentence becomes its word (`not {good=adj}` -> `not good`); a sense that
   is only a link (`AM <be=v>`) takes the target's first sense of that part of speech, following a chain
   of links to the first text (`BE, to have actuality [v]`); a run-on form (ADDABLE of ADD) -> `from ADD,
   to combine ... [adj]`. A chain that never reaches a text (a cycle, or longer than MAX_HOPS) or a link
   to a word the list lacks leaves just the linked word; both are counted in the notes.
2. a dictionary entry whose headword is the word (any dictionary's, before any morphology), but a regular
   form of a base WordNet knows in that part of speech reads through its base first (SLOWS `present tense
   of SLOW: ...`; GCIDE's own entry of such a form dropped, WordNet's after the base unless the corpus
   tagged it as often: regular_forms_first);
3. an inflection of a verified base: `past tense of HOLD: ... [v]` (stages/sources/wordnet.py, `inflections`),
   the base's gloss from a dictionary, the supplement or a list whose bracket names inflections, in the
   base's main part of speech, the other following when the corpus tagged it too (LEADS);
4. a derivation by a rule judged at least 95% right (stages/rules/derivations.py), and the
   inflections of derived words (UNSNAPPING from UNSNAP).

Writes build/02_definitions.parquet, one row per word, key `id`:
- id u32, word str
- definition str: null when nothing defines the word
- definition_source str: where it came from and how (null with no definition): `csw`, `owl` (or another
  lexicon's name), `added` (an add-list's own text, docs/lexicons.md),
  `supplement` (a list's own text; `-link` when through a link), `wordnet`, `gcide` (a headword entry),
  `<source>-inflection` (an inflection of that source's word), `<source>-derived` (a derivation from it)
- offensive bool: the word's main use is a slur, obscenity or profanity, its forms included
- vulgar_sense bool: an everyday word that also has a vulgar or slur sense (ASS, COCK); never both
  (stages/rules/offensive.py)
"""

from __future__ import annotations

from collections import Counter

import polars as pl

from pipeline.columns import Col
from pipeline.errors import InputFormatError
from pipeline.schemas import DEFINITIONS
from pipeline.stage import Output, Stage
from stages.sources.gcide import (
    current_firsts as gcide_current,
    glosses as gcide_glosses,
    offensive_lemmas as gcide_offensive,
)
from stages.sources.gcide_dictd import entries as gcide_entries
from stages.rules.derivations import derived_definitions
from stages.rules.offensive import offensive_words
from stages.sources.definition_grammar import QUOTES
from stages.sources.wordlists import read_wordlist, strip_unseen
from stages.sources.wordnet import (
    MAX_CHARS,
    glosses,
    headwords,
    inflections,
    lookup_forms,
    morphology,
    proper_lemmas,
    senses,
)

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


def regular_forms_first(
    heads: pl.DataFrame, senses: pl.DataFrame, forms: pl.DataFrame, lexicon: pl.DataFrame, names: pl.Series
) -> tuple[pl.DataFrame, list[str]]:
    """Headword definitions (`id`, `word`, `definition`, `definition_source`) of words that are regular
    forms of a base WordNet knows in the form's part of speech, read through that base first
    (docs/definitions.md): SLOWS is `present tense of SLOW: ...`, not GCIDE's `Milk sickness`. A GCIDE entry
    of such a form is dropped (old, dialect or a coincidence: GIVES `Fetters`, ONES `Once`, KEELS
    `Ninepins`); WordNet's own entry of the form follows the base (JOINED's `married`, HOOKS' `large strong
    hand`), or leads when the corpus tagged the form at least once and at least as often as the base in the
    reading's part of speech (`everyday` of wordnet.inflections: CLOTHES, PROFITS). `senses`: every
    dictionary's (`lemma`, `pos`, `rank`, `gloss`, `source`, `tagged`)."""
    own_tagged = (
        senses.filter((pl.col("source") == "wordnet") & (pl.col("rank") < 100))
        .group_by("lemma")
        .agg(pl.col("tagged").max().alias("own_tagged"))
        .select(pl.col("lemma").str.to_uppercase().alias(Col.word), "own_tagged")
    )
    # Only -s, -d and -ing forms can lead with their base (a comparative never does: wordnet.inflections).
    asked = heads.filter(
        pl.col(Col.definition_source).is_in(["wordnet", "gcide"]) & pl.col(Col.word).str.contains(r"(?:S|D|ING)$")
    )
    readings = (
        inflections(asked[Col.word], senses, forms, lexicon[Col.word], names)
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
    joined = (
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


def dictionary_definitions(
    lexicon: pl.DataFrame,
    missing: pl.DataFrame,
    dictionaries: dict[str, pl.DataFrame],
    forms: pl.DataFrame,
    names: pl.Series,
) -> tuple[pl.DataFrame, list[str]]:
    """(`id`, `definition`, `definition_source`) from the dictionaries (name -> (`lemma`, `pos`, `rank`,
    `gloss`), in the configured order) for the words `missing` (`id`, `word`). Evidence before order:
    every dictionary's headwords first, then inflections of verified bases, then derivations (and their
    inflections); an irregular form's base comes before its own senses (HELD: HOLD's first). `forms`: the
    lexicon's wordnet.morphology; `names`: the lemmas WordNet writes only with capitals (wordnet.proper_lemmas)."""
    found, notes = [], []
    left = missing.select(Col.id, Col.word)
    for name, lemmas in dictionaries.items():
        table = left.join(headwords(left[Col.word], lemmas), on=Col.word).with_columns(
            pl.lit(name).alias(Col.definition_source)
        )
        found.append(table)
        left = left.join(table, on=Col.id, how="anti")
    heads = pl.concat(found)
    notes.append(
        f"headwords: {heads.height:,} words, "
        + ", ".join(
            f"{s} {n:,}" for s, n in heads[Col.definition_source].value_counts().sort(Col.definition_source).rows()
        )
    )
    # Every dictionary's senses as one table, in order of preference (the configured order).
    senses = pl.concat(
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
    # An irregular form's base first: HELD is HOLD's past tense before it is an adjective of its own. Its
    # reading is an exception list's (priority 0), which ranks before every rule's: those need no lookup.
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
    notes.append(f"irregular forms shown with their base first: {firsts.height:,}")
    heads, regular_notes = regular_forms_first(heads, senses, forms, lexicon, names)
    notes += regular_notes
    table = left.join(inflections(left[Col.word], senses, forms, lexicon[Col.word], names), on=Col.word).select(
        Col.id, Col.word, Col.definition, (pl.col("source") + "-inflection").alias(Col.definition_source)
    )
    left = left.join(table, on=Col.id, how="anti")
    found = [heads, table]
    notes.append(f"inflections of a verified base: {table.height:,} words")
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
    found.append(
        derived.select(
            Col.id, Col.word, Col.definition, (pl.col("base_source") + "-derived").alias(Col.definition_source)
        )
    )
    found.append(
        inflected.select(
            Col.id, Col.word, Col.definition, (pl.col("base_source") + "-derived").alias(Col.definition_source)
        )
    )
    notes.append(
        f"derivations by a judged rule: {derived.height:,} words, and {inflected.height:,} of their inflections"
    )
    return pl.concat(found).select(Col.id, Col.definition, Col.definition_source), notes


def gcide_flags(dictionary: pl.DataFrame, lexicon: pl.DataFrame) -> pl.Series:
    """The lexicon's words (lower case) GCIDE's entries (gcide_dictd.entries) label offensive."""
    own = lexicon.select(pl.col(Col.word).str.to_lowercase().alias("lemma"))
    return gcide_offensive(dictionary.join(own, on="lemma", how="semi", maintain_order="left"))


def build_definitions(
    lexicon: pl.DataFrame,
    wordnet: dict[str, bytes],
    supplement: dict[str, bytes],
    definition_sources: list[str],
    gcide: dict[str, bytes] | None = None,
    offensive: dict[str, bytes] | None = None,
    cuss: dict[str, bytes] | None = None,
) -> dict:
    notes, candidates = [], []
    if "gcide" in definition_sources and not gcide:
        raise InputFormatError("definition_sources names gcide, but no GCIDE files were given")
    flagged = None  # the lemmas GCIDE labels offensive, read with its glosses
    wordnet_senses = senses(wordnet)
    # The configured order decides between a list's own text and a dictionary's; the dictionaries are asked
    # about the words no list before the first of them defines.
    order = {source: rank for rank, source in enumerate(definition_sources)}
    first_dictionary = min([order[s] for s in ("wordnet", "gcide") if s in order], default=len(order))
    missing = lexicon
    dictionaries = {}  # name -> (`lemma`, `pos`, `rank`, `gloss`), in the configured order
    for source in (s for s in definition_sources if s not in ("wordnet", "gcide")):
        if source == "supplement":
            table, problems, dictionaries[source] = supplement_definitions(lexicon, supplement)
        else:
            table, problems, dictionaries[source] = list_definitions(lexicon, f"{source}_senses", source)
        notes += [f"{source}: {n:,} {what}" for what, n in sorted(problems.items())]
        candidates.append(table)
        if order[source] < first_dictionary:
            missing = missing.join(table.select(Col.id), on=Col.id, how="anti")
    names = proper_lemmas(wordnet, wordnet_senses)
    forms = morphology(lexicon[Col.word], wordnet)  # every word's proposed base forms, read by each lookup
    dictionary = gcide_entries(gcide) if "gcide" in definition_sources else None
    for source in (s for s in definition_sources if s in ("wordnet", "gcide")):
        if source == "wordnet":
            # Where the corpus tagged none of a lemma's senses, GCIDE's first current sense says which leads
            # (wordnet.agreeing_senses); asked only about the lemmas the words can be looked up by.
            other = None
            if dictionary is not None:
                untagged = wordnet_senses.filter((pl.col("tagged") == 0) & (pl.len().over("lemma", "pos") > 1))[
                    "lemma"
                ].unique()
                looked_up = lookup_forms(missing[Col.word], forms)
                other = gcide_current(dictionary, looked_up.filter(looked_up.is_in(untagged.implode())))
            dictionaries[source] = glosses(wordnet, wordnet_senses, other)
        else:
            # GCIDE glosses are cleaned only for the lemmas the still undefined words can be looked up by;
            # a lemma WordNet writes only with capitals is a proper noun or an acronym (BERMUDAS, SAM).
            wanted = lookup_forms(missing[Col.word], forms)
            wanted = wanted.filter(~wanted.is_in(names.implode()))
            dictionaries[source] = gcide_glosses(dictionary, wanted)
            flagged = gcide_flags(dictionary, lexicon)
    del dictionary  # the decompressed file (40 MB for raw/) goes
    if dictionaries:
        table, dictionary_notes = dictionary_definitions(
            lexicon, missing.select(Col.id, Col.word), dictionaries, forms, names
        )
        notes += dictionary_notes
        candidates.append(table)
    root = pl.col(Col.definition_source).str.replace(r"-(?:link|inflection|derived)$", "")
    best = (
        pl.concat(candidates)
        .with_columns(root.replace_strict(order, return_dtype=pl.Int32).alias("rank"))
        .sort("rank", maintain_order=True)
        .unique(Col.id, keep="first")
        .drop("rank")
    )
    if gcide and flagged is None:  # GCIDE given for its labels alone
        flagged = gcide_flags(gcide_entries(gcide), lexicon)
    flags, offensive_notes = offensive_words(lexicon, wordnet, flagged, offensive, wordnet_senses, cuss, forms)
    # The dictionaries' text is data like the lists' (stage 1 cleans theirs): no control or invisible
    # character reaches the export from WordNet or GCIDE either.
    best = best.with_columns(strip_unseen(pl.col(Col.definition)).alias("clean"))
    unseen = best.filter(pl.col("clean") != pl.col(Col.definition)).height
    notes.append(f"control or invisible characters removed from {unseen:,} definitions")
    best = best.with_columns(pl.col("clean").replace("", None).alias(Col.definition)).drop("clean")
    best = best.with_columns(
        pl.when(pl.col(Col.definition).is_not_null()).then(Col.definition_source).alias(Col.definition_source)
    )
    table = (
        lexicon.select(Col.id, Col.word)
        .join(best, on=Col.id, how="left")
        .sort(Col.id)
        .with_columns(flags.get_columns())
        .select(list(DEFINITIONS))
    )
    have = table[Col.definition].is_not_null().sum()
    per_source = table[Col.definition_source].drop_nulls().value_counts().sort(Col.definition_source).rows()
    notes.insert(
        0,
        f"definitions for {have:,} of {table.height:,} words ({have / max(table.height, 1):.1%}): "
        + ", ".join(f"{s} {n:,}" for s, n in per_source),
    )
    return {"definitions": table, "notes": notes + offensive_notes}


STAGE = Stage(
    number=2,
    name="definitions",
    transform=build_definitions,
    reads=("lexicon",),  # not a column: stage 1's output
    raw=("wordnet", "gcide", "supplement", "offensive", "cuss"),  # not a column: raw inputs
    settings=("definition_sources",),
    helpers=(
        "stages.rules.derivations",
        "stages.sources.gcide",
        "stages.sources.gcide_dictd",
        "stages.sources.gcide_text",
        "stages.rules.offensive",
        "stages.sources.wordlists",
        "stages.sources.definition_grammar",
        "stages.sources.wordnet",
    ),
    writes={"definitions": Output("02_definitions.parquet", DEFINITIONS)},
)
