"""`ladders verify`: an export checked against its manifest and the contract's invariants.

Each check is one function registered with a code (CHECKS, the one list of codes: code_table gives the
docs' table of them); its docstring is the message printed when it fails, followed by up to five examples. The generic ones derive from the column
table (pipeline/columns.py): E002 each column's dtype, E005 its nullability, E006 its `derive` rule. The checks
recompute what they test from the export alone (no stage code), so they are
an independent second opinion on the pipeline; one exception: E502 proposes a
word's base forms by the stage's own morphology (stages.sources.wordnet.proposed_bases),
as the rule it checks is stated in those terms.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np
import polars as pl

from pipeline import progress
from pipeline.columns import (
    DEFAULT_LEXICONS,
    GROUP_SIZES,
    GROUPS_FILE,
    LINK_KINDS,
    LIST_COLUMNS,
    LONGEST,
    LONGEST_FILE,
    MANIFEST_FILE,
    SCHEMA_VERSION,
    SQLITE_FILE,
    WORDS_FILE,
    Col,
    group_columns,
    in_column,
    derived_columns,
    sqlite_indexes,
    words_columns,
    words_schema,
)
from ladders.artifact.contract import link_pairs, load_manifest
from pipeline.sqlite import sqlite_words

EXAMPLES = 5


@dataclass
class Export:
    folder: Path

    @cached_property
    def manifest(self) -> dict:
        return load_manifest(self.folder)

    @cached_property
    def lexicons(self) -> tuple[str, ...]:
        """The lexicons the manifest says the export holds (csw and owl when it names none)."""
        listed = self.manifest.get("lexicons")
        if not isinstance(listed, list):
            return DEFAULT_LEXICONS
        return tuple(entry.get("name") for entry in listed if isinstance(entry, dict))

    @cached_property
    def group_columns(self) -> dict[tuple[str, str], str]:
        return group_columns(self.lexicons)

    @cached_property
    def labelings(self) -> dict[str, tuple[str, list[str]]]:
        """Each group column: the flag of its lexicon and the neighbour lists of its mode."""
        return {column: (in_column(lex), LIST_COLUMNS[mode]) for (lex, mode), column in self.group_columns.items()}

    @cached_property
    def words(self) -> pl.DataFrame:
        return pl.read_parquet(self.folder / WORDS_FILE)

    @cached_property
    def groups(self) -> pl.DataFrame:
        return pl.read_parquet(self.folder / GROUPS_FILE)

    def pairs(self, column: str) -> pl.DataFrame:
        """(`src`, `dst`) for every entry of a neighbour-list column."""
        return link_pairs(self.words, (column,)).drop(Col.kind)


CHECKS: list[tuple[str, Callable[[Export], list[str]]]] = []


def code_table() -> str:
    """The codes and what each one finds, as the Markdown table docs/architecture.md holds (tests/test_verify.py
    keeps them equal): CHECKS is the one list of codes, each check's docstring its meaning."""
    rows = sorted((code, " ".join(fn.__doc__.split()).replace("|", "\\|")) for code, fn in CHECKS)
    return "| code | fails when |\n|---|---|\n" + "".join(f"| {code} | {what} |\n" for code, what in rows)


def check(code: str):
    def register(fn: Callable[[Export], list[str]]):
        CHECKS.append((code, fn))
        return fn

    return register


@check("E001")
def files_match_manifest(e: Export) -> list[str]:
    """export files differ from manifest.json (sha256 or row count)"""
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


@check("E004")
def manifest_lists_every_file(e: Export) -> list[str]:
    """the export folder and manifest.json disagree on which files there are, or on their row counts"""
    listed = set(e.manifest.get("files", {})) | {MANIFEST_FILE}
    present = {p.name for p in e.folder.iterdir() if p.is_file() and not p.name.startswith(".")}
    bad = [f"{name} is not in the manifest" for name in sorted(present - listed)]
    bad += [f"{name} is in the manifest but missing" for name in sorted(listed - present)]
    rows = {
        WORDS_FILE: e.words.height,
        GROUPS_FILE: e.groups.height,
        LONGEST_FILE: pl.scan_parquet(e.folder / LONGEST_FILE).select(pl.len()).collect().item(),
    }
    for name, actual in rows.items():
        said = e.manifest.get("files", {}).get(name, {}).get("rows")
        if said != actual:
            bad.append(f"{name} has {actual:,} rows, the manifest says {said}")
    return bad


