"""WordNet 3.0 as a definition source for stage 2 (not a stage itself).

Reads the files of the WordNet folder: index.{noun,verb,adj,adv} (a lemma's
synsets, most frequent sense first), data.{...} (each synset's gloss) and
{...}.exc (irregular forms: MICE -> mouse).

- A word that is a WordNet lemma gets the first (most frequent) sense of each
  part of speech it has, counting only senses whose synset writes the lemma in
  lower case: a Scrabble word is never a proper noun or an abbreviation, so
  NICE is not "a city in southeastern France" and DOE not "the federal
  department...". Parts of speech come in order of their corpus-tagged sense
  counts (index.<pos>), the commonest first: `having a low temperature [adj] /
  a mild viral infection [n]`. Examples after the gloss (`; "..."`) are cut.
  A word with only capitalised senses gets no WordNet definition.
- Otherwise its base form is looked up as WordNet's morphy does (the
  exception lists, then the suffix rules: SILVERS -> silver, BARKED -> bark),
  then by a few derivations morphy lacks (doubled consonants: GABBED -> gab;
  CHALKIER -> chalky; adverbs in -LY; nouns in -NESS; nouns used as verbs:
  BOOKMARKED -> bookmark). The definition says
  whose it is: `plural of SILVER: a soft white ... [n]`.
"""
from __future__ import annotations

import polars as pl

from pipeline.artifact.contract import Col
from pipeline.errors import InputFormatError

POS = {"noun": "n", "verb": "v", "adj": "adj", "adv": "adv"}

# (part of speech of the base, suffix, ending that replaces it, relation, the word's own part of speech).
# First the suffix rules of WordNet's morphy, in its order; then derivations it lacks.
RULES = [
    ("noun", "s", "", "plural of", "n"), ("noun", "ses", "s", "plural of", "n"),
    ("noun", "xes", "x", "plural of", "n"), ("noun", "zes", "z", "plural of", "n"),
    ("noun", "ches", "ch", "plural of", "n"), ("noun", "shes", "sh", "plural of", "n"),
    ("noun", "men", "man", "plural of", "n"), ("noun", "ies", "y", "plural of", "n"),
    ("verb", "s", "", "present tense of", "v"), ("verb", "ies", "y", "present tense of", "v"),
    ("verb", "es", "e", "present tense of", "v"), ("verb", "es", "", "present tense of", "v"),
    ("verb", "ed", "e", "past tense of", "v"), ("verb", "ed", "", "past tense of", "v"),
    ("verb", "ing", "e", "present participle of", "v"), ("verb", "ing", "", "present participle of", "v"),
    ("adj", "er", "", "comparative of", "adj"), ("adj", "est", "", "superlative of", "adj"),
    ("adj", "er", "e", "comparative of", "adj"), ("adj", "est", "e", "superlative of", "adj"),
    # Beyond morphy.
    ("verb", "ied", "y", "past tense of", "v"),
    ("adj", "ier", "y", "comparative of", "adj"), ("adj", "iest", "y", "superlative of", "adj"),
    ("adj", "ly", "", "in a way that is", "adv"), ("adj", "ily", "y", "in a way that is", "adv"),
    ("adj", "ally", "", "in a way that is", "adv"), ("adj", "bly", "ble", "in a way that is", "adv"),
    ("adj", "ness", "", "the quality of being", "n"), ("adj", "iness", "y", "the quality of being", "n"),
    # Plurals morphy leaves to its exception lists: AVOCADOES, TOGAE, CELLI, DELIRIA, LEXICA,
    # BEHALVES, HANDSFUL; and adjectives used as nouns (CASUALS, EXOTICS).
    ("noun", "oes", "o", "plural of", "n"), ("noun", "ae", "a", "plural of", "n"),
    ("noun", "i", "o", "plural of", "n"), ("noun", "i", "us", "plural of", "n"),
    ("noun", "a", "um", "plural of", "n"), ("noun", "a", "on", "plural of", "n"),
    ("noun", "ves", "f", "plural of", "n"), ("noun", "ves", "fe", "plural of", "n"),
    ("noun", "sful", "ful", "plural of", "n"), ("adj", "s", "", "plural of", "n"),
    # Nouns used as verbs (BOOKMARKED, CHICKENING), when WordNet has no such verb.
    ("noun", "ed", "", "past tense of", "v"), ("noun", "ed", "e", "past tense of", "v"),
    ("noun", "ing", "", "present participle of", "v"), ("noun", "ing", "e", "present participle of", "v"),
]
# Suffixes after which a doubled final consonant is undone: GABBED -> GAB, FUNNEST -> FUN.
DOUBLED = [("verb", "ed", "past tense of", "v"), ("verb", "ing", "present participle of", "v"),
           ("adj", "er", "comparative of", "adj"), ("adj", "est", "superlative of", "adj"),
           ("noun", "ed", "past tense of", "v"), ("noun", "ing", "present participle of", "v")]


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
# a slur on sexual orientation or a mild put-down alike under "disparagement/derogation" (stages/offensive.py
# weighs that one with another source). "profanity" has no members in 3.0 but is read should it gain some.
OFFENSIVE_DOMAINS = ("ethnic_slur", "vulgarism", "profanity", "disparagement")


