"""Stage 7, export: the artifact solvers consume, build/export/ (its schema_version: columns.SCHEMA_VERSION).

Reads every intermediate table: 01_lexicon (and the counts of 01_skipped and
01_warnings), 02_definitions, 03_rareness, 04_links, 05_groups and
06_longest; and, as
`digests` from the runner (never their bytes), the sha256 and size of the raw
inputs (csw, owl, scowl, wordnet, gcide, supplement, offensive, cuss) for the manifest; and the
reviewed offensive list itself, whose words kept from `offensive` the manifest names (`offensive_cleared`)
for verify.
Writes ladder.sqlite in its scratch folder (the runner's) and hands it over as
a file, which the runner moves into the export folder.

Writes the folder build/export/ (swapped in whole by the runner):
- words.parquet, one row per word sorted by `id`, its columns those of the column table
  (pipeline/columns.py WORDS: each one's dtype, nullability and meaning; the per-lexicon in_<name>,
  group_<name>, group_<name>_edit in the config's lexicon order); the columns the table derives from others
  (its `derive` rules: length) are computed here by those rules.
- groups.parquet, one row per group: lexicon str (its name), mode str
  (sub|edit), group_id u32, size u32, length u8 (null when a group mixes
  lengths), example str (the group's first word); sorted by those keys.
- longest.parquet, stage 6's table: per group of two or more words (lexicon,
  mode, group_id, size, length) its diameter (the longest shortest ladder)
  and start, end: the alphabetically first pair that far apart.
- ladder.sqlite: the same data for solvers that speak SQL. One table `words`
  (every column above; `id` the primary key, booleans as 0/1, the two lists as
  JSON array text such as `[12,4077]`) with an index on each group column, so
  that one group with its links is one query:
  `SELECT * FROM words WHERE group_csw = ?` (json_each() unnests a list when
  a query wants a row per link). `PRAGMA user_version` = schema_version.
- manifest.json: schema_version; `columns`, words.parquet's column names in order; `lexicons`, the lexicons it holds in column order, each with how it was
  made ({name, made, words, and file/format, from, add, remove, max_scowl_level as configured}); sha256 and
  size of every input file; sha256 and rows of every other export file; the config used; counts. No
  timestamps: the same inputs give the same bytes.
- summary.txt: for people: words per length, groups per length with the
  largest, the longest ladder per length, most-linked words per length, definition coverage (overall, by
  kind: a list's own, headword, inflection, derivation; per source; per SCOWL band and source) and
  the words of level <= 35 still without one;
  the word-list lines skipped and warned about.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
import importlib
import json
import textwrap

import polars as pl

from pipeline.io import parquet_bytes, sha256, sha256_file
from pipeline.columns import (
    GROUP_SIZES,
    GROUPS_FILE,
    LONGEST,
    LONGEST_FILE,
    MANIFEST_FILE,
    SCHEMA_VERSION,
    SQLITE_FILE,
    SUMMARY_FILE,
    WORDS_FILE,
    LINK_KINDS,
    Col,
    definition_kind,
    derived_columns,
    group_columns,
    how_made,
    in_column,
    lexicons_of,
    words_schema,
)
from pipeline.config import LEXICON_FILES, PATH_KEYS
from pipeline.sqlite import sqlite_file
from pipeline.schemas import check_schema
from pipeline.stage import Output, Stage
from stages.rules.offensive import reviewed_list

WORDS_ROW_GROUP = 16_384  # small row groups: a solver's filter on `word` or `id` skips most of the file
LACKING_LEVEL = 35  # every word this common should have a definition: the summary lists those that do not


def neighbour_lists(links: pl.DataFrame, kind: str, name: str, words: int) -> pl.DataFrame:
    """`id`, `name`: each word's neighbours by links of `kind`, ascending (empty list for none), for every id
    from 0 to the largest of `words` - 1 and the ids the links name. (A CSR in numpy made an Arrow list
    array: the concat-sort-group_by-join of both directions took 0.47 s, an ordered group_by 0.45 s.)"""
    import numpy as np
    import pyarrow as pa

    chosen = links.filter(pl.col(Col.kind) == kind)
    src, dst = chosen[Col.src].to_numpy(), chosen[Col.dst].to_numpy()
    word, other = np.concatenate([src, dst]).astype(np.int64), np.concatenate([dst, src])
    n = max(words, int(word.max()) + 1 if len(word) else 0)
    order = np.argsort(word * n + other)  # by word, then neighbour
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(word, minlength=n), out=offsets[1:])
    lists = pa.LargeListArray.from_arrays(pa.array(offsets), pa.array(other[order].astype(np.uint32)))
    return pl.DataFrame({Col.id: np.arange(n, dtype=np.uint32), name: pl.Series(lists)})


def _attach(frame: pl.DataFrame, table: pl.DataFrame) -> pl.DataFrame:
    """`frame` with the columns of `table` by `id` (a left join): side by side when both list the same ids
    in the same order, as the stages' tables do (the joins took half a second of the stage)."""
    if table[Col.id].equals(frame[Col.id]):
        return pl.concat([frame, table.drop(Col.id)], how="horizontal")
    return frame.join(table, on=Col.id, how="left")


