"""Verify's checks of the export's files: against the manifest (E001, E004), the column table (E002 dtypes,
E005 nulls, E006 derived columns), the ids (E003) and ladder.sqlite against words.parquet (E401, whose
expected rows are encoded by the SQLite writer's own pipeline.sqlite.sqlite_words, and which reads ladder.sqlite
with the column table's declared SQLite types, not ADBC's guess from the first rows: _declared_select).

Each check takes an `Export` (checks/export.py) and returns the lines of what is wrong (empty: it holds);
verify prints its docstring when it fails, and up to EXAMPLES of the lines.
"""

from __future__ import annotations

import hashlib

import polars as pl

from pipeline.columns import (
    GROUP_SIZES,
    GROUPS_FILE,
    LONGEST,
    LONGEST_FILE,
    MANIFEST_FILE,
    SCHEMA_VERSION,
    SQLITE_FILE,
    WORDS_FILE,
    Col,
    derived_columns,
    sqlite_indexes,
    words_columns,
    words_schema,
)
from ladders.artifact.checks.export import EXAMPLES, Export
from pipeline.sqlite import sqlite_words


def files_match_manifest(e: Export) -> list[str]:
    """export files missing or differing from manifest.json (sha256), or a schema_version not this one"""
    bad = []
    for name, entry in e.manifest.get("files", {}).items():
        path = e.folder / name
        if not path.is_file():
            bad.append(f"{name} is missing")
        elif hashlib.sha256(path.read_bytes()).hexdigest() != entry.get("sha256"):
            bad.append(f"{name} sha256 differs")
    if e.manifest.get("schema_version") != SCHEMA_VERSION:
        bad.append(f"schema_version {e.manifest.get('schema_version')!r}, expected {SCHEMA_VERSION}")
    return bad


def manifest_lists_every_file(e: Export) -> list[str]:
    """the export folder and manifest.json disagree on which files there are, or on their row counts"""
    listed = set(e.manifest.get("files", {})) | {MANIFEST_FILE}
    present = {p.name for p in e.folder.iterdir() if p.is_file() and not p.name.startswith(".")}
    bad = [f"{name} is not in the manifest" for name in sorted(present - listed)]
    bad += [f"{name} is in the manifest but missing" for name in sorted(listed - present)]
    rows = {
        WORDS_FILE: e.words.height,
        GROUPS_FILE: e.groups.height,
        LONGEST_FILE: pl.scan_parquet(e.folder / LONGEST_FILE, glob=False).select(pl.len()).collect().item(),
    }
    for name, actual in rows.items():
        said = e.manifest.get("files", {}).get(name, {}).get("rows")
        if said != actual:
            bad.append(f"{name} has {actual:,} rows, the manifest says {said}")
    return bad


def schemas_match_contract(e: Export) -> list[str]:
    """a table's columns or dtypes differ from the export contract"""
    bad = []
    longest = pl.read_parquet(e.folder / LONGEST_FILE, glob=False)
    for name, frame, schema in (
        (WORDS_FILE, e.words, words_schema(e.lexicons)),
        (GROUPS_FILE, e.groups, GROUP_SIZES),
        (LONGEST_FILE, longest, LONGEST),
    ):
        if dict(frame.schema) != schema:
            bad += [
                f"{name} {c}: {frame.schema.get(c)} (want {t})" for c, t in schema.items() if frame.schema.get(c) != t
            ] or [f"{name}: columns {frame.columns}"]
    listed = e.manifest.get("columns", {}).get(WORDS_FILE)
    if listed != list(words_schema(e.lexicons)):
        bad.append(f"the manifest lists the columns of {WORDS_FILE} as {listed}")
    return bad


def nulls_where_the_table_allows(e: Export) -> list[str]:
    """a words.parquet column the column table declares not nullable holds nulls"""
    present = set(e.words.columns)
    return [
        f"{name}: {e.words[name].null_count():,} nulls"
        for name, column in words_columns(e.lexicons)
        if not column.nullable and name in present and e.words[name].null_count()
    ]


def derived_columns_follow_their_rule(e: Export) -> list[str]:
    """a column the column table derives from others (length, ...) differs from its rule"""
    bad = []
    for name, rule in derived_columns().items():
        if name in e.words.columns:
            wrong = e.words.filter(pl.col(name).ne_missing(rule))
            bad += [f"{name} of {w}: {v}" for w, v in wrong.select(Col.word, name).head(EXAMPLES).rows()]
    return bad