@check("E002")
def schemas_match_contract(e: Export) -> list[str]:
    """a table's columns or dtypes differ from the export contract"""
    bad = []
    longest = pl.read_parquet(e.folder / LONGEST_FILE)
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


@check("E005")
def nulls_where_the_table_allows(e: Export) -> list[str]:
    """a words.parquet column the column table declares not nullable holds nulls"""
    present = set(e.words.columns)
    return [
        f"{name}: {e.words[name].null_count():,} nulls"
        for name, column in words_columns(e.lexicons)
        if not column.nullable and name in present and e.words[name].null_count()
    ]


@check("E006")
def derived_columns_follow_their_rule(e: Export) -> list[str]:
    """a column the column table derives from others (length, ...) differs from its rule"""
    bad = []
    for name, rule in derived_columns().items():
        if name in e.words.columns:
            wrong = e.words.filter(pl.col(name).ne_missing(rule))
            bad += [f"{name} of {w}: {v}" for w, v in wrong.select(Col.word, name).head(EXAMPLES).rows()]
    return bad


@check("E003")
def ids_alphabetical(e: Export) -> list[str]:
    """ids are not 0..N-1 in alphabetical order of unique A-Z words"""
    w = e.words
    bad = [f"row {i} has id {v}" for i, v in enumerate(w[Col.id].to_list()) if i != v][:EXAMPLES]
    if not w[Col.word].is_sorted() or w[Col.word].n_unique() != w.height:
        bad.append("words are not sorted and unique")
    bad += [f"{x!r} is not A-Z" for x in w.filter(~pl.col(Col.word).str.contains("^[A-Z]+$"))[Col.word].head(EXAMPLES)]
    return bad


@check("E101")
def links_symmetric(e: Export) -> list[str]:
    """links are not symmetric (A lists B but B does not list A)"""
    bad = []
    for column in LINK_KINDS:
        pairs = e.pairs(column)
        missing = pairs.join(
            pairs.select(pl.col(Col.dst).alias(Col.src), pl.col(Col.src).alias(Col.dst)),
            on=[Col.src, Col.dst],
            how="anti",
        )
        bad += [f"{column}: {s} -> {d}" for s, d in missing.head(EXAMPLES).rows()]
    return bad


@check("E102")
def no_self_links(e: Export) -> list[str]:
    """a word links to itself"""
    return [
        f"{c}: {s}"
        for c in LINK_KINDS
        for s, _ in e.pairs(c).filter(pl.col(Col.src) == pl.col(Col.dst)).head(EXAMPLES).rows()
    ]


@check("E103")
def lists_ascending_without_duplicates(e: Export) -> list[str]:
    """a neighbour list is not strictly ascending (duplicates or disorder)"""
    bad = []
    for column in LINK_KINDS:
        rows = e.words.filter(pl.col(column).list.eval(pl.element().diff().drop_nulls() <= 0).list.any())
        bad += [f"{column} of {w}" for w in rows[Col.word].head(EXAMPLES)]
    return bad


def _one_substitution(a: str, b: str) -> bool:
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1


def _one_indel(a: str, b: str) -> bool:
    short, long = sorted((a, b), key=len)
    return len(long) == len(short) + 1 and any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def _wrong_links(e: Export, column: str, ok: Callable[[str, str], bool]) -> list[str]:
    words = e.words[Col.word].to_list()
    bad = []
    for s, d in e.pairs(column).filter(pl.col(Col.src) < pl.col(Col.dst)).iter_rows():
        if not ok(words[s], words[d]):
            bad.append(f"{words[s]} - {words[d]}")
            if len(bad) >= EXAMPLES:
                break
    return bad


@check("E104")
def links_one_substitution(e: Export) -> list[str]:
    """a `links` pair is not one substitution apart"""
    return _wrong_links(e, Col.links, _one_substitution)


