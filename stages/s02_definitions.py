"""Stage 2, definitions: one definition per word, right or absent, and the two offensive levels.

Reads build/01_lexicon.parquet (`id`, `word`, each list's senses: `csw_senses`, `owl_senses`, any
lexicon's `<name>_senses`, and the add-lists' `added_senses`), stage 0's tables of the dictionaries
(build/00_*.parquet, stages/s00_dictionaries.py: WordNet's senses, their usage domains, its proper lemmas and
exception lists, GCIDE's entries, the reviewed main-sense table as read), the supplement file named by config
key `supplement` (NASPA format, ours: function words and common words the dictionaries lack), the reviewed
offensive list (config `offensive`) and the cuss ratings (config `cuss`; both in stages/rules/offensive.py).
This stage is the join of the dictionaries with the words: what needs no word list is stage 0's, read once
and kept while WordNet and GCIDE are unchanged. The main-sense table says which sense of a word leads
(stages/sources/main_senses.py); its keys are checked by stages/rules/main_senses.py and applied before any
rule: a word's own WordNet sense by stages/sources/wordnet_order.py, a base's sense a form reads and GCIDE's
sense by stages/rules/main_senses.py (`forms_as_chosen`, `chosen_texts`). `build_definitions` runs stages 0 and 2 in one call from
the raw files (for tests and scripts).

A definition is one of, for each word (docs/definitions.md):
1. a list's own text, in the order of config `definition_sources` (default csw, owl, supplement, wordnet,
   gcide) between the lists and the dictionaries. A list's senses are rendered joined by ` / `, each with
   its bracket; a link inside a sentence becomes its word (`not {good=adj}` -> `not good`); a sense that
   is only a link (`AM <be=v>`) takes the target's first sense of that part of speech, following a chain
   of links to the first text (`BE, to have actuality [v]`); a run-on form (ADDABLE of ADD) -> `from ADD,
   to combine ... [adj]`. A chain that never reaches a text (a cycle, or longer than MAX_HOPS) or a link
   to a word the list lacks leaves just the linked word; both are counted in the notes
   (stages/sources/list_senses.py).
2. a dictionary entry whose headword is the word (any dictionary's, before any morphology), but a regular
   form of a base WordNet knows in that part of speech reads through its base first (SLOWS `present tense
   of SLOW: ...`; GCIDE's own entry of such a form dropped, WordNet's after the base unless the corpus
   tagged it as often: regular_forms_first);
3. an inflection of a verified base: `past tense of JOIN: ... [v]` (an irregular form: `form of HOLD: ...`) (stages/rules/inflections.py),
   the base's gloss from a dictionary, the supplement or a list whose bracket names inflections, in the
   base's main part of speech, the other following when the corpus tagged it too (LEADS);
4. a derivation by a rule judged at least 95% right (stages/rules/derivations.py), and the
   inflections of derived words (UNSNAPPING from UNSNAP).
2 to 4 are stages/rules/dictionaries.py's, asked about the words no list before the first dictionary in
config `definition_sources` defines; every word's proposed bases are stages/rules/morphology.py's.

Writes build/02_definitions.parquet, one row per word, key `id`:
- id u32, word str
- definition str: null when nothing defines the word
- definition_source str: where it came from and how (null with no definition): `csw`, `owl` (or another
  lexicon's name), `added` (an add-list's own text, docs/lexicons.md),
  `supplement` (a list's own text; `-link` when through a link or a run-on form's head), `wordnet`, `gcide` (a headword entry),
  `<source>-inflection` (an inflection of that source's word), `<source>-derived` (a derivation from it)
- offensive bool: the word's main use is a slur, obscenity or profanity, its forms included
- vulgar_sense bool: an everyday word that also has a vulgar or slur sense (ASS, COCK); never both
  (stages/rules/offensive.py)

A language build (definition_sources naming `freedict`, or no WordNet): each word's definition is its FreeDict
dictionary's English gloss (config `freedict`, stages/sources/freedict.py; headwords folded into config
`language`'s alphabet), shown as a translation (`(English) duck`), definition_source `freedict-<xxx>-eng`;
no other source, and no offensive flags.
"""

from __future__ import annotations

import polars as pl

