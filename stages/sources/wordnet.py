"""WordNet 3.0 as a definition source for stage 2 (not a stage itself).

Reads the files of the WordNet folder: index.{noun,verb,adj,adv} (a lemma's
synsets, most frequent sense first), data.{...} (each synset's gloss) and
{...}.exc (irregular forms: MICE -> mouse).

- `senses`, `glosses`: a word that is a WordNet lemma gets the first (most frequent) sense of each
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
- `exception_lists`: the irregular forms the {...}.exc files list (MICE -> mouse, HELD -> hold), which
  stages/rules/morphology.py proposes as bases beside its suffix rules; `headwords`: a lemma's own
  senses as its definition, for any dictionary's senses; `sense_domains` (stages/rules/offensive.py,
  and `glosses` for its labelled senses) and `offensive_lemmas`: the senses in a slur, obscenity,
  profanity or disparagement domain (OFFENSIVE_DOMAINS); `proper_lemmas`: lemmas written only with
  capitals; `tables`: all of these that need no word list, as stage 0 (stages/s00_dictionaries.py) writes them.
MAX_CHARS bounds WordNet's definitions (here: a word's senses are kept whole,
in order, while they fit) and the definitions stages/rules/dictionaries.py and
stages/rules/inflections.py join from two readings; inflections and derivations
keep within it by taking only glosses of at most MAX_CHARS - 40, their wording
not measured again. GCIDE's text is cut by stages/sources/gcide_text.py's own
MAX_CHARS.
"""

from __future__ import annotations

import polars as pl

from pipeline.columns import Col
from pipeline.errors import InputFormatError
from stages.sources.wordnet_order import LATER_DOMAINS, agreeing_senses, leading, pos_order, said_again, unsaid

POS = {"noun": "n", "verb": "v", "adj": "adj", "adv": "adv"}

MAX_CHARS = 300  # a rung's definition is read at a glance


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
    """(`lemma`, `pos`, `rank`, `tagged`, `sense`, `gloss`, `domains`, `offset`, `key`, `count`, `heads`): every
    sense of a single-word lemma whose synset writes it in lower case, in WordNet's order (most frequent first; `sense`
    counts from 0 over the senses kept), `tagged` the lemma's count of corpus-tagged senses for that part of
    speech, `domains` the offsets of the synset's usage domains (`;u`), `key` its sense key
    (`dock%1:06:00::`), `count` the corpus's tags of that sense (cntlist.rev; 0 when untagged) and `heads`
    whether the lemma is the synset's first word (LID is not EYELID's)."""
    frames = []
    counts = tag_counts(wordnet)
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
        data = _synsets(wordnet, pos)
        frames.append(
            index.join(data, on=["offset", "lemma"])  # NICE: not the city, written Nice
            .sort("lemma", "order")
            .with_columns(pl.int_range(pl.len()).over("lemma").alias("sense"))
            # cntlist.rev names some satellites by an older head (abandoned%5:00:00:forsaken:00 where the data
            # has uninhabited): a lemma's lexicographer file and lex id identify its sense alone.
            .with_columns(pl.col("key").str.extract(r"^(\S+%\d:\d\d:\d\d):", 1).alias("sense_id"))
            .join(counts, on="sense_id", how="left", maintain_order="left")
            .select(
                "lemma",
                pl.lit(tag).alias("pos"),
                pl.lit(rank).alias("rank"),
                "tagged",
                "sense",
                "gloss",
                "domains",
                "offset",
                "key",
                pl.col("count").fill_null(0),
                "heads",
            )
        )
    return pl.concat(frames)


SS_TYPE = {"n": 1, "v": 2, "a": 3, "r": 4, "s": 5}