@check("E105")
def edit_links_one_indel(e: Export) -> list[str]:
    """an `edit_links` pair is not one insertion or deletion apart"""
    return _wrong_links(e, Col.edit_links, _one_indel)


def _sub_degrees(words: pl.DataFrame) -> pl.DataFrame:
    """(`id`, `expected`): how many words differ from each in exactly one letter. Two words of one
    length share exactly one wildcard pattern (C*T) when they differ in one letter, so a word's
    degree is the sum over its patterns of the other words on that pattern."""
    longest = int(words[Col.word].str.len_chars().max() or 0)
    keys = [
        words.filter(pl.col(Col.word).str.len_chars() > i).select(
            Col.id, (pl.col(Col.word).str.slice(0, i) + "*" + pl.col(Col.word).str.slice(i + 1)).alias("key")
        )
        for i in range(longest)
    ]
    return (
        pl.concat(keys)
        .with_columns(pl.len().over("key").alias("n"))
        .group_by(Col.id)
        .agg((pl.col("n") - 1).sum().alias("expected"))
    )


def _indel_degrees(words: pl.DataFrame) -> pl.DataFrame:
    """(`id`, `expected`): how many listed words are this one with a letter deleted or inserted."""
    longest = int(words[Col.word].str.len_chars().max() or 0)
    deletions = pl.concat(
        [
            words.filter(pl.col(Col.word).str.len_chars() > i).select(
                Col.id, (pl.col(Col.word).str.slice(0, i) + pl.col(Col.word).str.slice(i + 1)).alias(Col.word)
            )
            for i in range(longest)
        ]
    ).unique()
    pairs = deletions.join(words.select(pl.col(Col.word), pl.col(Col.id).alias("shorter")), on=Col.word)
    return (
        pl.concat([pairs.select(Col.id), pairs.select(pl.col("shorter").alias(Col.id))])
        .group_by(Col.id)
        .agg(pl.len().alias("expected"))
    )


def _incomplete(e: Export, column: str, expected: pl.DataFrame) -> list[str]:
    found = (
        e.words.select(Col.id, Col.word, pl.col(column).list.len().alias("listed"))
        .join(expected, on=Col.id, how="left")
        .with_columns(pl.col("expected").fill_null(0))
        .filter(pl.col("listed") != pl.col("expected"))
    )
    return [f"{w}: lists {n}, the word list gives {x}" for _, w, n, x in found.head(EXAMPLES).rows()]


@check("E108")
def links_complete(e: Export) -> list[str]:
    """a word's links miss a word one letter away (recomputed from the word column)"""
    return _incomplete(e, Col.links, _sub_degrees(e.words.select(Col.id, Col.word)))


@check("E109")
def edit_links_complete(e: Export) -> list[str]:
    """a word's edit links miss a word one letter inserted or deleted away (recomputed from the word column)"""
    return _incomplete(e, Col.edit_links, _indel_degrees(e.words.select(Col.id, Col.word)))


@check("E106")
def owl_within_csw(e: Export) -> list[str]:
    """OWL words outside CSW differ from the count the manifest records"""
    if not {Col.in_csw, Col.in_owl} <= set(e.words.columns):
        return []
    outside = e.words.filter(pl.col(Col.in_owl) & ~pl.col(Col.in_csw))
    expected = e.manifest.get("counts", {}).get("owl_not_in_csw", 0)
    if outside.height == expected:
        return []
    return [f"{outside.height} OWL words not in CSW, manifest says {expected}"] + outside[Col.word].head(
        EXAMPLES
    ).to_list()