# A data line: offset, lexicographer file, synset type, word count (2 hex digits), then each word with
# its lex id (1 hex digit), then the pointer count (3 digits). No pointer symbol is a hex digit, so the
# word pairs end where the pointer count begins; splitting only them spares splitting every pointer.
# A line of another shape is an error, not a synset without words.
SYNSET_WORDS = r"^\S+ \S+ \S+ [0-9a-fA-F]{2} ((?:\S+ [0-9a-fA-F] )+)\d{3}(?: |$)"


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
        index = (
            lines.filter(lines.str.contains(r"^[a-z]+ "))  # single-word lemmas; split only their lines
            .str.split(" ").to_frame("f")
            .select(f.list.first().alias("lemma"), f.list.get(f.list.len() - count - 1).cast(pl.Int64).alias("tagged"),
                    f.list.slice(f.list.len() - count, count).alias("offset"))
            .with_columns(pl.int_ranges(pl.col("offset").list.len()).alias("order"))
            .explode("offset", "order")
        )
        line = pl.col("line")
        data = _lines(wordnet, f"data.{pos}").to_frame().select(
            "line", line.str.splitn(" ", 2).struct.field("field_0").alias("offset"),
            line.str.extract(SYNSET_WORDS, 1).str.strip_chars_end(" ").str.split(" ").list.gather_every(2)
            .list.eval(pl.element().str.replace(r"\(.*\)$", "")).alias("written"),
            pl.col("line").str.extract_all(r";u \d{8}").list.eval(pl.element().str.slice(3)).alias("domains"),
            pl.col("line").str.splitn(" | ", 2).struct.field("field_1")
            .str.split('; "').list.first().str.strip_chars().alias("gloss"),
        )
        bad = data.filter(pl.col("written").is_null())
        if bad.height:
            raise InputFormatError(f"WordNet file data.{pos}: not a synset line: {bad['line'][0][:60]!r}")
        frames.append(
            index.join(data.drop("line"), on="offset")
            .filter(pl.col("written").list.contains(pl.col("lemma")))  # NICE: not the city, written Nice
            .sort("lemma", "order")
            .with_columns(pl.int_range(pl.len()).over("lemma").alias("sense"))
            .select("lemma", pl.lit(tag).alias("pos"), pl.lit(rank).alias("rank"), "tagged", "sense", "gloss",
                    "domains", "offset"))
    return pl.concat(frames)