def build_words(lexicon, definitions, rareness, links, groups) -> pl.DataFrame:
    names = lexicons_of(groups.columns)
    words = lexicon.select(Col.id, Col.word)
    words = _attach(words, groups.select(Col.id, *map(in_column, names)))
    words = _attach(words, rareness.drop(Col.word, "main_level", strict=False))
    # The definitions always by a join: its gather lays the strings out afresh, and the Parquet writer's pages
    # follow that layout (side by side, words.parquet held the same rows in other bytes).
    words = words.join(definitions.drop(Col.word), on=Col.id, how="left")
    lists = [neighbour_lists(links, kind, column, lexicon.height) for column, kind in LINK_KINDS.items()]
    for table in (groups.drop(*map(in_column, names)), *lists):
        words = _attach(words, table)
    words = words.with_columns(pl.col(Col.links, Col.edit_links).fill_null(pl.lit([], dtype=pl.List(pl.UInt32))))
    words = words.with_columns(**derived_columns())  # length, ...: by the column table's rules
    schema = words_schema(names)
    return check_schema(words.sort(Col.id).select(list(schema)), schema, "export words.parquet")


def build_group_table(words: pl.DataFrame) -> pl.DataFrame:
    """One row per group of each labeling, in numpy: a polars group_by over the words (filtered, so with
    their definitions copied) took 0.4 s and 126 MiB."""
    import numpy as np

    tables = []
    for (lexicon, mode), column in sorted(group_columns(lexicons_of(words.columns)).items()):  # lexicon, mode, id
        members = words.select(Col.id, Col.length, Col.word, column).drop_nulls(column)
        label = members[column].to_numpy().astype(np.int64)
        order = np.argsort((label << 32) | members[Col.id].to_numpy())  # by group, then word id
        label, length = label[order], members[Col.length].to_numpy()[order]
        first = np.flatnonzero(np.r_[True, label[1:] != label[:-1]]) if len(label) else np.zeros(0, dtype=np.int64)
        shortest, longest = np.minimum.reduceat(length, first), np.maximum.reduceat(length, first)
        tables.append(
            pl.DataFrame(
                {
                    Col.lexicon: pl.Series([lexicon] * len(first), dtype=pl.String),
                    Col.mode: pl.Series([mode] * len(first), dtype=pl.String),
                    Col.group_id: label[first].astype(np.uint32),
                    Col.size: np.diff(np.r_[first, len(label)]).astype(np.uint32),
                    Col.length: pl.Series(shortest).scatter(np.flatnonzero(shortest != longest), None),
                    Col.example: members[Col.word].gather(order[first]),
                }
            )
        )
    table = pl.concat(tables, rechunk=True)
    return check_schema(table, GROUP_SIZES, "export groups.parquet")