@check("E107")
def lexicons_as_made(e: Export) -> list[str]:
    """a lexicon's words disagree with how the manifest says it was made (its count; a derived lexicon without an add-list holds a word its parent lacks, or a word beyond its SCOWL filter)"""
    bad = []
    for entry in e.manifest.get("lexicons", []):
        name, flag = entry.get("name"), in_column(entry.get("name", ""))
        if flag not in e.words.columns:
            bad.append(f"{name}: no column {flag}")
            continue
        held = e.words.filter(pl.col(flag))
        if held.height != entry.get("words"):
            bad.append(f"{name}: {held.height:,} words, the manifest says {entry.get('words')}")
        if "add" in entry:
            continue  # an add-list's words may be anywhere
        if "from" in entry and in_column(entry["from"]) in e.words.columns:
            stray = held.filter(~pl.col(in_column(entry["from"])))[Col.word]
            bad += [f"{name}: {w} is not in {entry['from']}" for w in stray.head(EXAMPLES)]
        if "max_scowl_level" in entry:
            # scowl_level is the lowest of every list, main or variant: at most the main lists' level.
            beyond = held.filter(
                pl.col(Col.scowl_level).is_null() | (pl.col(Col.scowl_level) > entry["max_scowl_level"])
            )
            bad += [
                f"{name}: {w} is beyond SCOWL level {entry['max_scowl_level']}" for w in beyond[Col.word].head(EXAMPLES)
            ]
    return bad


def _components(n: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    graph = coo_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n, n))
    return connected_components(graph, directed=False)[1]


@check("E201")
def groups_are_components(e: Export) -> list[str]:
    """a group column differs from the connected components of its links"""
    bad = []
    for column, (flag, lists) in e.labelings.items():
        members = e.words.filter(pl.col(flag)).select(Col.id, column)
        local = np.full(e.words.height, -1, dtype=np.int64)  # word id -> position among members
        local[members[Col.id].to_numpy()] = np.arange(members.height)
        pairs = pl.concat([e.pairs(c) for c in lists])
        src, dst = local[pairs[Col.src].to_numpy()], local[pairs[Col.dst].to_numpy()]
        inside = (src >= 0) & (dst >= 0)
        truth = _components(members.height, src[inside], dst[inside])
        joint = pl.DataFrame({"given": members[column], "truth": truth})
        if joint["given"].null_count() or not (
            joint.n_unique() == joint["given"].n_unique() == joint["truth"].n_unique()
        ):
            bad.append(f"{column}: {joint['given'].n_unique()} groups given, {joint['truth'].n_unique()} components")
        nulls = e.words.filter(~pl.col(flag) & pl.col(column).is_not_null()).height
        if nulls:
            bad.append(f"{column}: {nulls} words outside the lexicon have a group")
    return bad


@check("E202")
def group_ids_in_order(e: Export) -> list[str]:
    """group ids are not numbered from 0 in order of each group's smallest word id"""
    bad = []
    for column in e.labelings:
        seen = e.words[column].drop_nulls().unique(maintain_order=True).to_list()
        if seen != list(range(len(seen))):
            bad.append(f"{column}: first ids seen {seen[:EXAMPLES]}")
    return bad


@check("E203")
def group_table_matches_words(e: Export) -> list[str]:
    """groups.parquet disagrees with words.parquet (sizes, lengths, examples)"""
    bad = []
    compared = (Col.size, Col.length, Col.example)
    for (lexicon, mode), column in e.group_columns.items():
        expected = (
            e.words.filter(pl.col(column).is_not_null())
            .sort(Col.id)
            .group_by(column, maintain_order=True)
            .agg(
                pl.len().cast(pl.UInt32).alias(Col.size),
                pl.when(pl.col(Col.length).n_unique() == 1).then(pl.col(Col.length).first()).alias(Col.length),
                pl.col(Col.word).first().alias(Col.example),
            )
            .rename({column: Col.group_id})
            .sort(Col.group_id)
        )
        given = (
            e.groups.filter((pl.col(Col.lexicon) == lexicon) & (pl.col(Col.mode) == mode))
            .select(Col.group_id, *compared)
            .sort(Col.group_id)
        )
        if not given.equals(expected):
            diff = given.join(expected, on=Col.group_id, how="full", suffix="_words").filter(
                pl.any_horizontal(pl.col(c).ne_missing(pl.col(f"{c}_words")) for c in compared)
            )
            bad += [f"{lexicon}/{mode} group {r[0]}" for r in diff.head(EXAMPLES).rows()] or [f"{lexicon}/{mode}"]
    return bad


