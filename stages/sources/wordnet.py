"""WordNet 3.0 as a definition source for stage 2 (not a stage itself).

Reads the files of the WordNet folder: index.{noun,verb,adj,adv} (a lemma's
synsets, most frequent sense first), data.{...} (each synset's gloss) and
{...}.exc (irregular forms: MICE -> mouse).

- A word that is a WordNet lemma gets the first (most frequent) sense of each
  part of speech it has (never a slur or vulgarism while there is another: that
  one follows, labelled), counting only senses whose synset writes the lemma in
  lower case: a Scrabble word is never a proper noun or an abbreviation, so
  NICE is not "a city in southeastern France" and DOE not "the federal
  department...". Where the corpus tagged none of a part of speech's senses,
  the one GCIDE's first current sense agrees with leads (agreeing_senses:
  STY "a pen for swine", not "an infection"). Parts of speech come in order of their corpus-tagged sense
  counts (index.<pos>), the commonest first: `having a low temperature [adj] /
  a mild viral infection [n]`. Examples after the gloss (`; "..."`) are cut.
  A word with only capitalised senses gets no WordNet definition.
- Otherwise, an inflection of a verified base: the exception lists (MICE ->
  mouse, HELD -> hold) or morphy's suffix rules and a few it lacks (doubled
  consonants: GABBED -> gab; CHALKIER -> chalky; AVOCADOES, TOGAE, CELLI). The
  base is a word of the lexicon of 3+ letters, an exception list's entry, or a
  2-letter word of the lexicon reached by a plain suffix (GOES, not GI -> GO);
  never one letter. The base has the part of speech the inflection implies in
  the dictionary that defines it (plural: noun; past tense: verb; comparative:
  adjective), and its gloss keeps its own tag: `plural of SILVER: a soft white
  ... [n]`. An irregular form's base comes before the form's own senses: HELD
  is `form of HOLD: ... [v] / occupied or in the control of [adj]`.
Definitions are at most MAX_CHARS long: a word's senses are kept whole, in
order, while they fit.
"""

from __future__ import annotations

import polars as pl

from pipeline.columns import Col
from pipeline.errors import InputFormatError
from stages.rules.derivations import SUFFIXES

POS = {"noun": "n", "verb": "v", "adj": "adj", "adv": "adv"}

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
MAX_CHARS = 300  # a rung's definition is read at a glance
AGREEMENT_MARGIN = 2  # agreeing_senses: content words the leading sense shares beyond any other sense


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


# The usage domains (lexicographer file noun.communication) whose members are offensive:
# WordNet files a slur under `;u` "ethnic slur", a dirty word under "obscenity/vulgarism" (one synset),
# a slur on sexual orientation or a mild put-down alike under "disparagement/derogation" (stages/rules/offensive.py
# weighs that one with another source). "profanity" has no members in 3.0 but is read should it gain some.
OFFENSIVE_DOMAINS = ("ethnic_slur", "vulgarism", "profanity", "disparagement")


# A data line: offset, lexicographer file, synset type, word count (2 hex digits), then each word with
# its lex id (1 hex digit), then the pointer count (3 digits). No pointer symbol is a hex digit, so the
# word pairs end where the pointer count begins; splitting only them spares splitting every pointer.
# A line of another shape is an error, not a synset without words.
SYNSET_WORDS = r"^\S+ \S+ \S+ [0-9a-fA-F]{2} ((?:\S+ [0-9a-fA-F] )+)\d{3}(?: |$)"


# lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset [synset_offset...]
INDEX_LINE = r"^\S+ [nvasr] \d+ \d+ (\S+ )*\d+ \d+( \d{8})+$"