def coverage_by_band(words: pl.DataFrame) -> pl.DataFrame:
    """Per SCOWL band (<=35, 40-50, 55-60, 70-80, 95/none): words, defined, and a count per source."""
    level = pl.col(Col.scowl_level)
    band = (
        pl.when(level <= 35)
        .then(pl.lit("<=35"))
        .when(level <= 50)
        .then(pl.lit("40-50"))
        .when(level <= 60)
        .then(pl.lit("55-60"))
        .when(level <= 80)
        .then(pl.lit("70-80"))
        .otherwise(pl.lit("95/none"))
    )
    framed = words.select(band.alias("band"), Col.definition_source)
    order = ["<=35", "40-50", "55-60", "70-80", "95/none"]
    totals = (
        pl.DataFrame({"band": order})
        .join(
            framed.group_by("band").agg(
                pl.len().alias("words"), pl.col(Col.definition_source).count().alias("defined")
            ),
            on="band",
            how="left",
        )
        .fill_null(0)
    )
    per_source = framed.drop_nulls(Col.definition_source)
    if per_source.height == 0:
        return totals
    counts = per_source.pivot(
        on=Col.definition_source,
        index="band",
        values=Col.definition_source,
        aggregate_function="len",
        sort_columns=True,
    )
    return totals.join(counts, on="band", how="left").fill_null(0)


def definition_counts(words: pl.DataFrame) -> dict[str, dict[str, int]]:
    """Defined words by kind (a list's own, headword, inflection, derivation) and by source, so that coverage is
    read beside how each definition was made (precision: `make audit`)."""
    made = words.select(Col.definition_source, definition_kind(pl.col(Col.definition_source)).alias("made"))
    return {
        "by_kind": {k: v for k, v in made["made"].drop_nulls().value_counts().sort("made").rows()},
        "by_source": {
            k: v for k, v in made[Col.definition_source].drop_nulls().value_counts().sort(Col.definition_source).rows()
        },
    }


def summary(
    words: pl.DataFrame, group_table: pl.DataFrame, problems: dict[str, int], longest: pl.DataFrame, common_level: int
) -> str:
    """summary.txt; `common_level` the highest SCOWL level labelled common (config `rareness_labels`)."""
    out = ["Word-ladder dictionary summary", ""]
    names = lexicons_of(words.columns)
    first = names[0]  # the groups and longest ladders shown are the first lexicon's (csw by default)
    per_length = (
        words.group_by(Col.length)
        .agg(pl.len().alias("words"), *[pl.col(in_column(name)).sum().alias(name) for name in names])
        .sort(Col.length)
    )
    heading = f"{'length':>6} {'words':>9} "  # not a column: a heading
    out += ["Words per length", heading + " ".join(f"{name:>9}" for name in names)]
    out += [f"{row[0]:>6} " + " ".join(f"{n:>9,}" for n in row[1:]) for row in per_length.rows()]

    out += [
        "",
        f"{first.upper()} groups per length (substitution links only)",
        f"{'length':>6} {'groups':>9} {'largest':>9}  example of the largest",  # not a column: a heading
    ]
    sub = (
        group_table.filter((pl.col(Col.lexicon) == first) & (pl.col(Col.mode) == "sub"))
        .sort(Col.size, Col.group_id, descending=[True, False])
        .group_by(Col.length, maintain_order=True)
        .agg(pl.len().alias("groups"), pl.col(Col.size).first(), pl.col(Col.example).first())
        .sort(Col.length)
    )
    out += [f"{n:>6} {g:>9,} {s:>9,}  {e}" for n, g, s, e in sub.rows()]

    out += [
        "",
        f"Longest {first.upper()} ladder per length (substitution links; the first pair at that many steps)",
        f"{'length':>6} {'steps':>9}  from - to",  # not a column: a heading
    ]
    far = (
        longest.filter((pl.col(Col.lexicon) == first) & (pl.col(Col.mode) == "sub") & pl.col(Col.length).is_not_null())
        .sort(Col.diameter, Col.group_id, descending=[True, False])
        .group_by(Col.length, maintain_order=True)
        .first()
        .sort(Col.length)
    )
    out += [
        f"{n:>6} {d:>9,}  {a} - {b}" for n, d, a, b in far.select(Col.length, Col.diameter, Col.start, Col.end).rows()
    ]

    out += ["", "Most-linked words per length (substitution links)"]
    top = (
        words.select(Col.id, Col.word, Col.length, Col.degree)
        .sort(Col.degree, Col.id, descending=[True, False])
        .group_by(Col.length, maintain_order=True)
        .head(3)
        .sort(Col.length, maintain_order=True)
    )
    for (length,), rows in top.group_by(Col.length, maintain_order=True):
        out.append(f"{length:>6}  " + ", ".join(f"{w} ({d})" for w, d in rows.select(Col.word, Col.degree).rows()))

    out += ["", "Definition coverage"]
    # Only the columns needed are filtered or sorted here and below: a whole row carries its definition.
    common = words.select(Col.scowl_level, Col.definition).filter(pl.col(Col.scowl_level) <= common_level)
    for label, frame in (("all words", words), (f"SCOWL level <= {common_level}", common)):
        have = frame[Col.definition].is_not_null().sum()
        out.append(f"  {label}: {have:,} of {frame.height:,} ({have / max(frame.height, 1):.1%})")
    kinds = definition_counts(words)
    out.append("  by kind: " + ", ".join(f"{kind} {n:,}" for kind, n in kinds["by_kind"].items()))
    out += [f"  from {source}: {n:,}" for source, n in kinds["by_source"].items()]
    bands = coverage_by_band(words)
    sources = [c for c in bands.columns if c not in ("band", "words", "defined")]
    out += [
        "",
        "Definition coverage per SCOWL band (words defined, then by source)",
        f"  {'band':<8} {'words':>8} {'defined':>8} {'share':>7}  " + " ".join(f"{s:>14}" for s in sources),
    ]
    for row in bands.rows(named=True):
        out.append(
            f"  {row['band']:<8} {row['words']:>8,} {row['defined']:>8,} "
            f"{row['defined'] / max(row['words'], 1):>7.1%}  " + " ".join(f"{row[s]:>14,}" for s in sources)
        )
    out += [
        f"  offensive words flagged: {words[Col.offensive].sum():,}; "
        f"everyday words with a vulgar sense: {words[Col.vulgar_sense].sum():,}"
    ]
    out += [
        "",
        "Word-list problems (01_skipped.parquet, 01_warnings.parquet)",
        f"  {problems['skipped_lines']:,} word-list lines skipped (--lenient), "
        f"{problems['definition_warnings']:,} definition warnings (words kept)",
    ]
    lacking = words[Col.word].filter((words[Col.scowl_level] <= LACKING_LEVEL) & words[Col.definition].is_null())
    out += ["", f"Words of SCOWL level <= {LACKING_LEVEL} without a definition: {lacking.len():,}"]
    out += textwrap.wrap(" ".join(lacking), width=100, initial_indent="  ", subsequent_indent="  ")
    return "\n".join(out) + "\n"