def glosses(wordnet: dict[str, bytes], table: pl.DataFrame | None = None) -> pl.DataFrame:
    """(`lemma`, `pos`, `rank`, `gloss`): the most frequent lower-case sense of each lemma per part of
    speech; `rank` orders a lemma's parts of speech by their tagged-sense counts (the part of speech the
    corpus saw most comes first), then n, v, adj, adv."""
    kept = (senses(wordnet) if table is None else table).filter(pl.col("sense") == 0)
    order = kept.sort(["lemma", "tagged", "rank"], descending=[False, True, False])
    return order.with_columns(pl.int_range(pl.len()).over("lemma").alias("rank")).select("lemma", "pos", "rank", "gloss")


def offensive_lemmas(wordnet: dict[str, bytes], table: pl.DataFrame | None = None) -> pl.DataFrame:
    """(`lemma`, `domain`): lemmas with a lower-case sense in one of OFFENSIVE_DOMAINS (`table`: the
    senses() of these files, when the caller has them already)."""
    return sense_domains(wordnet, table).select("lemma", "domain").unique().sort("lemma", "domain")


def _candidates(words: pl.DataFrame, wordnet: dict[str, bytes]) -> pl.DataFrame:
    """(`lower`, `base`, `pos`, `priority`): every base form a rule proposes (`_relations` names each)."""
    lower, n = pl.col("lower"), pl.col("lower").str.len_bytes()
    found = []
    for pos, tag in POS.items():
        found.append(_lines(wordnet, f"{pos}.exc").str.split(" ").to_frame("f").lazy().select(
            pl.col("f").list.first().alias("lower"), pl.col("f").list.get(1, null_on_oob=True).alias("base"),
            pl.lit(tag).alias("pos"), pl.lit(0).alias("priority")))
    lazy = words.lazy()
    for i, (pos, suffix, ending, _, _) in enumerate(RULES, start=1):
        found.append(lazy.filter(lower.str.ends_with(suffix) & (n > len(suffix))).select(
            "lower", (lower.str.slice(0, n - len(suffix)) + ending).alias("base"), pl.lit(POS[pos]).alias("pos"),
            pl.lit(i).alias("priority")))
    for i, (pos, suffix, _, _) in enumerate(DOUBLED, start=len(RULES) + 1):
        stem = lower.str.slice(0, n - len(suffix))
        found.append(
            lazy.filter(lower.str.ends_with(suffix) & (n > len(suffix) + 2)).with_columns(stem.alias("stem"))
            .filter(pl.col("stem").str.slice(-1) == pl.col("stem").str.slice(-2, 1))
            .select("lower", pl.col("stem").str.slice(0, pl.col("stem").str.len_bytes() - 1).alias("base"),
                    pl.lit(POS[pos]).alias("pos"), pl.lit(i).alias("priority")))
    return pl.concat(found).collect()  # one plan: the rules run side by side


def _relations() -> pl.DataFrame:
    """(`priority`, `pos`, `relation`, `shown_pos`): how a definition through each rule of _candidates
    names the relation, and the part of speech it shows."""
    rows = [(0, tag, "plural of" if pos == "noun" else "form of", tag) for pos, tag in POS.items()]
    rows += [(i, POS[pos], relation, shown) for i, (pos, _, _, relation, shown) in enumerate(RULES, start=1)]
    rows += [(i, POS[pos], relation, shown)
             for i, (pos, _, relation, shown) in enumerate(DOUBLED, start=len(RULES) + 1)]
    return pl.DataFrame(rows, schema={"priority": pl.Int32, "pos": pl.String, "relation": pl.String,
                                      "shown_pos": pl.String}, orient="row")


def lookup_forms(words: pl.Series, wordnet: dict[str, bytes]) -> pl.Series:
    """Every lemma `define` may look up for `words` (upper case), once each: each word in lower case and
    every base form a rule proposes for it. A dictionary parsed for these alone defines the same words."""
    lowered = words.str.to_lowercase().to_frame("lower")
    return pl.concat([lowered["lower"], _candidates(lowered, wordnet)["base"].drop_nulls()]).unique()