from pipeline.alphabet import TABLE as ALPHABETS
from pipeline.columns import Col
from pipeline.errors import InputFormatError
from pipeline.schemas import DEFINITIONS
from pipeline.stage import Output, Stage
from pipeline.wording import counted, words
from stages.rules.dictionaries import dictionary_definitions
from stages.rules.main_senses import candidates, chosen_texts, forms_as_chosen, gcide_resolved, resolved
from stages.rules.morphology import lookup_forms, morphology
from stages.rules.offensive import offensive_words
from stages.sources.dictionary_files import read_dictionaries
from stages.sources.gcide import (
    current_firsts as gcide_current,
    glosses as gcide_glosses,
    offensive_lemmas as gcide_offensive,
)
from stages.sources.freedict import source_name as freedict_name, translations
from stages.sources.list_senses import list_definitions, supplement_definitions
from stages.sources.wordlists import strip_unseen
from stages.sources.wordnet import MAX_CHARS, glosses, headwords


def join_definitions(
    lexicon: pl.DataFrame,
    wordnet_senses: pl.DataFrame,
    wordnet_domains: pl.DataFrame,
    wordnet_names: pl.DataFrame,
    wordnet_exceptions: pl.DataFrame,
    gcide_entries: pl.DataFrame,
    main_senses: pl.DataFrame,
    supplement: dict[str, bytes],
    definition_sources: list[str],
    offensive: dict[str, bytes] | None = None,
    cuss: dict[str, bytes] | None = None,
    freedict: dict[str, bytes] | None = None,
    language: str = "en",
) -> dict:
    """The stage (module docstring): {"definitions": the table, "notes": the counts of each source and kind}."""
    if "freedict" in definition_sources or not wordnet_senses.height:  # a language build: no English rules
        return _translated(lexicon, freedict if "freedict" in definition_sources else {}, language)
    if "gcide" in definition_sources and not gcide_entries.height:
        raise InputFormatError("definition_sources names gcide, but stage 0 read no GCIDE entries (config gcide)")
    # The configured order decides between a list's own text and a dictionary's.
    order = {source: rank for rank, source in enumerate(definition_sources)}
    candidates, dictionaries, missing, notes = _lists_own_definitions(lexicon, supplement, definition_sources, order)
    lexicon, missing = lexicon.select(Col.id, Col.word), missing.select(Col.id, Col.word)  # the lists' senses read
    names = wordnet_names["lemma"]
    forms = morphology(lexicon[Col.word], wordnet_exceptions)  # every word's proposed base forms, read by each lookup
    chosen, chosen_note = _main_senses(main_senses, wordnet_senses, forms, lexicon, names)
    dictionary = gcide_entries if "gcide" in definition_sources else None
    for source in (s for s in definition_sources if s in ("wordnet", "gcide")):
        if source == "wordnet":
            # A lemma's senses lead by its own word's choice: HAILS `hails from` must not move HAIL's.
            own = chosen.filter(pl.col("lemma") == pl.col(Col.word).str.to_lowercase())
            dictionaries[source] = _wordnet_glosses(
                wordnet_senses, wordnet_domains, dictionary, missing[Col.word], forms, own
            )
        else:
            dictionaries[source] = _gcide_glosses(gcide_entries, missing[Col.word], forms, names)
    # GCIDE's labels are read with its glosses or for themselves alone; then its entries go (59 MB on raw/).
    flagged = gcide_flags(gcide_entries, lexicon) if gcide_entries.height else None
    del gcide_entries, dictionary
    dictionaries, from_gcide, gcide_note = _gcide_chosen(dictionaries, main_senses, lexicon)
    del main_senses
    notes.append(gcide_note)
    if dictionaries:
        table, dictionary_notes = dictionary_definitions(
            lexicon,
            missing,
            dictionaries,
            forms,
            names,
            chosen.filter(pl.col("lemma") == pl.col(Col.word).str.to_lowercase())[Col.word],
        )
        notes += dictionary_notes
        candidates.append(table)
        del table
    best = _first_by_order(candidates, order).join(lexicon.select(Col.id, Col.word), on=Col.id)
    del candidates, dictionaries, missing  # every source's table and glosses: only the best of each word is kept
    best, led = forms_as_chosen(best, chosen, MAX_CHARS)
    notes.append(f"main-sense table: {words(led)} led by their base's chosen sense")
    best = chosen_texts(best, from_gcide, "gcide").drop(Col.word)
    flags, offensive_notes = offensive_words(lexicon, wordnet_domains, flagged, offensive, wordnet_senses, cuss, forms)
    best, unseen_note = _without_unseen(best)
    notes.append(unseen_note)
    table = (
        lexicon.select(Col.id, Col.word)
        .join(best, on=Col.id, how="left")
        .sort(Col.id)
        .with_columns(flags.get_columns())
        .select(list(DEFINITIONS))
    )
    return {"definitions": table, "notes": [_coverage(table), chosen_note, *notes, *offensive_notes]}