def senses(wordnet: dict[str, bytes]) -> pl.DataFrame:
    """(`lemma`, `pos`, `rank`, `tagged`, `sense`, `gloss`, `domains`): every sense of a single-word lemma
    whose synset writes it in lower case, in WordNet's order (most frequent first; `sense` counts from 0
    over the senses kept), `tagged` the lemma's count of corpus-tagged senses for that part of speech,
    `domains` the offsets of the synset's usage domains (`;u`)."""
    frames = []
    for rank, (pos, tag) in enumerate(POS.items()):
        f = pl.col("f")
        count = f.list.get(2).cast(pl.Int64)
        lines = _lines(wordnet, f"index.{pos}").str.strip_chars()
        bad = lines.filter(lines.str.contains(r"^[a-z]+ ") & ~lines.str.contains(INDEX_LINE))
        if bad.len():
            raise InputFormatError(f"WordNet file index.{pos}: not an index line: {bad[0][:60]!r}")
        index = (
            lines.filter(lines.str.contains(r"^[a-z]+ "))  # single-word lemmas; split only their lines
            .str.split(" ")
            .to_frame("f")
            .select(
                f.list.first().alias("lemma"),
                f.list.get(f.list.len() - count - 1).cast(pl.Int64).alias("tagged"),
                f.list.slice(f.list.len() - count, count).alias("offset"),
            )
            .with_columns(pl.int_ranges(pl.col("offset").list.len()).alias("order"))
            .explode("offset", "order")
        )
        line = pl.col("line")
        data = (
            _lines(wordnet, f"data.{pos}")
            .to_frame()
            .select(
                "line",
                line.str.splitn(" ", 2).struct.field("field_0").alias("offset"),
                line.str.extract(SYNSET_WORDS, 1)
                .str.strip_chars_end(" ")
                .str.split(" ")
                .list.gather_every(2)
                .list.eval(pl.element().str.replace(r"\(.*\)$", ""))
                .alias("written"),
                pl.col("line").str.extract_all(r";u \d{8}").list.eval(pl.element().str.slice(3)).alias("domains"),
                pl.col("line")
                .str.splitn(" | ", 2)
                .struct.field("field_1")
                .str.split('; "')
                .list.first()
                .str.strip_chars()
                .str.strip_chars_end(",")  # PHARMACY's `... drugs and medicines,` before its example
                .alias("gloss"),
            )
        )
        bad = data.filter(pl.col("written").is_null())
        if bad.height:
            raise InputFormatError(f"WordNet file data.{pos}: not a synset line: {bad['line'][0][:60]!r}")
        frames.append(
            index.join(data.drop("line"), on="offset")
            .filter(pl.col("written").list.contains(pl.col("lemma")))  # NICE: not the city, written Nice
            .sort("lemma", "order")
            .with_columns(pl.int_range(pl.len()).over("lemma").alias("sense"))
            .select(
                "lemma",
                pl.lit(tag).alias("pos"),
                pl.lit(rank).alias("rank"),
                "tagged",
                "sense",
                "gloss",
                "domains",
                "offset",
            )
        )
    return pl.concat(frames)


# The usage domains whose sense a dual-use word shows after its everyday one, with the label it is shown by
# when its gloss does not already carry one (CHINK: `(ethnic slur) offensive term for ...`).
LABELLED = {"ethnic slur": "ethnic slur", "vulgarism": "vulgar", "profanity": "profane"}


