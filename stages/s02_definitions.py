"""Stage 2, definitions: one definition per word, clean text for people.

Reads build/01_lexicon.parquet (`id`, `word`, `csw_senses`, `owl_senses`),
the WordNet folder named by config key `wordnet` (see stages/wordnet.py) and
the supplement file named by config key `supplement` (NASPA format: our own
definitions of function words, which WordNet lacks: AND, FOR, THEY).

Sources are tried in the order of config `definition_sources` (default csw,
owl, supplement, wordnet). A list's own senses are rendered, joined by ` / `,
each with its bracket. Rendering is linear: no definition holds another
definition inside it, so none grows with the links around it.
- a synonym link inside a sentence becomes its word: `not {good=adj}` -> `not good`;
- a sense that is only a link (`AM <be=v> [v]`, `AE {one=adj} [adj]`) takes
  the target's first sense of that part of speech (or its first sense),
  following a chain of such links to the first text: `BE, to have actuality [v]`;
- a run-on form `ADDABLE` of ADD -> `from ADD, to combine ... [adj]`;
- `{ldquo}`/`{rdquo}` -> quotation marks; whitespace normalised; no markup left.
A chain that never reaches a text (a cycle, or longer than MAX_HOPS) and a
link to a word the list lacks leave just the linked word; both are counted in
the notes. Words the lists do not define fall back to WordNet.

Writes build/02_definitions.parquet, one row per word, key `id`:
- id u32, word str
- definition str: null when no source has one
- definition_source str: `csw`, `owl`, `supplement`, `csw-link`, `owl-link`,
  `supplement-link` (that source, through at least one link) or `wordnet`;
  null with no definition
"""
from __future__ import annotations

from collections import Counter

import polars as pl

from pipeline.artifact.contract import Col
from pipeline.errors import InputFormatError
from pipeline.schemas import DEFINITIONS
from pipeline.stage import Output, Stage
from stages.gcide import entries as gcide_entries, glosses as gcide_glosses, offensive_lemmas as gcide_offensive
from stages.offensive import offensive_words
from stages.wordlists import QUOTES, read_wordlist
from stages.wordnet import define, glosses, lookup_forms, senses

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
        .explode("senses", "k").unnest("senses")
        .select(
            Col.id, Col.word, "k", "pos", "link_word", "link_pos", "runon_of",
            pl.concat_str("pos", "inflection", separator=" ", ignore_nulls=True).replace("", None).alias("bracket"),
            text.str.replace_all(r"[{<]([a-z]+)=[a-z_]*[}>]", "$1")
            .str.replace_all(r"\s\s+|[^\S ]", " ").str.strip_chars().alias("base"),
        )
    )


def resolve(senses: pl.DataFrame) -> tuple[pl.DataFrame, Counter]:
    """For each sense that is a link or a run-on form: `final`, the text at the end of its chain
    (null when the chain is cut), and `missed_pos` (the target lacked that part of speech)."""
    problems: Counter[str] = Counter()
    # A word's senses lie together in the order k (sense_rows explodes them so): its first row is its
    # first sense, of any part of speech or of one.
    first = senses.unique(Col.word, keep="first").select(
        pl.col(Col.word).alias("at"), pl.col("base").alias("t_base"), pl.col("link_word").alias("t_link"),
        pl.col("link_pos").alias("t_pos"), pl.col("runon_of").alias("t_runon"))
    first_of_pos = senses.unique([Col.word, "pos"], keep="first").select(
        pl.col(Col.word).alias("at"), pl.col("pos").alias("at_pos"), pl.col("base").alias("p_base"),
        pl.col("link_word").alias("p_link"), pl.col("link_pos").alias("p_pos"), pl.col("runon_of").alias("p_runon"))
    frontier = senses.filter(pl.col("link_word").is_not_null() | pl.col("runon_of").is_not_null()).select(
        Col.id, "k", pl.coalesce("link_word", "runon_of").alias("at"),
        pl.when(pl.col("link_word").is_not_null()).then(pl.col("link_pos")).alias("at_pos"))
    done = []
    for hop in range(MAX_HOPS):
        step = (frontier.join(first_of_pos, on=["at", "at_pos"], how="left")
                .join(first, on="at", how="left"))
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
        done += [missing.select(Col.id, "k", pl.lit(None, pl.String).alias("final")),
                 ends.select(Col.id, "k", pl.col("n_base").alias("final"))]
        frontier = step.filter(pl.col("n_link").is_not_null() | pl.col("n_runon").is_not_null()).select(
            Col.id, "k", pl.coalesce("n_link", "n_runon").alias("at"),
            pl.when(pl.col("n_link").is_not_null()).then(pl.col("n_pos")).alias("at_pos"))
        if frontier.height == 0:
            break
    problems["link chains that never reach a text (cycles, cut)"] += frontier.height
    done.append(frontier.select(Col.id, "k", pl.lit(None, pl.String).alias("final")))
    return pl.concat(done), +problems