def build_definitions(
    lexicon: pl.DataFrame,
    wordnet: dict[str, bytes],
    supplement: dict[str, bytes],
    definition_sources: list[str],
    gcide: dict[str, bytes] | None = None,
    offensive: dict[str, bytes] | None = None,
    cuss: dict[str, bytes] | None = None,
    main_senses: dict[str, bytes] | None = None,
    freedict: dict[str, bytes] | None = None,
    language: str = "en",
) -> dict:
    """Stages 0 and 2 in one call, from the raw files (the tests' and scripts' way in): the dictionaries
    read as stage 0 reads them (dictionary_files.read_dictionaries), then join_definitions."""
    tables = read_dictionaries(wordnet or {}, gcide, main_senses)
    return join_definitions(
        lexicon,
        **tables,
        supplement=supplement,
        definition_sources=definition_sources,
        offensive=offensive,
        cuss=cuss,
        freedict=freedict,
        language=language,
    )


def _main_senses(
    table: pl.DataFrame,
    wordnet_senses: pl.DataFrame,
    forms: pl.DataFrame,
    lexicon: pl.DataFrame,
    names: pl.Series,
) -> tuple[pl.DataFrame, str]:
    """The reviewed table's choices (`word`, `lemma`, `pos`, `key`: main_senses.resolved) for the lexicon's
    words (`table`: stage 0's, with its `file`), and the note. A key that is no sense of its word here
    (another WordNet; a form whose base this lexicon lacks) leaves the word to the rules, counted in the
    note: the table is judged against raw/'s WordNet and the whole CSW (tests/integration/test_senses_table.py)."""
    name = table["file"][0] if table.height else ""
    table = table.drop("file").join(lexicon.select(Col.word), on=Col.word, how="semi")  # a smaller lexicon's only
    found = candidates(table[Col.word], wordnet_senses, forms, lexicon[Col.word], names)
    chosen = resolved(table, name, found, strict=False)
    left = table.filter(~pl.col("key").str.starts_with("gcide:")).height - chosen.height  # GCIDE's: _gcide_chosen
    return chosen, f"main-sense table: {words(chosen.height)} chosen for" + (
        f", {counted(left, 'line')} naming no sense of its word here (the rules decide those)" if left else ""
    )


def _gcide_chosen(
    dictionaries: dict[str, pl.DataFrame], table: pl.DataFrame, lexicon: pl.DataFrame
) -> tuple[dict[str, pl.DataFrame], pl.DataFrame, str]:
    """The reviewed table's GCIDE choices (main_senses.gcide_resolved; a key this GCIDE lacks leaves the word to
    the rules): `dictionaries` with the chosen sense first among its lemma's in GCIDE, the chosen words' texts
    (`word`, `definition`: their GCIDE senses, the chosen first), and the note. Only the word itself reads
    GCIDE: its forms keep WordNet's readings of their base (EXCEPTING `present participle of EXCEPT: ...`, not
    GCIDE's own entry of EXCEPTING)."""
    keys = table.filter(pl.col("key").str.starts_with("gcide:"))
    none = pl.DataFrame(schema={Col.word: pl.String, Col.definition: pl.String})
    if "gcide" not in dictionaries or not keys.height:
        return dictionaries, none, "main-sense table: no GCIDE sense chosen"
    mine = keys.drop("file").join(lexicon.select(Col.word), on=Col.word, how="semi")
    chosen = gcide_resolved(mine, keys["file"][0], dictionaries["gcide"], strict=False)
    note = f"main-sense table: GCIDE's sense chosen for {words(chosen.height)}" + (
        f", {counted(mine.height - chosen.height, 'line')} naming no GCIDE sense here (the rules decide those)"
        if mine.height > chosen.height
        else ""
    )
    if not chosen.height:
        return dictionaries, none, note
    rank_type = dictionaries["gcide"].schema["rank"]
    gcide = (
        dictionaries["gcide"]
        .join(chosen.select("lemma", pl.col("rank").alias("picked")), on="lemma", how="left")
        .with_columns(pl.when(pl.col("rank") == pl.col("picked")).then(-1).otherwise("rank").alias("order"))
        .sort("lemma", "order", maintain_order=True)
        .with_columns(pl.int_range(pl.len()).over("lemma").cast(rank_type).alias("rank"))
        .drop("picked", "order")
    )
    return {**dictionaries, "gcide": gcide}, headwords(chosen[Col.word], gcide), note