def glosses(
    wordnet: dict[str, bytes], table: pl.DataFrame | None = None, other: pl.DataFrame | None = None
) -> pl.DataFrame:
    """(`lemma`, `pos`, `rank`, `gloss`, `tagged`): the main lower-case sense of each lemma per part of
    speech that reads on its own; `rank` orders a lemma's parts of speech by their tagged-sense counts
    (the part of speech the corpus saw most comes first), then n, v, adj, adv; `tagged` that count.

    The main sense is WordNet's first (the most frequent in its tagged corpus), but never a slur or a
    vulgarism while the part of speech has another sense: such a sense (the first WordNet lists) then
    follows the word's others, labelled, as a row of rank 100 and more (CHINK: `a narrow opening ... [n] /
    make or emit a high sound [v] / (ethnic slur) offensive term for ... [n]`). Where the corpus tagged none
    of a part of speech's senses, the one another dictionary's first current sense agrees with leads
    (`other`: `lemma`, `pos`, `gloss`; agreeing_senses)."""
    table = senses(wordnet) if table is None else table
    # Some noun glosses leave their head noun to the synset's hypernym: BRANDY `distilled from wine or
    # fermented fruit juice`, CURACAO `flavored with sour orange peel`. Alone they do not read.
    headless = (pl.col("pos") == "n") & pl.col("gloss").str.contains(r"^[a-z]+ed (?:with|by|from|in|for) ")
    domains = (
        sense_domains(wordnet, table)
        .filter(pl.col("domain").is_in(list(LABELLED)))
        .unique(["lemma", "pos", "sense"], keep="first")
    )
    kept = (
        table.filter(~headless)
        .join(domains, on=["lemma", "pos", "sense"], how="left")
        .with_columns(
            # SNATCH's `obscene terms for female genitals` has no usage domain: its gloss says it.
            (pl.col("domain").is_not_null() | pl.col("gloss").str.contains(r"^obscene ")).alias("labelled"),
        )
    )
    lead = (
        agreeing_senses(kept.filter(~pl.col("labelled")), other).with_columns(pl.lit(True).alias("agrees"))
        if other is not None
        else pl.DataFrame(schema={"lemma": pl.String, "pos": pl.String, "sense": pl.Int64, "agrees": pl.Boolean})
    )
    kept = (
        kept.join(lead, on=["lemma", "pos", "sense"], how="left")
        .with_columns(pl.col("agrees").fill_null(False))
        .sort(["lemma", "pos", "labelled", "agrees", "sense"], descending=[False, False, False, True, False])
    )
    main = kept.unique(["lemma", "pos"], keep="first", maintain_order=True)
    order = main.sort(["lemma", "tagged", "rank"], descending=[False, True, False]).with_columns(
        pl.int_range(pl.len()).over("lemma").alias("rank")
    )
    label = pl.col("domain").replace_strict(LABELLED, default="vulgar")
    shown_after = (
        kept.filter(pl.col("labelled"))
        .unique(["lemma", "pos"], keep="first", maintain_order=True)
        .join(main.filter(~pl.col("labelled")).select("lemma", "pos"), on=["lemma", "pos"], how="semi")
        .join(order.select("lemma", "pos", pl.col("rank").alias("main_rank")), on=["lemma", "pos"])
        .with_columns(
            (pl.col("main_rank") + 100).alias("rank"),
            pl.when(pl.col("gloss").str.starts_with("("))
            .then("gloss")
            .otherwise(pl.format("({}) {}", label, "gloss"))
            .alias("gloss"),
        )
    )
    columns = ["lemma", "pos", "rank", "gloss", "tagged"]
    return pl.concat([order.select(columns), shown_after.select(columns)]).sort("lemma", "rank")


# Words two glosses share by chance: function words, and the words dictionaries define everything with.
GLOSS_WORDS = frozenset(
    "a an the of or and to in on at by for from with without as is are be being that which who whom whose "
    "it its this these those one ones any some such other etc esp especially e g i used use kind sort "
    "something someone person thing things part form act state quality having has have made make not no "
    "usually often very more most small large".split()
)


def _stems(text: str, lemma: str) -> set[str]:
    """The content words of a gloss, each cut to its first six letters after a plural -s (SWINE, BIRDS:
    bird, CHRISTIANS: christ, METALLIC: metall), the lemma itself left out."""
    words = (w.lower() for w in text.replace("-", " ").split())
    bare = ("".join(c for c in w if c.isalpha()) for w in words)
    return {
        (w[:-1] if w.endswith("s") and not w.endswith("ss") and len(w) > 3 else w)[:6]
        for w in bare
        if len(w) > 2 and w not in GLOSS_WORDS and w != lemma and not w.startswith(lemma[:6])
    }