def ids_alphabetical(e: Export) -> list[str]:
    """ids are not 0..N-1 in the alphabet's order of unique words of its letters (English: A-Z)"""
    w = e.words
    found = e.manifest.get("alphabet")
    letters = found.get("letters") if isinstance(found, dict) else None
    letters = letters if isinstance(letters, str) and letters else "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # before issue 45
    bad = [f"row {i} has id {v}" for i, v in enumerate(w[Col.id].to_list()) if i != v][:EXAMPLES]
    # Each letter as one byte in its place's order: sorted bytes are the alphabet's order (Ą after A).
    order = w[Col.word].str.replace_many(list(letters), [chr(0x21 + i) for i in range(len(letters))])
    if not order.is_sorted() or w[Col.word].n_unique() != w.height:
        bad.append("words are not sorted and unique")
    pattern = "^[" + "".join("\\" + c if c in "\\]^-[" else c for c in letters) + "]+$"
    outside = w.filter(~pl.col(Col.word).str.contains(pattern))[Col.word].head(EXAMPLES)
    bad += [f"{x!r} is not {'A-Z' if letters == 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' else 'of ' + letters}" for x in outside]
    return bad


def sqlite_matches_parquet(e: Export) -> list[str]:
    """ladder.sqlite rows differ from words.parquet"""
    import adbc_driver_sqlite.dbapi as adbc  # Arrow out of SQLite: 2.5x faster than rows of tuples here

    path = e.folder / SQLITE_FILE
    if not path.is_file():
        return ["ladder.sqlite is missing"]
    try:
        with adbc.connect(f"{path.resolve().as_uri()}?mode=ro") as con, con.cursor() as cur:

            def frame(query: str, schema: pl.Schema | None = None) -> pl.DataFrame:
                """The rows as a frame; with a schema, cast to it (SQLite's types are per value, and an
                empty result has none), a value that does not fit becoming null and so a difference."""
                cur.execute(query)
                rows = pl.from_arrow(cur.fetch_arrow_table())
                return rows if schema is None else rows.cast(dict(schema), strict=False)

            def value(query: str):
                cur.execute(query)
                return cur.fetchone()[0]

            bad = []
            if value("PRAGMA user_version") != SCHEMA_VERSION:
                bad.append("PRAGMA user_version is not the schema version")
            bad += _rows_differ(cur, e)
            indexes = set(frame("PRAGMA index_list(words)")["name"].to_list())
            bad += [f"index {name} is missing" for name in sorted(set(sqlite_indexes(e.lexicons)) - indexes)]
            integrity = value("PRAGMA integrity_check")
            if integrity != "ok":
                bad.append(f"PRAGMA integrity_check: {integrity}")
            return bad
    except adbc.Error as err:
        return [f"ladder.sqlite: {' '.join(str(err).split())[:200]}"]


def _rows_differ(cur, e: Export) -> list[str]:
    """ladder.sqlite's words rows against words.parquet's, a batch of rows at a time as ADBC streams them
    (both tables whole, as text, were verify's peak: 150 MB more on raw/)."""
    import pyarrow as pa

    cur.execute(_declared_select(words_columns(e.lexicons)))
    reader, seen, differing, schema = cur.fetch_record_batch(), 0, [], None
    for batch in reader:
        rows = pl.from_arrow(pa.Table.from_batches([batch])).drop(_PIN)
        if schema is None:  # the typed first row: dropped (see _declared_select)
            schema, rows = sqlite_words(e.words.head(0)).schema, rows.slice(1)
        rows = rows.cast(dict(schema), strict=False)  # a value that does not fit becomes null: a difference
        expected = sqlite_words(e.words.slice(seen, rows.height))
        if expected.height == rows.height and not rows.equals(expected):
            differing += _differing_rows(rows, expected)[: EXAMPLES - len(differing)]
        seen += rows.height
    if seen != e.words.height:
        return [f"{seen} words rows, parquet has {e.words.height}"]
    return [f"words row {i}" for i in differing]


_PIN = "_declared"  # a leading column that puts the typed first row first, and is dropped after
_ZERO = {"INTEGER": "0", "REAL": "0.0", "TEXT": "''"}  # a value of each storage class


def _declared_select(columns: list) -> str:
    """SELECT every column of ladder.sqlite's words, in id order, as the column table declares its SQLite
    type. ADBC's driver guesses a column's type from the first 1,024 rows it reads: a text column null in all
    of them (1,500 undefined words sorting first) was guessed INT64, and its first text then failed the read.
    So the result's first row is a typed one of ours (0, 0.0, '': each column's declared storage class; it
    is dropped after), and a stored value of another class than declared reads as null: a differing row."""
    first = ", ".join([f"0 AS {_PIN}", *(f"{_ZERO[column.sqlite]} AS {name}" for name, column in columns)])
    typed = ", ".join(
        [
            f"1 AS {_PIN}",
            *(f"CASE WHEN typeof({name}) = '{column.sqlite.lower()}' THEN {name} END" for name, column in columns),
        ]
    )
    return f"SELECT {first} UNION ALL SELECT {typed} FROM words ORDER BY {_PIN}, {Col.id}"


def _differing_rows(a: pl.DataFrame, b: pl.DataFrame) -> list[int]:
    """The ids of the rows where two frames of one shape differ in any column (nulls equal)."""
    differs = pl.DataFrame([a[c].ne_missing(b[c]) for c in a.columns]).select(pl.any_horizontal(pl.all()))
    return a.filter(differs.to_series())[Col.id].to_list()