def _lists_own_definitions(
    lexicon: pl.DataFrame, supplement: dict[str, bytes], definition_sources: list[str], order: dict[str, int]
) -> tuple[list[pl.DataFrame], dict[str, pl.DataFrame], pl.DataFrame, list[str]]:
    """Every list's and the supplement's own definitions (`id`, `definition`, `definition_source`), one
    table each; their senses as dictionaries' (name -> (`lemma`, `pos`, `rank`, `gloss`)); the lexicon's
    rows the dictionaries are asked about (those no list before the first dictionary in `order` defines);
    the notes."""
    notes, candidates = [], []
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
    return candidates, dictionaries, missing, notes


def _wordnet_glosses(
    wordnet_senses: pl.DataFrame,
    wordnet_domains: pl.DataFrame,
    dictionary: pl.DataFrame | None,
    missing: pl.Series,
    forms: pl.DataFrame,
    chosen: pl.DataFrame,
) -> pl.DataFrame:
    """WordNet's senses as a dictionary's (wordnet.glosses) for the words `missing` may be looked up by;
    `dictionary`: GCIDE's entries (gcide.entries), or None; `chosen`: the reviewed table's (`key`)."""
    # Where the corpus tagged none of a lemma's senses, GCIDE's first current sense says which leads
    # (wordnet.agreeing_senses); asked only about the lemmas the words can be looked up by.
    other = None
    if dictionary is not None:
        untagged = wordnet_senses.filter((pl.col("tagged") == 0) & (pl.len().over("lemma", "pos") > 1))[
            "lemma"
        ].unique()
        looked_up = lookup_forms(missing, forms)
        other = gcide_current(dictionary, looked_up.filter(looked_up.is_in(untagged.implode())))
    return glosses(wordnet_senses, wordnet_domains, other, chosen)


def _gcide_glosses(dictionary: pl.DataFrame, missing: pl.Series, forms: pl.DataFrame, names: pl.Series) -> pl.DataFrame:
    """GCIDE's senses as a dictionary's (gcide.glosses) for the words `missing` may be looked up by."""
    # GCIDE glosses are cleaned only for the lemmas the still undefined words can be looked up by;
    # a lemma WordNet writes only with capitals is a proper noun or an acronym (BERMUDAS, SAM).
    wanted = lookup_forms(missing, forms)
    wanted = wanted.filter(~wanted.is_in(names.implode()))
    return gcide_glosses(dictionary, wanted)


def _first_by_order(candidates: list[pl.DataFrame], order: dict[str, int]) -> pl.DataFrame:
    """(`id`, `definition`, `definition_source`): of each word's candidates, the first by the configured
    `order` of their source (`-link`, `-inflection` and `-derived` ranked as their source)."""
    root = pl.col(Col.definition_source).str.replace(r"-(?:link|inflection|derived)$", "")
    return (
        pl.concat(candidates)
        .with_columns(root.replace_strict(order, return_dtype=pl.Int32).alias("rank"))
        .sort("rank", maintain_order=True)
        .unique(Col.id, keep="first")
        .drop("rank")
    )