def agreeing_senses(table: pl.DataFrame, other: pl.DataFrame, margin: int = AGREEMENT_MARGIN) -> pl.DataFrame:
    """(`lemma`, `pos`, `sense`): for a lemma whose part of speech has senses none of which the corpus tagged
    (senses()' `tagged` is 0, so WordNet's order is no evidence), the sense that agrees best with another
    dictionary's first current sense of the same lemma and part of speech (`other`: `lemma`, `pos`,
    `gloss`; gcide.current_firsts), when it is not the first already: it shares at least `margin` more
    content words (stems, _stems) with that gloss than any other sense does. STY: GCIDE's `A pen or
    inclosure for swine.` picks `a pen for swine` over `an infection of the sebaceous gland of the eyelid`."""
    untagged = (
        table.filter(pl.col("tagged") == 0)
        .join(other.rename({"gloss": "other"}), on=["lemma", "pos"])
        .sort("lemma", "pos", "sense")
    )
    by_part: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for lemma, pos, sense, gloss, text in untagged.select("lemma", "pos", "sense", "gloss", "other").rows():
        shared = len(_stems(gloss, lemma) & _stems(text, lemma))
        by_part.setdefault((lemma, pos), []).append((shared, sense))
    chosen = []
    for (lemma, pos), scores in by_part.items():
        first = scores[0][1]  # WordNet's first of the senses given
        scores.sort(reverse=True)
        if len(scores) > 1 and scores[0][1] != first and scores[0][0] >= scores[1][0] + margin:
            chosen.append((lemma, pos, scores[0][1]))
    return pl.DataFrame(chosen, schema={"lemma": pl.String, "pos": pl.String, "sense": pl.Int64}, orient="row")


def offensive_lemmas(wordnet: dict[str, bytes], table: pl.DataFrame | None = None) -> pl.DataFrame:
    """(`lemma`, `domain`): lemmas with a lower-case sense in one of OFFENSIVE_DOMAINS (`table`: the
    senses() of these files, when the caller has them already)."""
    return sense_domains(wordnet, table).select("lemma", "domain").unique().sort("lemma", "domain")


def _candidates(words: pl.DataFrame, wordnet: dict[str, bytes]) -> pl.DataFrame:
    """(`lower`, `base`, `pos`, `priority`, `plain`): every base form a rule proposes (`_relations` names
    each; priority 0 is an exception list's entry; `plain`: the rule only added letters to the base)."""
    lower, n = pl.col("lower"), pl.col("lower").str.len_bytes()
    found = []
    for pos, tag in POS.items():
        found.append(
            _lines(wordnet, f"{pos}.exc")
            .str.split(" ")
            .to_frame("f")
            .lazy()
            .select(
                pl.col("f").list.first().alias("lower"),
                pl.col("f").list.get(1, null_on_oob=True).alias("base"),
                pl.lit(tag).alias("pos"),
                pl.lit(0).alias("priority"),
                pl.lit(False).alias("plain"),
            )
        )
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


def _relations() -> pl.DataFrame:
    """(`priority`, `pos`, `relation`): how a definition through each rule of _candidates names the
    relation (an exception list's: by its part of speech; 0 also serves adjectives and adverbs)."""
    rows = [(0, tag, "plural of" if pos == "noun" else "form of") for pos, tag in POS.items()]
    rows += [(i, POS[pos], relation) for i, (pos, _, _, relation) in enumerate(RULES, start=1)]
    rows += [(i, POS[pos], relation) for i, (pos, _, relation) in enumerate(DOUBLED, start=len(RULES) + 1)]
    return pl.DataFrame(rows, schema={"priority": pl.Int32, "pos": pl.String, "relation": pl.String}, orient="row")


