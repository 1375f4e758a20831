"""Stage 3, rareness: how common each word is, from SCOWL's size levels and wordfreq's frequencies.

Reads build/01_lexicon.parquet (`id`, `word`), every file of the folder
named by config key `scowl`, and wordfreq's frequency list (config key `wordfreq`: a file of the
installed package, read by stages/sources/wordfreq.py). SCOWL files are `<category>-words.<level>` and
hold only the words new at that level, so a word's level is the lowest level
of any file it appears in. Possessive lines (`ability's`) are dropped; a word
matches an entry equal to its lower-cased form (accented entries never match
A-Z words). Files are UTF-8; upstream SCOWL releases may be Latin-1, which is
decoded as such when a file is not valid UTF-8. Files of other names are
ignored and counted.

SCOWL's main lists (english, american, british, british_z, canadian) hold the words people use
(Australian English's own lists count as grade-1 variants: REGIONAL); its variant lists (variant_1/2/3 and
the regional `*_variant_N` lists) hold other spellings of them, from "good"
(grade 1) to "seldom used" (grade 3), and list SHOON, IKON and TIEING at level
10-20. So a word's level is the lowest of its entries' levels, where a variant
entry counts above its list's level: from the everyday level (config
`rareness_labels.common`, 35) when it lists lower, it moves up one SCOWL level
per grade (variant_1 at 10-35 counts 40, variant_2 50, variant_3 55; variant_1
at 50 counts 55). A variant-only word is thus never everyday and always rarer
than a main-list word of its list level; a word in a main list keeps that
list's level. SCOWL's levels are coarse, so everyday takes a second source: a word
SCOWL puts at the everyday level or below that wordfreq sees less often than
`everyday_min_zipf` (or not at all) counts at the level past everyday (40), in
the main lists too (`_seen_often`).

Config `rareness_by_level` maps each level (and `absent`) to a rareness score.

Without SCOWL (config `rareness_source = "wordfreq"`, a language build: docs/languages.md), a word's level
comes from wordfreq's list for config `language` alone: each list word is looked up as the list spells it
(lower-cased, accents kept: `árbol`, Zipf 4.58, where the folded `arbol` has 3.50), then folded into the
alphabet; a folded word takes the highest Zipf of its spellings, mapped onto SCOWL's levels by
stages/sources/zipf_levels.py (main_level alike; usa and brit false). So it also reads every list file the
lexicons name (config `lexicons`).

Writes build/03_rareness.parquet, one row per word, key `id`:
- id u32, word str
- scowl_level u8: the word's level (10..95) by the rule above, null when no SCOWL list has it
- main_level u8: lowest level among SCOWL's main lists (grade 0 above), null when none has the word:
  what a lexicon's `max_scowl_level` filter reads (stage 5); not exported
- rareness u32: from the config table by level (`absent` for null)
- usa bool: in an `english` or `american` list at any level
- brit bool: in an `english`, `british` or `british_z` list at any level
"""

from __future__ import annotations

import re

import polars as pl

from pipeline.columns import Col
from pipeline.progress import track
from pipeline.schemas import RARENESS
from pipeline.stage import Output, Stage
from pipeline.wording import counted as said_count, words as said_words
from pipeline.alphabet import TABLE as ALPHABETS, alphabet
from stages.sources.wordfreq import zipf_table
from stages.sources.wordlists import spellings
from stages.sources.zipf_levels import levels as zipf_levels

FILE_NAME = re.compile(r"(?:^|/)(?P<category>[a-z_0-9]+)-words\.(?P<level>\d{2})$")
VARIANT = re.compile(r"variant_(?P<grade>\d)$")  # variant_2, british_variant_1, ...
LEVELS = (10, 20, 35, 40, 50, 55, 60, 70, 80, 95)  # SCOWL's size levels, in order
# Australian English's own words (SOOK, GALAH, JUMBUCK, GREENIE at level 35) are not everyday to most
# players (judged: tests/data/everyday_known_judged.tsv): its lists count as grade-1 variants, a level past
# everyday, never below their own level. Canada's 15 own everyday entries (racquet, yogourt) are spellings.
REGIONAL = ("australian",)
USA = ("english", "american")
BRIT = ("english", "british", "british_z")


