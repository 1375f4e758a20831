"""Stage 7, export: the artifact solvers consume, build/export/ (its schema_version: columns.SCHEMA_VERSION).

Reads every intermediate table: 01_lexicon (and the counts of 01_skipped and
01_warnings), 02_definitions, 03_rareness, 04_links, 05_groups and
06_longest; and, as
`digests` from the runner (never their bytes), the sha256 and size of the raw
inputs for the manifest (every file the lexicons name: each list, add-list and
remove-list; and scowl, wordnet, gcide, supplement, offensive, cuss); and the
reviewed offensive list itself, whose words kept from `offensive` the manifest names (`offensive_cleared`)
for verify.
Writes ladder.sqlite in its scratch folder (the runner's) and hands it over as
a file, which the runner moves into the export folder.

Writes the folder build/export/ (swapped in whole by the runner):
- words.parquet, one row per word sorted by `id`, its columns those of the column table
  (pipeline/columns.py WORDS: each one's dtype, nullability and meaning; the per-lexicon in_<name>,
  group_<name>, group_<name>_edit in the config's lexicon order, for each lexicon stage 5 made: its
  05_groups columns; a default lexicon that ended empty is left out of every file here); the columns the table derives from others
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
  size of every input file; sha256 and rows of every other export file; the config used; counts; `alphabet`
  ({language, name, letters, table}: pipeline/alphabet.py, the solvers' typed-word rule). No
  timestamps: the same inputs give the same bytes.
- summary.txt: for people (stages/reports/summary.py writes the text): words per length, groups per
  length with the largest, the longest ladder per length, most-linked words per length, definition
  coverage (overall, by kind: a list's own, headword, inflection, derivation; per source; per SCOWL band
  and source) and the words of level <= 35 still without one; the word-list lines skipped and warned
  about.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
import importlib
import json

import polars as pl

from pipeline import graph
from pipeline.io import parquet_bytes, sha256, sha256_file
from pipeline.alphabet import TABLE as ALPHABETS, alphabet
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
    derived_columns,
    group_columns,
    how_made,
    in_column,
    lexicons_of,
    words_schema,
)
from pipeline.config import LEXICON_FILES, PATH_KEYS
from pipeline.sqlite import sqlite_file
from pipeline.schemas import STRAY, check_schema, made_lexicons
from pipeline.stage import Output, Stage
from stages.reports.summary import coverage_by_band, definition_counts, summary
from stages.rules.offensive import reviewed_list

WORDS_ROW_GROUP = 16_384  # small row groups: a solver's filter on `word` or `id` skips most of the file


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
    offsets, neighbours = graph.csr(n, word, other, ascending=True)
    lists = pa.LargeListArray.from_arrays(pa.array(offsets), pa.array(neighbours.astype(np.uint32)))
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
    language: str = "en",
) -> dict:
    # ladder.sqlite (about 1 s) is built in a second thread: polars lets go of the GIL while it writes
    # the Parquet files and the group table here. Export stage, side by side, median of 4: 2.36 -> 2.13 s.
    # It is written in the scratch folder and handed over as a file: its 52 MB never sit in memory.
    # The thread first imports the writer (ADBC and pyarrow, 0.2-0.3 s) while the words are joined.
    sqlite_path = scratch / SQLITE_FILE
    lexicons = made_lexicons(lexicons, groups.columns)  # a default lexicon that ended empty is in no file

    def write_sqlite(words: pl.DataFrame) -> str:
        sqlite_file(words, sqlite_path)
        return sha256_file(sqlite_path)

    # A language build's summary shows its own list's groups (the defaults' everyday comes first in order).
    shown = None if language == "en" else next((n for n, entry in lexicons.items() if "file" in entry), None)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(importlib.import_module, "adbc_driver_sqlite.dbapi")
        words = build_words(lexicon, definitions, rareness, links, groups)
        sqlite = pool.submit(write_sqlite, words)
        group_table = build_group_table(words)
        strays = warnings.filter(pl.col("reason") == STRAY).height  # remove-list words no list holds
        problems = {
            "skipped_lines": skipped.height,
            "definition_warnings": warnings.height - strays,
            "remove_list_strays": strays,
        }
        files = {
            WORDS_FILE: parquet_bytes(words, row_group_size=WORDS_ROW_GROUP),
            GROUPS_FILE: parquet_bytes(group_table),
            LONGEST_FILE: parquet_bytes(longest),
            SQLITE_FILE: sqlite_path,
            SUMMARY_FILE: summary(words, group_table, problems, longest, rareness_labels["common"], shown).encode(),
        }
        # The manifest's counts are taken while the thread still writes ladder.sqlite; its files' hashes after.
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
            "counts": manifest_counts(words, group_table, longest, links, lexicons, problems),
            "alphabet": manifest_alphabet(language),
            "offensive_cleared": offensive_cleared(words, offensive),
        }
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


def manifest_alphabet(language: str) -> dict:
    """The manifest's `alphabet`: the language, its name and letters, and its table (every character a typed
    word may hold -> the letters it is written as), which every solver's typed-word rule reads."""
    letters = alphabet(language)
    return {"language": letters.code, "name": letters.name, "letters": letters.letters, "table": dict(letters.table)}


def manifest_counts(
    words: pl.DataFrame,
    group_table: pl.DataFrame,
    longest: pl.DataFrame,
    links: pl.DataFrame,
    lexicons: dict,
    problems: dict[str, int],
) -> dict:
    """The manifest's `counts`: words in all and per lexicon, list problems, definitions per SCOWL band and
    by how they were made, flags, links per kind, groups and the longest ladder per lexicon and mode."""
    kinds = dict(links[Col.kind].value_counts().rows())
    return {
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
                mode: int(longest.filter(pl.col(Col.lexicon) == lex, pl.col(Col.mode) == mode)[Col.diameter].max() or 0)
                for mode in ("sub", "edit")
            }
            for lex in lexicons
        },
    }


def offensive_cleared(words: pl.DataFrame, offensive: dict[str, bytes] | None) -> list[str]:
    """The words of the lexicon the reviewed list keeps from `offensive` (level clean or vulgar_sense),
    sorted: verify (E502) lets these forms of offensive words pass."""
    ((name, data),) = (offensive or {"offensive.txt": b""}).items()
    listed = reviewed_list(name, data)
    kept = {w for w, lvl in listed.items() if lvl != Col.offensive}
    return sorted(words[Col.word].filter(words[Col.word].is_in(sorted(kept))))


STAGE = Stage(
    number=7,
    name="export",
    transform=build_export,
    reads=("lexicon", "skipped", "warnings", "definitions", "rareness", "links", "groups", "longest"),  # not a column
    raw=("offensive",),  # not a column: the reviewed list, for the manifest's offensive_cleared
    digests=(LEXICON_FILES, *PATH_KEYS),  # every raw input, recorded in the manifest
    settings=("lexicons", "definition_sources", "rareness_by_level", "rareness_labels", "language"),
    assets=(ALPHABETS,),  # pipeline/languages.toml: a changed fold or order changes the output
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