def _without_unseen(best: pl.DataFrame) -> tuple[pl.DataFrame, str]:
    """`best` with control and invisible characters removed from its definitions (a definition left empty
    becomes null, its source too); the note."""
    # The dictionaries' text is data like the lists' (stage 1 cleans theirs): no control or invisible
    # character reaches the export from WordNet or GCIDE either.
    best = best.with_columns(strip_unseen(pl.col(Col.definition)).alias("clean"))
    unseen = best.filter(pl.col("clean") != pl.col(Col.definition)).height
    best = best.with_columns(pl.col("clean").replace("", None).alias(Col.definition)).drop("clean")
    best = best.with_columns(
        pl.when(pl.col(Col.definition).is_not_null()).then(Col.definition_source).alias(Col.definition_source)
    )
    return best, f"control or invisible characters removed from {unseen:,} definitions"


def _coverage(table: pl.DataFrame) -> str:
    """The first note: how many words have a definition, and from which source."""
    have = table[Col.definition].is_not_null().sum()
    per_source = table[Col.definition_source].drop_nulls().value_counts().sort(Col.definition_source).rows()
    said = f"definitions for {have:,} of {table.height:,} words ({have / max(table.height, 1):.1%})"
    return said + (": " + ", ".join(f"{s} {n:,}" for s, n in per_source) if per_source else "")


def _translated(lexicon: pl.DataFrame, freedict: dict[str, bytes], language: str) -> dict:
    """A language build's definitions: its FreeDict dictionary's English glosses, shown as translations
    (definition_source `freedict-<xxx>-eng`), or none without a dictionary; no WordNet or GCIDE, and no
    offensive flags (no list)."""
    found = (
        translations(freedict, language)
        if freedict
        else pl.DataFrame(schema={Col.word: pl.String, Col.definition: pl.String})
    )
    table = (
        lexicon.select(Col.id, Col.word)
        .join(found, on=Col.word, how="left")
        .with_columns(
            pl.when(pl.col(Col.definition).is_not_null())
            .then(pl.lit(freedict_name(freedict)))
            .alias(Col.definition_source),
            pl.lit(False).alias(Col.offensive),
            pl.lit(False).alias(Col.vulgar_sense),
        )
        .sort(Col.id)
        .select(list(DEFINITIONS))
        .cast(DEFINITIONS)
    )
    table = table.with_columns(strip_unseen(pl.col(Col.definition)))
    return {"definitions": table, "notes": [_coverage(table)]}


def gcide_flags(dictionary: pl.DataFrame, lexicon: pl.DataFrame) -> pl.Series:
    """The lexicon's words (lower case) GCIDE's entries (gcide.entries) label offensive."""
    own = lexicon.select(pl.col(Col.word).str.to_lowercase().alias("lemma"))
    return gcide_offensive(dictionary.join(own, on="lemma", how="semi", maintain_order="left"))


def _handed_over(inputs: dict) -> dict:
    """The stage's transform (it pops_inputs, pipeline/stage.py): join_definitions with each input handed
    over, none kept here or by the runner, so that a table join_definitions is done with (`del`) is freed."""
    return join_definitions(
        inputs.pop("lexicon"),  # not a column
        inputs.pop("wordnet_senses"),
        inputs.pop("wordnet_domains"),
        inputs.pop("wordnet_names"),
        inputs.pop("wordnet_exceptions"),
        inputs.pop("gcide_entries"),
        inputs.pop("main_senses"),
        inputs.pop("supplement"),
        inputs.pop("definition_sources"),
        inputs.pop("offensive"),  # not a column
        inputs.pop("cuss"),
        inputs.pop("freedict"),
        inputs.pop("language"),
    )


STAGE = Stage(
    number=2,
    name="definitions",
    transform=_handed_over,
    pops_inputs=True,
    reads=(  # not a column: stage 1's output and stage 0's tables
        "lexicon",  # not a column
        "wordnet_senses",  # not a column
        "wordnet_domains",  # not a column
        "wordnet_names",  # not a column
        "wordnet_exceptions",  # not a column
        "gcide_entries",  # not a column
        "main_senses",  # not a column
    ),
    raw=("supplement", "offensive", "cuss", "freedict"),  # not a column: raw inputs
    settings=("definition_sources", "language"),
    assets=(ALPHABETS,),  # pipeline/languages.toml: the headwords' fold
    writes={"definitions": Output("02_definitions.parquet", DEFINITIONS)},
)