def scowl_entries(scowl: dict[str, bytes]) -> tuple[pl.DataFrame, list[str]]:
    """(`entry`, `level`, `grade`, `usa`, `brit`) for every line of every SCOWL list that could be a lexicon word
    (lower-case a-z: possessives and accented entries cannot match); names of files skipped. One frame
    built from all the lists' lines at once: a frame per file was a third of the stage."""
    lines: list[str] = []
    per_file: dict[str, list] = {"lines": [], "level": [], "grade": [], Col.usa: [], Col.brit: []}
    skipped = []
    for name, data in track(scowl.items(), "SCOWL lists", total=len(scowl)):
        m = FILE_NAME.search(name)
        if m is None:
            skipped.append(name)
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("latin-1")
        found = text.splitlines()
        if not found:  # no row to repeat its values for (polars < 2 explodes an empty list to a null)
            continue
        lines += found
        variant = VARIANT.search(m["category"])
        grade = int(variant["grade"]) if variant else 1 if m["category"] in REGIONAL else 0  # 0: a main list
        values = (len(found), int(m["level"]), grade, m["category"] in USA, m["category"] in BRIT)
        for key, value in zip(per_file, values):
            per_file[key].append(value)
    files = pl.DataFrame(
        per_file,
        schema={"lines": pl.UInt32, "level": pl.UInt8, "grade": pl.UInt8, Col.usa: pl.Boolean, Col.brit: pl.Boolean},
    )
    entries = files.select(pl.col("level", "grade", Col.usa, Col.brit).repeat_by("lines").explode()).with_columns(
        pl.Series("entry", lines, dtype=pl.String)
    )
    return entries.filter(pl.col("entry").str.contains("^[a-z]+$")), skipped


def counted_level(level: int, grade: int, everyday: int) -> int:
    """The level an entry counts at: its list's level for a main list (grade 0); for a variant list of
    grade g, g SCOWL levels above the higher of its list's level and the everyday level (95 at most)."""
    if grade == 0:
        return level
    return LEVELS[min(LEVELS.index(max(level, everyday)) + grade, len(LEVELS) - 1)]


def build_rareness(
    lexicon: pl.DataFrame,
    scowl: dict[str, bytes],
    wordfreq: dict[str, bytes],
    rareness_by_level: dict[str, int],
    rareness_labels: dict[str, int],
    everyday_min_zipf: float,
    rareness_source: str = "scowl",
    language: str = "en",
    lexicon_files: dict[str, bytes] | None = None,
    lexicons: dict | None = None,
) -> dict:
    if rareness_source == "wordfreq":
        return _by_zipf(lexicon, wordfreq, rareness_by_level, lexicon_files or {}, lexicons or {}, language)
    entries, skipped = scowl_entries(scowl)
    everyday = rareness_labels["common"]
    counted = {
        (level, grade): counted_level(level, grade, everyday) for level in LEVELS for grade in range(4)
    }  # a handful of pairs: mapped by a join, not a Python call per entry
    table_of_levels = pl.DataFrame(
        {
            "level": [k[0] for k in counted],
            "grade": [k[1] for k in counted],
            "counted": list(counted.values()),
        },
        schema={"level": pl.UInt8, "grade": pl.UInt8, "counted": pl.UInt8},
    )
    entries = entries.join(table_of_levels, on=["level", "grade"], how="left").with_columns(
        pl.coalesce("counted", "level").alias("level")
    )
    per_entry = entries.group_by("entry").agg(
        pl.col("level").min().alias(Col.scowl_level),
        pl.col("level").filter(pl.col("grade") == 0).min().alias("main_level"),
        pl.col(Col.usa).any(),
        pl.col(Col.brit).any(),
    )
    table = {int(k): v for k, v in rareness_by_level.items() if k != "absent"}
    (name, data), *_ = wordfreq.items()
    seen, rarely_seen = _seen_often(lexicon, per_entry, zipf_table(name, data), everyday, everyday_min_zipf)
    result = (
        seen.with_columns(
            pl.col(Col.scowl_level)
            .replace_strict(table, default=rareness_by_level["absent"], return_dtype=pl.UInt32)
            .alias(Col.rareness),
            pl.col(Col.usa, Col.brit).fill_null(False),
        )
        .sort(Col.id)
        .select(list(RARENESS))
    )
    levels = result[Col.scowl_level].value_counts().sort(Col.scowl_level).rows()
    notes = [
        "words per SCOWL level: " + ", ".join(f"{lvl or 'absent'} {n:,}" for lvl, n in levels),
        f"{said_words(rarely_seen)} of SCOWL's everyday levels that wordfreq rarely sees (Zipf below "
        f"{everyday_min_zipf}) count at level {_past(everyday)}",
    ]
    if skipped:
        notes.append(
            f"{said_count(len(skipped), 'file')} ignored (not <category>-words.<level>): {', '.join(skipped[:5])}"
        )
    return {"rareness": result, "notes": notes}  # not a column: output names


