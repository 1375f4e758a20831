"""Verify's checks of the groups (E201-E204): the group columns against the connected components of the
links (scipy's, not stage 5's), their numbering, groups.parquet and longest.parquet against words.parquet.

Each check takes an `Export` (checks/export.py) and returns the lines of what is wrong (empty: it holds);
verify prints its docstring when it fails, and up to EXAMPLES of the lines.
"""

from __future__ import annotations

import numpy as np
import polars as pl

from pipeline.columns import LONGEST_FILE, Col
from ladders.artifact.checks.export import EXAMPLES, Export


def _components(n: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    graph = coo_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n, n))
    return connected_components(graph, directed=False)[1]


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


def group_ids_in_order(e: Export) -> list[str]:
    """group ids are not numbered from 0 in order of each group's smallest word id"""
    bad = []
    for column in e.labelings:
        seen = e.words[column].drop_nulls().unique(maintain_order=True).to_list()
        if seen != list(range(len(seen))):
            bad.append(f"{column}: first ids seen {seen[:EXAMPLES]}")
    return bad


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


def longest_ladders_hold(e: Export) -> list[str]:
    """longest.parquet disagrees with the groups, or a start word's farthest word is not `diameter` steps away, or its end word is not"""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import shortest_path

    longest = pl.read_parquet(e.folder / LONGEST_FILE, glob=False)
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
            if group_of[s_id] != g or group_of[t_id] != g or not s_id < t_id:  # ids: the alphabet's order (E003)
                bad.append(f"{lexicon}/{mode} group {g}: {a}-{b} is not an ordered pair of its words")
            elif dist[t_id] != diameter or farthest.get(g) != diameter:
                bad.append(f"{lexicon}/{mode} group {g}: {a}-{b} is {dist[t_id]:.0f} steps, diameter says {diameter}")
            if len(bad) >= EXAMPLES:
                return bad
    return bad