def _synsets(wordnet: dict[str, bytes], pos: str) -> pl.DataFrame:
    """(`offset`, `lemma`, `key`, `domains`, `gloss`): one row per word a synset of data.<pos> writes exactly
    as given (`lemma`: lower case ones are a lemma's own), with its sense key (sense_keys)."""
    line = pl.col("line")
    words = line.str.extract(SYNSET_WORDS, 1).str.strip_chars_end(" ").str.split(" ")
    data = (
        _lines(wordnet, f"data.{pos}")
        .to_frame()
        .select(
            "line",
            line.str.splitn(" ", 2).struct.field("field_0").alias("offset"),
            line.str.slice(9, 2).alias("lexfile"),
            line.str.slice(12, 1).alias("ss_type"),
            words.list.gather_every(2).list.eval(pl.element().str.replace(r"\(.*\)$", "")).alias("written"),
            words.list.gather_every(2, offset=1).alias("lex_id"),
            line.str.extract(r" & (\d{8}) a ", 1).alias("head_offset"),
            line.str.extract_all(r";u \d{8}").list.eval(pl.element().str.slice(3)).alias("domains"),
            line.str.splitn(" | ", 2)
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
    two = pl.col("lex_id").str.to_integer(base=16).cast(pl.String).str.zfill(2)
    heads = data.select(
        pl.col("offset").alias("head_offset"),
        pl.col("written").list.first().str.to_lowercase().alias("head_word"),
        pl.col("lex_id").list.first().str.to_integer(base=16).cast(pl.String).str.zfill(2).alias("head_id"),
    )
    satellite = pl.col("ss_type") == "s"
    return (
        data.drop("line")
        .with_columns(pl.int_ranges(pl.col("written").list.len()).alias("place"))
        .explode("written", "lex_id", "place")
        .join(heads, on="head_offset", how="left", maintain_order="left")
        .select(
            "offset",
            pl.col("written").alias("lemma"),
            pl.format(
                "{}%{}:{}:{}:{}:{}",
                pl.col("written").str.to_lowercase(),
                pl.col("ss_type").replace_strict(SS_TYPE, return_dtype=pl.String),
                "lexfile",
                two,
                pl.when(satellite).then("head_word").otherwise(pl.lit("")),
                pl.when(satellite).then("head_id").otherwise(pl.lit("")),
            ).alias("key"),
            (pl.col("place") == 0).alias("heads"),
            "domains",
            "gloss",
        )
        .unique(["offset", "lemma"], keep="first", maintain_order=True)
    )


def tag_counts(wordnet: dict[str, bytes]) -> pl.DataFrame:
    """(`sense_id`, `count`): the corpus's tags of each sense, from cntlist.rev (`sense_key sense_number
    tag_cnt`), `sense_id` the key without its head (`abandoned%5:00:00`); an empty table when the folder has no
    such file (a small test WordNet)."""
    schema = {"sense_id": pl.String, "count": pl.Int64}
    if not any(path.rsplit("/", 1)[-1] == "cntlist.rev" for path in wordnet):
        return pl.DataFrame(schema=schema)
    lines = _lines(wordnet, "cntlist.rev")
    bad = lines.filter(~lines.str.contains(r"^\S+%\d:\d\d:\d\d:\S*:\S* \d+ \d+$"))
    if bad.len():
        raise InputFormatError(f"WordNet file cntlist.rev: not a count line: {bad[0][:60]!r}")
    fields = lines.str.split(" ")
    return (
        pl.DataFrame({"key": fields.list.first(), "count": fields.list.last().cast(pl.Int64)})
        .group_by(pl.col("key").str.extract(r"^(\S+%\d:\d\d:\d\d):", 1).alias("sense_id"))
        .agg(pl.col("count").sum())
        .sort("sense_id")
    )


# The usage domains whose sense a dual-use word shows after its everyday one, with the label it is shown by
# when its gloss does not already carry one (CHINK: `(ethnic slur) offensive term for ...`).
LABELLED = {"ethnic slur": "ethnic slur", "vulgarism": "vulgar", "profanity": "profane"}


def glosses(
    table: pl.DataFrame,
    every: pl.DataFrame,
    other: pl.DataFrame | None = None,
    chosen: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """(`lemma`, `pos`, `rank`, `gloss`, `tagged`): the main lower-case sense of each lemma per part of
    speech that reads on its own; `rank` orders a lemma's parts of speech by their tagged-sense counts
    (the part of speech the corpus saw most comes first), then n, v, adj, adv; `tagged` that count.

    The main sense is WordNet's first (the most frequent in its tagged corpus), but never a slur or a
    vulgarism while the part of speech has another sense: such a sense (the first WordNet lists) then
    follows the word's others, labelled, as a row of rank 100 and more (CHINK: `a narrow opening ... [n] /
    make or emit a high sound [v] / (ethnic slur) offensive term for ... [n]`). Where the corpus tagged none
    of a part of speech's senses, the one another dictionary's first current sense agrees with leads
    (`other`: `lemma`, `pos`, `gloss`; agreeing_senses). The rest of the evidence, the reviewed table's choices
    (`chosen`: `key`) first, is stages/sources/wordnet_order.py's. `table`: senses(); `every`: its senses'
    domains (sense_domains) of OFFENSIVE_DOMAINS and LATER_DOMAINS (`tables` reads both)."""
    # Some noun glosses leave their head noun to the synset's hypernym: BRANDY `distilled from wine or
    # fermented fruit juice`, CURACAO `flavored with sour orange peel`. Alone they do not read.
    headless = (pl.col("pos") == "n") & pl.col("gloss").str.contains(r"^[a-z]+ed (?:with|by|from|in|for) ")
    domains = every.filter(pl.col("domain").is_in(list(LABELLED))).unique(["lemma", "pos", "sense"], keep="first")
    later = every.filter(pl.col("domain").is_in(LATER_DOMAINS)).select("lemma", "pos", "sense").unique()
    picked = (chosen if chosen is not None else pl.DataFrame(schema={"key": pl.String})).select("key").unique()
    kept = (
        table.filter(~headless)
        .join(domains, on=["lemma", "pos", "sense"], how="left")
        .join(later.with_columns(pl.lit(True).alias("later")), on=["lemma", "pos", "sense"], how="left")
        .join(picked.with_columns(pl.lit(True).alias("chosen")), on="key", how="left")
        .with_columns(
            # SNATCH's `obscene terms for female genitals` has no usage domain: its gloss says it.
            (pl.col("domain").is_not_null() | pl.col("gloss").str.contains(r"^obscene ")).alias("labelled"),
            pl.col("later", "chosen").fill_null(False),
        )
    )
    lead = (
        agreeing_senses(kept.filter(~pl.col("labelled")), other).with_columns(pl.lit(True).alias("agrees"))
        if other is not None
        else pl.DataFrame(schema={"lemma": pl.String, "pos": pl.String, "sense": pl.Int64, "agrees": pl.Boolean})
    )
    kept = kept.join(lead, on=["lemma", "pos", "sense"], how="left").with_columns(pl.col("agrees").fill_null(False))
    kept = leading(pl.concat([kept, said_again(kept)], how="horizontal"))
    main = kept.unique(["lemma", "pos"], keep="first", maintain_order=True).join(
        unsaid(kept), on=["lemma", "pos"], how="anti"
    )
    totals = table.group_by("lemma", "pos").agg(pl.col("count").sum().alias("total"))
    order = pos_order(main, totals)
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


def tables(wordnet: dict[str, bytes]) -> dict[str, pl.DataFrame]:
    """The WordNet folder read once, as stage 0 writes it: `wordnet_senses` (senses), `wordnet_domains`
    (sense_domains of OFFENSIVE_DOMAINS and LATER_DOMAINS: data.noun read once for glosses and the offensive
    rules), `wordnet_names` (proper_lemmas, as `lemma`) and `wordnet_exceptions` (exception_lists)."""
    table = senses(wordnet)
    return {
        "wordnet_senses": table,
        "wordnet_domains": sense_domains(wordnet, table, OFFENSIVE_DOMAINS + LATER_DOMAINS),
        "wordnet_names": proper_lemmas(wordnet, table).to_frame(),
        "wordnet_exceptions": exception_lists(wordnet),
    }


def offensive_lemmas(wordnet: dict[str, bytes], table: pl.DataFrame | None = None) -> pl.DataFrame:
    """(`lemma`, `domain`): lemmas with a lower-case sense in one of OFFENSIVE_DOMAINS (`table`: the
    senses() of these files, when the caller has them already)."""
    return sense_domains(wordnet, table).select("lemma", "domain").unique().sort("lemma", "domain")


def proper_lemmas(wordnet: dict[str, bytes], table: pl.DataFrame | None = None) -> pl.Series:
    """Single-word lemmas that WordNet writes only with capitals (BERMUDAS, HAITI, SAM: a place, a
    person, an acronym): no sense of theirs is a Scrabble word's (`table`: the senses() of these files)."""
    indexed = pl.concat([_lines(wordnet, f"index.{pos}").str.extract(r"^([a-z]+) ", 1).drop_nulls() for pos in POS])
    lower = (senses(wordnet) if table is None else table)["lemma"]
    return indexed.filter(~indexed.is_in(lower.implode())).unique().sort().rename("lemma")


def exception_lists(wordnet: dict[str, bytes]) -> pl.DataFrame:
    """(`lower`, `base`, `pos`): each line of the exception lists {noun,verb,adj,adv}.exc, an irregular form
    and its first base (MICE -> mouse; `base` null on a line without one), in the files' order."""
    return pl.concat(
        [
            _lines(wordnet, f"{pos}.exc")
            .str.split(" ")
            .to_frame("f")
            .select(
                pl.col("f").list.first().alias("lower"),
                pl.col("f").list.get(1, null_on_oob=True).alias("base"),
                pl.lit(tag).alias("pos"),
            )
            for pos, tag in POS.items()
        ]
    )


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


def sense_domains(
    wordnet: dict[str, bytes], table: pl.DataFrame | None = None, names: tuple[str, ...] = OFFENSIVE_DOMAINS
) -> pl.DataFrame:
    """(`lemma`, `pos`, `sense`, `domain`): each lower-case sense (senses()' key) in one of the usage domains
    `names` (OFFENSIVE_DOMAINS unless given), once per such domain, `domain` spelled with spaces ("ethnic slur")."""
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
            for name in names
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