def _by_zipf(
    lexicon: pl.DataFrame,
    wordfreq: dict[str, bytes],
    rareness_by_level: dict[str, int],
    lexicon_files: dict[str, bytes],
    lexicons: dict,
    language: str,
) -> dict:
    """Levels without SCOWL: each list word looked up in wordfreq's list for the language as the list spells
    it (lower-cased: wordfreq's entries are), then folded; a folded word takes the highest Zipf of its
    spellings, mapped onto SCOWL's levels by stages/sources/zipf_levels.py (main_level alike)."""
    (name, data), *_ = wordfreq.items()
    written = pl.concat(
        [
            spellings(entry["file"], lexicon_files[entry["file"]], entry.get("drop_capitalised", False))
            for entry in lexicons.values()
            if "file" in entry
        ]
        or [pl.Series(Col.word, [], pl.String)]
    ).unique()
    found = pl.DataFrame({"entry": written.str.to_lowercase(), "written": written}).join(
        zipf_table(name, data), on="entry", how="inner"
    )
    folded, refused = alphabet(language).fold_column(found["written"])
    best = found.with_columns(folded.alias(Col.word)).filter(~refused).group_by(Col.word).agg(pl.col("zipf").max())
    words = lexicon.select(Col.id, Col.word).join(best, on=Col.word, how="left")
    level = zipf_levels(words["zipf"].alias(Col.scowl_level))
    table = {int(k): v for k, v in rareness_by_level.items() if k != "absent"}
    result = (
        words.with_columns(
            level, level.alias("main_level"), pl.lit(False).alias(Col.usa), pl.lit(False).alias(Col.brit)
        )
        .with_columns(
            pl.col(Col.scowl_level)
            .replace_strict(table, default=rareness_by_level["absent"], return_dtype=pl.UInt32)
            .alias(Col.rareness)
        )
        .sort(Col.id)
        .select(list(RARENESS))
        .cast(RARENESS)
    )
    levels = result[Col.scowl_level].value_counts().sort(Col.scowl_level).rows()
    notes = [
        f"levels from wordfreq ({name}): Zipf mapped onto SCOWL's levels (stages/sources/zipf_levels.py); "
        f"{words['zipf'].is_not_null().sum():,} of {words.height:,} words seen",
        "words per level: " + ", ".join(f"{lvl or 'absent'} {n:,}" for lvl, n in levels),
    ]
    return {"rareness": result, "notes": notes}  # not a column: output names


def _past(everyday: int) -> int:
    """The SCOWL level past the everyday one (95 at most)."""
    return LEVELS[min(LEVELS.index(everyday) + 1, len(LEVELS) - 1)]


def _seen_often(
    lexicon: pl.DataFrame, per_entry: pl.DataFrame, zipf: pl.DataFrame, everyday: int, min_zipf: float
) -> tuple[pl.DataFrame, int]:
    """The lexicon's words with their SCOWL levels, where a word SCOWL rates everyday but wordfreq sees less
    often than `min_zipf` (or not at all) counts at the level past everyday, in its main lists too: SCOWL's
    levels are coarse, and a second source keeps WIVE, LADE and WANNER from passing as everyday. A word's
    own frequency decides, never its base's: the judges knew odd forms of known words no better than other
    rare words (AUSTERER, CENSUSED, FLEETED: tests/data/everyday_known_judged.tsv)."""
    past = _past(everyday)
    words = (
        lexicon.select(Col.id, Col.word, pl.col(Col.word).str.to_lowercase().alias("entry"))
        .join(per_entry, on="entry", how="left")
        .join(zipf, on="entry", how="left")
    )
    rare = pl.col("zipf").fill_null(0.0) < min_zipf
    demoted = words.filter(rare & (pl.col(Col.scowl_level) <= everyday)).height
    moved = {
        c: pl.when(rare & (pl.col(c) <= everyday)).then(pl.lit(past, pl.UInt8)).otherwise(pl.col(c)).alias(c)
        for c in (Col.scowl_level, "main_level")
    }
    return words.with_columns(**moved).drop("zipf"), demoted


STAGE = Stage(
    number=3,
    name="rareness",  # not a column: the stage's name
    transform=build_rareness,
    reads=("lexicon",),  # not a column: stage 1's output
    raw=("scowl", "wordfreq", "lexicon_files"),  # not a column: the lists, read as they spell words (wordfreq)
    settings=("rareness_by_level", "rareness_labels", "everyday_min_zipf", "rareness_source", "language", "lexicons"),
    writes={"rareness": Output("03_rareness.parquet", RARENESS)},  # not a column: an output name
    assets=(ALPHABETS,),  # pipeline/languages.toml: a changed fold or order changes the output
)