def morphology(words: pl.Series, wordnet: dict[str, bytes]) -> pl.DataFrame:
    """(`lower`, `base`, `pos`, `priority`, `plain`): every base form the rules propose for each of `words`
    (upper case), and every entry of the exception lists whatever the words (_candidates; priority 0 is an
    exception list's). Stage 2 computes it once, for the lexicon, and `lookup_forms` and `inflections` read
    the rows of the words they are given."""
    return _candidates(words.str.to_lowercase().to_frame("lower"), wordnet)


def lookup_forms(words: pl.Series, forms: pl.DataFrame) -> pl.Series:
    """Every lemma `headwords` and `inflections` may look up for `words` (upper case), once each: each word
    in lower case and every base form a rule proposes for it (`forms`: morphology() of these words or more).
    A dictionary parsed for these alone defines the same words."""
    lowered = words.str.to_lowercase()
    proposed = forms.filter((pl.col("priority") == 0) | pl.col("lower").is_in(lowered.implode()))
    return pl.concat([lowered.rename("lower"), proposed["base"].drop_nulls()]).unique()


def proper_lemmas(wordnet: dict[str, bytes], table: pl.DataFrame | None = None) -> pl.Series:
    """Single-word lemmas that WordNet writes only with capitals (BERMUDAS, HAITI, SAM: a place, a
    person, an acronym): no sense of theirs is a Scrabble word's (`table`: the senses() of these files)."""
    indexed = pl.concat([_lines(wordnet, f"index.{pos}").str.extract(r"^([a-z]+) ", 1).drop_nulls() for pos in POS])
    lower = (senses(wordnet) if table is None else table)["lemma"]
    return indexed.filter(~indexed.is_in(lower.implode())).unique().sort().rename("lemma")


def _within(texts: pl.DataFrame, key: str) -> pl.DataFrame:
    """(`key`, `definition`): each key's texts (`text`, in order) joined by ` / `, whole, while they fit in
    MAX_CHARS; a key whose first text does not fit gets none."""
    return (
        texts.with_columns((pl.col("text").str.len_chars() + 3).cum_sum().over(key).alias("upto"))
        .filter(pl.col("upto") - 3 <= MAX_CHARS)
        .group_by(key, maintain_order=True)
        .agg(pl.col("text").str.join(" / ").alias(Col.definition))
    )