def render(rows: pl.DataFrame, source: str) -> tuple[pl.DataFrame, Counter]:
    """(`id`, `definition`, `definition_source`) for (`id`, `word`, `senses`) rows, links followed
    within these rows (one list's words)."""
    senses = sense_rows(rows)
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
        .select(Col.id, Col.definition, pl.when("linked").then(pl.lit(f"{source}-link")).otherwise(pl.lit(source))
                .alias(Col.definition_source))
    )
    return table, problems


def list_definitions(lexicon: pl.DataFrame, column: str, source: str) -> tuple[pl.DataFrame, Counter]:
    """Definitions from one list's own senses (column csw_senses or owl_senses)."""
    return render(lexicon.filter(pl.col(column).is_not_null())
                  .select(Col.id, Col.word, pl.col(column).alias("senses")), source)


def supplement_definitions(lexicon: pl.DataFrame, supplement: dict[str, bytes]) -> tuple[pl.DataFrame, Counter]:
    """Definitions from the supplement file (NASPA format), for the lexicon's words it defines."""
    ((name, data),) = supplement.items()
    wl = read_wordlist(name, data, "naspa")
    for bad in (wl.errors, wl.warnings):  # our own file: every problem is ours to fix
        if bad.height:
            line, text, reason = bad.row(0)
            raise InputFormatError(f"{name}, line {line}: {reason}, in {text[:60]!r}")
    entries = (wl.entries.filter(pl.col("senses").is_not_null()).unique(Col.word, keep="first", maintain_order=True)
               .join(lexicon.select(Col.id, Col.word), on=Col.word, how="left"))
    # Ids beyond the lexicon's let supplement words link to words the lexicon lacks; they are dropped after.
    extra = pl.int_range(lexicon.height, lexicon.height + pl.len(), dtype=pl.UInt32)
    entries = entries.with_columns(pl.coalesce(pl.col(Col.id), extra).alias(Col.id))
    table, problems = render(entries.select(Col.id, Col.word, "senses"), "supplement")
    return table.filter(pl.col(Col.id) < lexicon.height), problems


# Prefixes whose word is its rest's meaning with a twist (UNSNAPPING, RECHECKS, NONSCHEDULED), and
# British -is- spellings of -iz- words (NEUTRALISER): tried last, on words no source defines.
PREFIXES = {"un": "not, or the reverse of", "re": "again", "pre": "before", "non": "not", "de": "the reverse of",
            "dis": "the reverse of", "mis": "wrongly", "over": "too much", "under": "too little",
            "out": "more than", "anti": "against", "co": "together", "counter": "against", "sub": "under",
            "super": "above", "inter": "between", "semi": "half", "multi": "many", "self": "of oneself"}
# Suffixes: (suffix, what replaces it to give the base, how the definition names the relation).
SUFFIXES = [("S", "", "plural or present tense of"), ("ES", "", "plural or present tense of"),
            ("ABLE", "", "able to be (from)"), ("ABLE", "E", "able to be (from)"),
            ("ER", "", "one who or that which does (from)"), ("ER", "E", "one who or that which does (from)"),
            ("Y", "", "like or full of (from)"), ("Y", "E", "like or full of (from)"),
            ("ISM", "", "the doctrine or practice of (from)"), ("IST", "", "one who practises (from)"),
            ("ITY", "", "the quality of being (from)"), ("ILITY", "LE", "the quality of being (from)"),
            ("NESS", "", "the quality of being (from)"), ("LY", "", "in a way that is (from)")]