def define(words: pl.Series, lemmas: pl.DataFrame, wordnet: dict[str, bytes]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(`word`, `definition`) for each of `words` (upper case) that `lemmas` (`lemma`, `pos`, `rank`,
    `gloss`: a dictionary's senses) defines, first as written, then through a base form found by
    WordNet's morphology (the exception lists and RULES); the same for those by a base form alone."""
    exact = (
        lemmas.sort("lemma", "rank").group_by("lemma", maintain_order=True)
        .agg(pl.format("{} [{}]", "gloss", "pos").str.join(" / ").alias(Col.definition))
        .rename({"lemma": "lower"})
    )
    lowered = words.str.to_lowercase().to_frame("lower")
    missing = lowered.join(exact, on="lower", how="anti")
    inflected = (
        _candidates(missing, wordnet)
        # Most proposed bases are not lemmas (581k proposals, 84k lemmas for raw/): drop those first.
        .join(lemmas.select(pl.col("lemma").alias("base"), "pos", "gloss"), on=["base", "pos"], maintain_order="left")
        .join(missing, on="lower", maintain_order="left")
        # Stable: of two readings with one priority (GASSES in noun.exc and verb.exc), the first listed wins.
        .sort("priority", "lower", maintain_order=True)
        .unique("lower", keep="first", maintain_order=True)
        .join(_relations(), on=["priority", "pos"], maintain_order="left")
        .select("lower", pl.format("{} {}: {} [{}]", "relation", pl.col("base").str.to_uppercase(), "gloss",
                                   "shown_pos").alias(Col.definition))
    )
    upper = pl.col("lower").str.to_uppercase().alias(Col.word)
    return (pl.concat([exact.join(lowered, on="lower"), inflected]).select(upper, Col.definition),
            inflected.select(upper, Col.definition))


def wordnet_definitions(words: pl.Series, wordnet: dict[str, bytes]) -> tuple[pl.DataFrame, int]:
    """(`word`, `definition`) for each of `words` (upper case) WordNet can define; how many by a base form."""
    found, by_base = define(words, glosses(wordnet), wordnet)
    return found, by_base.height


def sense_domains(wordnet: dict[str, bytes], table: pl.DataFrame | None = None) -> pl.DataFrame:
    """(`lemma`, `pos`, `sense`, `domain`): each lower-case sense (senses()' key) in one of OFFENSIVE_DOMAINS,
    once per such domain, `domain` spelled with spaces ("ethnic slur")."""
    nouns = _lines(wordnet, "data.noun").to_frame().select(
        pl.col("line").str.slice(0, 8).alias("domain_offset"),
        pl.col("line").str.extract(r"^\d{8} \d\d n [0-9a-f]{2} ((?:\S+ \S+ )+?)\d{3} ", 1).alias("words"))
    domains = pl.concat([
        nouns.filter(pl.col("words").str.contains(rf"(?:^| ){name} ")).select(
            "domain_offset", pl.lit(name.replace("_", " ")).alias("domain"))
        for name in OFFENSIVE_DOMAINS])
    return ((senses(wordnet) if table is None else table).explode("domains").rename({"domains": "domain_offset"})
            .join(domains, on="domain_offset").select("lemma", "pos", "sense", "domain").unique()
            .sort("lemma", "pos", "sense", "domain"))


def proposed_bases(words: pl.Series) -> pl.DataFrame:
    """(`word`, `base`), upper case: every base form RULES and DOUBLED propose for each of `words` (the
    morphology of _candidates without the exception lists, so that it needs no WordNet files: the
    irregular forms they list are of everyday words). A proposal need not be a word; rows in no order."""
    lowered = words.str.to_lowercase().to_frame("lower").unique()
    none = {f"{pos}.exc": b"" for pos in POS}
    return (_candidates(lowered, none).filter(pl.col("base").str.len_bytes() > 0)
            .select(pl.col("lower").str.to_uppercase().alias(Col.word), pl.col("base").str.to_uppercase())
            .unique())