def headwords(words: pl.Series, lemmas: pl.DataFrame) -> pl.DataFrame:
    """(`word`, `definition`) for each of `words` (upper case) that is a lemma of `lemmas` (`lemma`, `pos`,
    `rank`, `gloss`: a dictionary's senses): its senses in rank order, each with its tag."""
    # A semi-join keeps the dictionary's rows of these words: no unique() over every word asked about.
    texts = (
        lemmas.join(words.str.to_lowercase().to_frame("lemma"), on="lemma", how="semi")
        .sort("lemma", "rank")
        .select("lemma", pl.format("{} [{}]", "gloss", "pos").alias("text"))
    )
    return _within(texts, "lemma").select(pl.col("lemma").str.to_uppercase().alias(Col.word), Col.definition)


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
    (`forms`: the rows of morphology() to read, for these words or more): `past tense of HOLD: ... [v]`
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
    tagged: SEED is no `past tense of SEE`, LIED no German song). `names`: proper_lemmas;
    such a word is no comparative (NORTHERNER, HIGHLANDER, ACER are nouns that WordNet writes with a
    capital); nor is a word whose base has three syllables or more (INTIMATER, ENAMELLER, NEANDERTALER)."""
    lowered = words.str.to_lowercase().to_frame("lower")
    known = lexicon.str.to_lowercase().to_frame("base").with_columns(pl.lit(True).alias("in_lexicon"))
    candidates = forms
    # A 2-letter base with forms of its own in the exception lists is irregular: BE's present is IS, not BES.
    irregular = (
        candidates.filter(pl.col("priority") == 0)
        .select("base")
        .unique()
        .with_columns(pl.lit(True).alias("has_exceptions"))
    )
    size = pl.col("base").str.len_chars()
    verified = (
        (pl.col("base") != pl.col("lower"))
        & (size >= 2)
        & pl.when(pl.col("priority") == 0)
        .then((size >= 3) | pl.col("in_lexicon"))
        .when(size >= 3)
        .then(pl.col("in_lexicon"))
        .otherwise(pl.col("in_lexicon") & pl.col("plain") & ~pl.col("has_exceptions"))
    )
    tagged = pl.col("tagged") if "tagged" in lemmas.columns else pl.lit(None, pl.Int64)
    senses = (
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
    proposed = (
        candidates
        # Most proposed bases are not lemmas (581k proposals, 84k lemmas for raw/): drop those first.
        .join(senses.select("base").unique(), on="base", maintain_order="left")
        .join(lowered, on="lower", maintain_order="left")
        .join(known, on="base", how="left")
        .join(irregular, on="base", how="left")
        .with_columns(pl.col("in_lexicon", "has_exceptions").fill_null(False))
        .filter(verified)
        .join(_relations(), on=["priority", "pos"], maintain_order="left")
        .join(senses, on=["base", "pos"], how="left", maintain_order="left")
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
    # A bare reading needs a base 3+ letters long that a dictionary knows (in another part of speech).
    untyped = pl.col("gloss").is_null() & pl.col("relation").is_in(UNTYPED) & (pl.col("priority") > 0) & (size >= 3)
    graded = pl.col("relation").is_in(["comparative of", "superlative of"])
    # A one-syllable base ending consonant-vowel-consonant doubles it before -ed, -ing, -er, -est (CAP:
    # CAPPED): CAPED, RAPED, DINED are no forms of CAP, RAP, DIN. Not after c, s, w, x, y (ARCED, BUSED).
    doubles = pl.col("base").str.contains(r"^[^aeiouy]*[aeiouy][^aeiouycswx]$") & pl.col("lower").str.contains(
        r"(?:ed|ing|er|est)$"
    )
    proposed = proposed.filter(~(doubles & pl.col("plain") & (pl.col("priority") > 0)))
    if names is not None:
        proposed = proposed.filter(~(graded & pl.col("lower").is_in(names.implode())))
    # -er and -est make comparatives of words of one or two syllables (a final silent e not counted).
    syllables = pl.col("base").str.count_matches("[aeiouy]+") - pl.col("base").str.contains("[^aeiouyl]e$").cast(
        pl.UInt32
    )
    # (Of a -y adjective, more: UNSTEADIER, WATERIER.)
    proposed = proposed.filter(
        ~(graded & (pl.col("priority") > 0) & (syllables > 2) & ~pl.col("base").str.ends_with("y"))
    )
    # A word in -ics may name a field or a language (RABBINICS, a singular noun): no plural of an -ic noun
    # that GCIDE defines as a language, science, art, study, doctrine, theory or practice (`Rabbinic: The
    # language or dialect of the rabbins`); EXOTICS, TYMPANICS and CRITICS are plurals.
    uncountable = (pl.col("source") == "gcide") & pl.col("gloss").str.contains(
        r"^The (?:language|science|art|study|doctrine|theory|practice)\b"
    )
    proposed = proposed.filter(
        ~((pl.col("relation") == "plural of") & pl.col("lower").str.ends_with("ics") & uncountable).fill_null(False)
    )
    # A verb whose exception lists give it both a past and a participle of its own (SEE: saw, seen; not
    # BARREL's barrelled, SEW's sewn nor BURN's burnt) has no regular past that leads (SEED).
    own_past = (
        pl.col("lower").str.contains(r"^[a-z]+[^s]$")  # not CO-ORDINATED, nor a present tense
        & ~pl.col("lower").str.ends_with("ing")
        & (pl.col("lower") != pl.col("base") + pl.col("base").str.slice(-1) + "ed")
    )
    irregular_verbs = (
        candidates.filter(
            (pl.col("priority") == 0) & (pl.col("pos") == "v") & own_past & ~pl.col("lower").str.ends_with("t")
        )
        .group_by("base")
        .agg(pl.col("lower").n_unique().alias("forms"))
        .filter(pl.col("forms") >= 2)["base"]
    )
    readings = (
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
            pl.when(graded | pl.col("priority").is_in(classical)).then(-1).otherwise("tagged").alias("everyday"),
            exceptional.alias("guarded"),
        )
    )


def sense_domains(wordnet: dict[str, bytes], table: pl.DataFrame | None = None) -> pl.DataFrame:
    """(`lemma`, `pos`, `sense`, `domain`): each lower-case sense (senses()' key) in one of OFFENSIVE_DOMAINS,
    once per such domain, `domain` spelled with spaces ("ethnic slur")."""
    nouns = (
        _lines(wordnet, "data.noun")
        .to_frame()
        .select(
            pl.col("line").str.slice(0, 8).alias("domain_offset"),
            pl.col("line").str.extract(r"^\d{8} \d\d n [0-9a-f]{2} ((?:\S+ \S+ )+?)\d{3} ", 1).alias("words"),
        )
    )
    domains = pl.concat(
        [
            nouns.filter(pl.col("words").str.contains(rf"(?:^| ){name} ")).select(
                "domain_offset", pl.lit(name.replace("_", " ")).alias("domain")
            )
            for name in OFFENSIVE_DOMAINS
        ]
    )
    return (
        (senses(wordnet) if table is None else table)
        .explode("domains")
        .rename({"domains": "domain_offset"})
        .join(domains, on="domain_offset")
        .select("lemma", "pos", "sense", "domain")
        .unique()
        .sort("lemma", "pos", "sense", "domain")
    )


def proposed_bases(words: pl.Series, forms: pl.DataFrame | None = None) -> pl.DataFrame:
    """(`word`, `base`), upper case: every base form RULES and DOUBLED propose for each of `words` (the
    morphology of _candidates without the exception lists, so that it needs no WordNet files: the
    irregular forms they list are of everyday words), and stage 2's derivation suffixes of adjectives (such
    a word is offensive with its base: BITCHILY, SHITTINESS). Not the doubled -es of BUSSES,
    which would make JIZZES a form of JIZ and PISSES of PIS as well. A proposal need not be a word; rows
    in no order. `forms`: morphology() of these words, when the caller has it (its rules' rows are read)."""
    lowered = words.str.to_lowercase().to_frame("lower").unique()
    doubled_es = [i for i, (_, suffix, _) in enumerate(DOUBLED, start=len(RULES) + 1) if suffix == "es"]
    lower, n = pl.col("lower"), pl.col("lower").str.len_bytes()
    derived = [
        lowered.filter(lower.str.ends_with(suffix) & (n > len(suffix) + 2)).select(
            "lower", (lower.str.slice(0, n - len(suffix)) + ending).alias("base")
        )
        # Those of an adjective only: an adverb or a noun of quality keeps its adjective's sense; -less
        # makes a word of its own (TOOLLESS says nothing of TOOL's vulgar sense).
        for suffix, ending in ((suffix.lower(), ending.lower()) for suffix, ending, pos, *_ in SUFFIXES if pos == "adj")
    ]
    if forms is None:
        forms = _candidates(lowered, {f"{pos}.exc": b"" for pos in POS})
    rules = (pl.col("priority") > 0) & ~pl.col("priority").is_in(doubled_es)  # not the exception lists
    proposed = forms.filter(rules).select("lower", "base")
    return (
        pl.concat([proposed, *derived])
        .filter(pl.col("base").str.len_bytes() > 0)
        .select(pl.col("lower").str.to_uppercase().alias(Col.word), pl.col("base").str.to_uppercase())
        .unique()
    )