BRITISH = [("ISATION", "IZATION"), ("ISING", "IZING"), ("ISED", "IZED"), ("ISER", "IZER"), ("ISES", "IZES"),
           ("ISE", "IZE"), ("YSE", "YZE"), ("YSED", "YZED"), ("YSING", "YZING"), ("OUR", "OR"), ("OURS", "ORS")]


def derived_definitions(table: pl.DataFrame) -> pl.DataFrame:
    """(`id`, `definition`, `definition_source`) for undefined words whose British -is- spelling, whose
    rest after a prefix, or whose base before a suffix (at least 3 letters) is defined; the source is
    the rest's, marked `-base`."""
    defined = table.filter(pl.col(Col.definition).is_not_null()).select(
        pl.col(Col.word).alias("rest"), pl.col(Col.definition).alias("rest_definition"),
        pl.col(Col.definition_source).str.replace(r"-(?:base|link)$", "").alias("root_source"))
    missing = table.filter(pl.col(Col.definition).is_null()).select(Col.id, Col.word)
    word = pl.col(Col.word)
    tries = []
    for british, american in BRITISH:
        tries.append(missing.filter(word.str.ends_with(british)).select(
            Col.id, (word.str.slice(0, word.str.len_chars() - len(british)) + american).alias("rest"),
            pl.lit("British spelling of").alias("how"), pl.lit(0).alias("priority")))
    for rank, (suffix, ending, meaning) in enumerate(SUFFIXES, start=100):
        tries.append(missing.filter(word.str.ends_with(suffix) & (word.str.len_chars() >= len(suffix) + 3))
                     .select(Col.id, (word.str.slice(0, word.str.len_chars() - len(suffix)) + ending).alias("rest"),
                             pl.lit(meaning).alias("how"), pl.lit(rank).alias("priority")))
    for rank, (prefix, meaning) in enumerate(PREFIXES.items(), start=1):
        tries.append(missing.filter(word.str.starts_with(prefix.upper()) & (word.str.len_chars() >= len(prefix) + 3))
                     .select(Col.id, word.str.slice(len(prefix)).alias("rest"),
                             pl.lit(f"{prefix}- ({meaning}) +").alias("how"), pl.lit(rank).alias("priority")))
    # A closed compound (SHOPTALK, SCREENSHOT): English puts the head last, so SHOPTALK is TALK.
    # Tried last, with the longest head first. Both parts have at least 4 letters: with 3, chance
    # splits (BUS + HIE, TRASH + CAN) outnumber real compounds.
    for cut in range(4, 13):
        tries.append(missing.filter(word.str.len_chars() >= cut + 4)
                     .select(Col.id, word.str.slice(cut).alias("rest"),
                             (pl.lit("compound of ") + word.str.slice(0, cut) + pl.lit(" +")).alias("how"),
                             pl.lit(1000 + cut).alias("priority"),
                             word.str.slice(0, cut).alias("first"))
                     .join(defined.select(pl.col("rest").alias("first")), on="first").drop("first"))
    found = (pl.concat(tries).join(defined, on="rest")
             .sort("priority", Col.id, maintain_order=True).unique(Col.id, keep="first", maintain_order=True)
             .select(Col.id,
                     pl.format("{} {}: {}", "how", "rest", "rest_definition").str.slice(0, 400).alias(Col.definition),
                     (pl.col("root_source") + "-base").alias(Col.definition_source)))
    return found