@check("E204")
def longest_ladders_hold(e: Export) -> list[str]:
    """longest.parquet disagrees with the groups, or a start word's farthest word is not `diameter` steps away, or its end word is not"""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import shortest_path

    longest = pl.read_parquet(e.folder / LONGEST_FILE)
    ids = dict(zip(e.words[Col.word].to_list(), e.words[Col.id].to_list()))
    bad = []
    for (lexicon, mode), column in e.group_columns.items():
        flag, lists = e.labelings[column]
        rows = longest.filter((pl.col(Col.lexicon) == lexicon) & (pl.col(Col.mode) == mode))
        wanted = (
            e.words.filter(pl.col(column).is_not_null())
            .group_by(column)
            .agg(
                pl.len().cast(pl.UInt32).alias(Col.size),
                pl.when(pl.col(Col.length).n_unique() == 1).then(pl.col(Col.length).first()).alias(Col.length),
            )
            .filter(pl.col(Col.size) >= 2)
            .rename({column: Col.group_id})
            .sort(Col.group_id)
        )
        if not rows.select(Col.group_id, Col.size, Col.length).sort(Col.group_id).equals(wanted):
            bad.append(f"{lexicon}/{mode}: its groups of 2+ words differ from words.parquet's")
            continue
        members = e.words.filter(pl.col(flag)).select(Col.id, column)
        n = e.words.height
        pairs = pl.concat([e.pairs(c) for c in lists])
        inside = members[Col.id].to_numpy()
        keep = np.zeros(n + 1, dtype=bool)
        keep[inside] = True
        src, dst = pairs[Col.src].to_numpy(), pairs[Col.dst].to_numpy()
        both = keep[src] & keep[dst]
        starts = np.array([ids.get(w, -1) for w in rows[Col.start]], dtype=np.int64)
        ends = np.array([ids.get(w, -1) for w in rows[Col.end]], dtype=np.int64)
        if (starts < 0).any() or (ends < 0).any():
            bad.append(f"{lexicon}/{mode}: a start or end is not a word")
            continue
        # One BFS from a node joined to every start word: with one start per group, each word's
        # distance minus one is its distance from its group's start.
        src = np.concatenate([src[both], np.full(len(starts), n)])
        dst = np.concatenate([dst[both], starts])
        graph = coo_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n + 1, n + 1)).tocsr()
        dist = shortest_path(graph, directed=False, unweighted=True, indices=n) - 1
        group_of = e.words[column].to_numpy()
        far = pl.DataFrame({"g": group_of[inside], "d": dist[inside]}).group_by("g").agg(pl.col("d").max())
        farthest = dict(far.iter_rows())
        for g, diameter, a, b, s_id, t_id in zip(
            rows[Col.group_id], rows[Col.diameter], rows[Col.start], rows[Col.end], starts, ends
        ):
            if group_of[s_id] != g or group_of[t_id] != g or not a < b:
                bad.append(f"{lexicon}/{mode} group {g}: {a}-{b} is not an ordered pair of its words")
            elif dist[t_id] != diameter or farthest.get(g) != diameter:
                bad.append(f"{lexicon}/{mode} group {g}: {a}-{b} is {dist[t_id]:.0f} steps, diameter says {diameter}")
            if len(bad) >= EXAMPLES:
                return bad
    return bad


@check("E301")
def rareness_follows_levels(e: Export) -> list[str]:
    """rareness disagrees with scowl_level under the manifest's rareness table"""
    table = e.manifest.get("config", {}).get("rareness_by_level")
    if not table:
        return ["manifest has no config.rareness_by_level"]
    expected = e.words[Col.scowl_level].replace_strict(
        {int(k): v for k, v in table.items() if k != "absent"}, default=table["absent"], return_dtype=pl.UInt32
    )
    wrong = e.words.filter(pl.Series(expected).ne_missing(e.words[Col.rareness]))
    return [
        f"{w}: level {lv}, rareness {r}"
        for w, lv, r in wrong.select(Col.word, Col.scowl_level, Col.rareness).head(EXAMPLES).rows()
    ]