def build_export(
    lexicon,
    skipped,
    warnings,
    definitions,
    rareness,
    links,
    groups,
    longest,
    digests,
    lexicons,
    definition_sources,
    rareness_by_level,
    rareness_labels,
    scratch,
    offensive: dict[str, bytes] | None = None,
) -> dict:
    # ladder.sqlite (about 1 s) is built in a second thread: polars lets go of the GIL while it writes
    # the Parquet files and the group table here. Export stage, side by side, median of 4: 2.36 -> 2.13 s.
    # It is written in the scratch folder and handed over as a file: its 52 MB never sit in memory.
    # The thread first imports the writer (ADBC and pyarrow, 0.2-0.3 s) while the words are joined.
    sqlite_path = scratch / SQLITE_FILE

    def write_sqlite(words: pl.DataFrame) -> str:
        sqlite_file(words, sqlite_path)
        return sha256_file(sqlite_path)

    with ThreadPoolExecutor(1) as pool:
        pool.submit(importlib.import_module, "adbc_driver_sqlite.dbapi")
        words = build_words(lexicon, definitions, rareness, links, groups)
        sqlite = pool.submit(write_sqlite, words)
        group_table = build_group_table(words)
        problems = {"skipped_lines": skipped.height, "definition_warnings": warnings.height}
        files = {
            WORDS_FILE: parquet_bytes(words, row_group_size=WORDS_ROW_GROUP),
            GROUPS_FILE: parquet_bytes(group_table),
            LONGEST_FILE: parquet_bytes(longest),
            SQLITE_FILE: sqlite_path,
            SUMMARY_FILE: summary(words, group_table, problems, longest, rareness_labels["common"]).encode(),
        }
        # The manifest's counts are taken while the thread still writes ladder.sqlite; its files' hashes after.
        kinds = dict(links[Col.kind].value_counts().rows())
        manifest = {
            "schema_version": SCHEMA_VERSION,
            "inputs": {path: dict(digest) for path, digest in sorted(digests.items())},
            "lexicons": [
                {"name": name, "made": how_made(entry), "words": int(words[in_column(name)].sum()), **entry}
                for name, entry in lexicons.items()
            ],
            "columns": {WORDS_FILE: list(words.columns)},  # the column table's, in order (checked: build_words)
            "config": {
                "definition_sources": definition_sources,
                "rareness_by_level": rareness_by_level,
                "rareness_labels": rareness_labels,
            },
            "counts": {
                "words": words.height,
                **{f"{name}_words": int(words[in_column(name)].sum()) for name in lexicons},
                **(
                    {"owl_not_in_csw": int((words[Col.in_owl] & ~words[Col.in_csw]).sum())}
                    if {"csw", "owl"} <= set(lexicons)
                    else {}
                ),
                "list_problems": problems,
                "definitions": {
                    row["band"]: {k: v for k, v in row.items() if k != "band"}
                    for row in coverage_by_band(words).rows(named=True)
                },
                "definitions_made": definition_counts(words),
                "offensive": int(words[Col.offensive].sum()),  # not a column: the manifest's count of offensive words
                Col.vulgar_sense: int(words[Col.vulgar_sense].sum()),
                "links": {"sub": kinds.get("sub", 0), "indel": kinds.get("indel", 0)},  # not a column: link counts
                "groups": {
                    lex: {
                        mode: group_table.filter(pl.col(Col.lexicon) == lex, pl.col(Col.mode) == mode).height
                        for mode in ("sub", "edit")
                    }
                    for lex in lexicons
                },
                "longest_ladder": {
                    lex: {
                        mode: int(
                            longest.filter(pl.col(Col.lexicon) == lex, pl.col(Col.mode) == mode)[Col.diameter].max()
                            or 0
                        )
                        for mode in ("sub", "edit")
                    }
                    for lex in lexicons
                },
            },
        }
        # The words of the lexicon the reviewed list keeps from `offensive` (level clean or vulgar_sense): verify
        # (E502) lets these forms of offensive words pass.
        ((name, data),) = (offensive or {"offensive.txt": b""}).items()
        listed = reviewed_list(name, data)
        kept = {w for w, lvl in listed.items() if lvl != Col.offensive}
        manifest["offensive_cleared"] = sorted(words[Col.word].filter(words[Col.word].is_in(sorted(kept))))
        hashes = {name: sha256(data) for name, data in files.items() if name != SQLITE_FILE}
        hashes[SQLITE_FILE] = sqlite.result()
    rows = {
        WORDS_FILE: words.height,
        GROUPS_FILE: group_table.height,
        LONGEST_FILE: longest.height,
        SQLITE_FILE: words.height,
        SUMMARY_FILE: files[SUMMARY_FILE].count(b"\n"),
    }
    manifest["files"] = {name: {"sha256": hashes[name], "rows": rows[name]} for name in files}
    files[MANIFEST_FILE] = (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()
    return {"export": files}


STAGE = Stage(
    number=7,
    name="export",
    transform=build_export,
    reads=("lexicon", "skipped", "warnings", "definitions", "rareness", "links", "groups", "longest"),  # not a column
    raw=("offensive",),  # not a column: the reviewed list, for the manifest's offensive_cleared
    digests=(LEXICON_FILES, *PATH_KEYS),  # every raw input, recorded in the manifest
    settings=("lexicons", "definition_sources", "rareness_by_level", "rareness_labels"),
    helpers=("stages.rules.offensive", "stages.sources.wordlists"),  # the reviewed list's reader
    scratch=True,  # ladder.sqlite is written there and moved into place
    writes={
        "export": Output(
            "export",
            members={
                WORDS_FILE: words_schema,  # of the lexicons' names: build_words checks it
                GROUPS_FILE: GROUP_SIZES,
                LONGEST_FILE: LONGEST,
                SQLITE_FILE: None,
                SUMMARY_FILE: None,
                MANIFEST_FILE: None,
            },
        )
    },
)