def build_definitions(lexicon: pl.DataFrame, wordnet: dict[str, bytes], supplement: dict[str, bytes],
                      definition_sources: list[str], gcide: dict[str, bytes] | None = None,
                      offensive: dict[str, bytes] | None = None, cuss: dict[str, bytes] | None = None) -> dict:
    notes, candidates = [], []
    if "gcide" in definition_sources and not gcide:
        raise InputFormatError("definition_sources names gcide, but no GCIDE files were given")
    dictionary = None  # GCIDE's entries, read when first needed: not held while WordNet defines
    wordnet_senses = senses(wordnet)
    missing = lexicon  # the words no source so far defines
    for rank, source in enumerate(definition_sources):
        if source in ("wordnet", "gcide"):
            # A source further down the list only matters for the words no source before it defines; GCIDE
            # glosses are cleaned only for the lemmas those words can be looked up by.
            if source == "wordnet":
                lemmas = glosses(wordnet, wordnet_senses)
            else:
                wanted = lookup_forms(missing[Col.word], wordnet).to_frame("lemma")
                dictionary = gcide_entries(gcide)
                lemmas = gcide_glosses(dictionary.join(wanted, on="lemma", how="semi", maintain_order="left"))
            found, by_base = define(missing[Col.word], lemmas, wordnet)
            base_ids = missing.join(by_base, on=Col.word).select(Col.id, pl.lit(True).alias("base"))
            table = (missing.select(Col.id, Col.word).join(found, on=Col.word).join(base_ids, on=Col.id, how="left")
                     .select(Col.id, Col.definition, pl.when(pl.col("base")).then(pl.lit(f"{source}-base"))
                             .otherwise(pl.lit(source)).alias(Col.definition_source)))
            notes.append(f"{source} defines {table.height:,} words no source before it does, "
                         f"{by_base.height:,} of them through a base form")
        elif source == "supplement":
            table, problems = supplement_definitions(lexicon, supplement)
            notes += [f"supplement: {n:,} {what}" for what, n in sorted(problems.items())]
        else:
            table, problems = list_definitions(lexicon, f"{source}_senses", source)
            notes += [f"{source}: {n:,} {what}" for what, n in sorted(problems.items())]
        candidates.append(table.with_columns(pl.lit(rank).alias("rank")))
        missing = missing.join(table.select(Col.id), on=Col.id, how="anti")
    best = pl.concat(candidates).sort("rank").unique(Col.id, keep="first").drop("rank")
    flagged = None
    if gcide:
        own = lexicon.select(pl.col(Col.word).str.to_lowercase().alias("lemma"))
        dictionary = gcide_entries(gcide) if dictionary is None else dictionary
        flagged = gcide_offensive(dictionary.join(own, on="lemma", how="semi", maintain_order="left"))
        dictionary = None  # the decompressed file (40 MB for raw/) goes with it
    flags, offensive_notes = offensive_words(lexicon, wordnet, flagged, offensive, wordnet_senses, cuss)
    table = lexicon.select(Col.id, Col.word).join(best, on=Col.id, how="left").sort(Col.id)
    derived = 0
    for _ in range(2):  # twice: SPELLCHECKERS needs SPELLCHECKER, which needs SPELL + CHECKER
        found = derived_definitions(table)
        derived += found.height
        table = table.update(found, on=Col.id)
    notes.append(f"{derived:,} more words defined through a prefix, a suffix or a British spelling")
    table = table.with_columns(flags.get_columns()).select(list(DEFINITIONS))
    have = table[Col.definition].is_not_null().sum()
    per_source = table[Col.definition_source].drop_nulls().value_counts().sort(Col.definition_source).rows()
    notes.insert(0, f"definitions for {have:,} of {table.height:,} words ({have / max(table.height, 1):.1%}): "
                 + ", ".join(f"{s} {n:,}" for s, n in per_source))
    return {"definitions": table, "notes": notes + offensive_notes}


STAGE = Stage(
    number=2,
    name="definitions",
    transform=build_definitions,
    reads=("lexicon",),  # not a column: stage 1's output
    raw=("wordnet", "gcide", "supplement", "offensive", "cuss"),  # not a column: raw inputs
    settings=("definition_sources",),
    helpers=("stages.gcide", "stages.offensive", "stages.wordlists", "stages.wordnet"),
    writes={"definitions": Output("02_definitions.parquet", DEFINITIONS)},
)