@check("E501")
def offensive_and_vulgar_sense_disjoint(e: Export) -> list[str]:
    """a word is flagged both offensive and vulgar_sense (the levels never overlap)"""
    both = e.words.filter(pl.col(Col.offensive) & pl.col(Col.vulgar_sense))
    return [f"{w}: offensive and vulgar_sense" for w in both[Col.word].head(EXAMPLES)]


@check("E502")
def forms_of_offensive_words_offensive(e: Export) -> list[str]:
    """a form of an offensive word is not offensive (not cleared in the reviewed list either)"""
    # The stage's own morphology (WordNet's suffix rules) proposes the bases; only proposals that are words
    # of the export count, and a form is one of an offensive word when every such base is offensive (SPICES
    # is SPICE's as well as SPIC's). The manifest names the words the reviewed list keeps clean.
    from ladders.compose import proposed_bases

    words = e.words.select(Col.word, Col.offensive)
    cleared = set(e.manifest.get("offensive_cleared", []))
    bases = (
        proposed_bases(words[Col.word])
        .join(words.rename({Col.word: "base"}), on="base")
        .group_by(Col.word)
        .agg(
            pl.col(Col.offensive).all().alias("all_bad"), pl.col("base").filter(Col.offensive).first().alias("bad_base")
        )
    )
    wrong = (
        bases.filter("all_bad")
        .join(words, on=Col.word)
        .filter(~pl.col(Col.offensive) & ~pl.col(Col.word).is_in(sorted(cleared)))
        .sort(Col.word)
    )
    return [f"{w}: a form of {b}" for w, b in wrong.select(Col.word, "bad_base").head(EXAMPLES).rows()]


@check("E401")
def sqlite_matches_parquet(e: Export) -> list[str]:
    """ladder.sqlite rows differ from words.parquet"""
    import adbc_driver_sqlite.dbapi as adbc  # Arrow out of SQLite: 2.5x faster than rows of tuples here

    path = e.folder / SQLITE_FILE
    if not path.is_file():
        return ["ladder.sqlite is missing"]
    try:
        with adbc.connect(f"file:{path}?mode=ro") as con, con.cursor() as cur:

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
            expected = sqlite_words(e.words)
            rows = frame(f"SELECT {', '.join(expected.columns)} FROM words ORDER BY {Col.id}", expected.schema)
            if rows.height != expected.height:
                bad.append(f"{rows.height} words rows, parquet has {expected.height}")
            elif not rows.equals(expected):
                bad += [f"words row {i}" for i in _differing_rows(rows, expected)[:EXAMPLES]]
            indexes = set(frame("PRAGMA index_list(words)")["name"].to_list())
            bad += [f"index {name} is missing" for name in sorted(set(sqlite_indexes(e.lexicons)) - indexes)]
            integrity = value("PRAGMA integrity_check")
            if integrity != "ok":
                bad.append(f"PRAGMA integrity_check: {integrity}")
            return bad
    except adbc.Error as err:
        return [f"ladder.sqlite: {' '.join(str(err).split())[:200]}"]


def _differing_rows(a: pl.DataFrame, b: pl.DataFrame) -> list[int]:
    """The ids of the rows where two frames of one shape differ in any column (nulls equal)."""
    differs = pl.DataFrame([a[c].ne_missing(b[c]) for c in a.columns]).select(pl.any_horizontal(pl.all()))
    return a.filter(differs.to_series())[Col.id].to_list()


def verify(folder: Path) -> list[tuple[str, str, list[str]]]:
    """(code, message, examples) for every failed check; empty when the export holds."""
    export = Export(Path(folder))
    export.manifest  # noqa: B018 -- a folder without a manifest is an error, not a failed check
    failed = []
    for code, fn in progress.track(CHECKS, "verify"):
        try:
            examples = fn(export)
        except (MemoryError, ImportError):  # the machine (ulimit -v), not the export: the command's one line
            raise
        except Exception as err:  # a damaged file makes its checks fail, not the command crash
            examples = [f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"]
        if examples:
            failed.append((code, (fn.__doc__ or "").strip(), examples[:EXAMPLES]))
    return failed
