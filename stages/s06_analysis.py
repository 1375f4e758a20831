"""Stage 6, analysis: the longest ladder of every group.

Reads 01_lexicon (the words), 04_links and 05_groups (which lexicons hold a word: in_<name>; its groups;
its in_<name> columns are the lexicons made, which a default one that ended empty is not), and config
`lexicons` (how each was made: which one it derives `from`, when that one was made too).
Writes 06_longest.parquet (the export's longest.parquet), one row per group of
at least two words, for every lexicon x mode (sub, edit): lexicon
str, mode str, group_id u32, size u32, length u8 (null when the group mixes
lengths), diameter u16 (the longest shortest ladder, in steps), start str and
end str (the alphabetically first pair at that distance); sorted by lexicon,
mode, group_id.

Exact, with few breadth-first searches: the bounding-diameters method of Takes
and Kosters (2011). Every word keeps a lower and an upper bound on its
eccentricity (the steps to the farthest word of its group); a BFS from v, whose
eccentricity it measures, tightens both for every w of v's group
(ecc(w) >= max(d(v,w), ecc(v) - d(v,w)) and ecc(w) <= ecc(v) + d(v,w)), and the
group's diameter lies between the largest lower and the largest upper bound.
Groups are disjoint, so one BFS "wave" runs from one source in every unsettled
group at once, as a single level-synchronous BFS over CSR arrays in numpy.
A group whose exact diameter would take more work than WORK_LIMIT (nodes and links visited, some minutes)
stops the stage with TooHard (exit 2), naming the group, its bounds and the work, rather than running for hours.
Per-word eccentricities are not exported: settling every word's bounds took
2,468 waves and a minute on raw/, where the diameters alone take far fewer.
A lexicon derived `from` another (config `lexicons`) takes that one's row for each group whose words are
the same (`reused`); only its other groups are searched. On raw/ with the bench's five lexicons (csw, owl,
everyday, csw plus 50 names, csw less 100 words) the stage's CPU went from 2.56 to 2.17 s, with the same table.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import polars as pl

from pipeline.columns import Col, group_columns, in_column
from pipeline.errors import PipelineError
from pipeline.schemas import LONGEST, made_lexicons
from pipeline.stage import Output, Stage
from pipeline import graph, wording
from pipeline.wording import counted

if TYPE_CHECKING:
    import numpy as np

KINDS = {"sub": ["sub"], "edit": ["sub", "indel"]}  # the link kinds each mode walks
# Labelings searched at a time. The table is the same bytes whatever the number and whichever labeling
# ends first: each result is kept under its (lexicon, mode) and the table is put together in config order.
WORKERS = 2
POOL = ThreadPoolExecutor  # what runs the labelings (a test hands in one that finishes them in another order)


def csr(n: int, src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(indptr, indices) of the undirected graph with edges src-dst on nodes 0..n-1."""
    import numpy as np

    return graph.csr(n, np.concatenate([src, dst]), np.concatenate([dst, src]))


def _neighbours(indptr: np.ndarray, indices: np.ndarray, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The neighbour lists of `nodes` laid end to end, and each list's length."""
    import numpy as np

    counts = indptr[nodes + 1] - indptr[nodes]
    offsets = np.repeat(indptr[nodes] - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
    return indices[offsets + np.arange(int(counts.sum()))], counts


def bfs(indptr: np.ndarray, indices: np.ndarray, sources: np.ndarray) -> np.ndarray:
    """Steps from the nearest of `sources` to every node (-1: unreached). With one source per
    connected component, that is each node's distance from its component's source."""
    import numpy as np

    n = len(indptr) - 1
    dist = np.full(n, -1, dtype=np.int32)
    seen = np.zeros(n, dtype=bool)  # the nodes reached this step, once each
    degree = np.diff(indptr)
    dist[sources] = 0
    frontier, d = np.asarray(sources, dtype=np.int64), 0
    while frontier.size:
        counts = degree[frontier]
        ends = np.cumsum(counts)
        reached = indices[np.repeat(indptr[frontier] - ends + counts, counts) + np.arange(ends[-1])]
        seen[reached[dist[reached] < 0]] = True
        frontier = np.flatnonzero(seen)  # ascending: the next step reads the arrays in order
        seen[frontier] = False
        d += 1
        dist[frontier] = d
    return dist


def _subgraph(indptr: np.ndarray, indices: np.ndarray, nodes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(indptr, indices) of the graph induced on `nodes` (closed under links), node nodes[i] numbered i."""
    import numpy as np

    local = np.full(len(indptr) - 1, -1, dtype=np.int32)
    local[nodes] = np.arange(len(nodes))
    neighbours, counts = _neighbours(indptr, indices, nodes)
    return graph.csr(len(nodes), np.repeat(np.arange(len(nodes)), counts), local[neighbours])


# The waves' work: per wave, the nodes it keeps bounds of plus the nodes and links its searches visit. The
# bounds meet after a few dozen waves on word lists (raw/: 36 at most, NWL2023: 28); on a graph where
# every word looks alike they meet only after a search from nearly every word of the group, quadratic in
# its size: 1,000 words AAA + three letters of A-J (every word 3 steps from its farthest), 1,000 waves in
# 0.4 s; a random 50,000 words over 16 letters, a group of 14,201 words, 5,173 waves in 38 s; all 2^13
# words over A and B, 42 s. So the bound is on the work itself, not on passes over the graph (which
# refused the first two): past WORK_LIMIT (6e9 visits: 70-150 s on a 2026 laptop core; the A/B words of
# 14 letters, 16,384 waves, need 4.3e9 of it) the stage stops, saying which group, what it knows and
# what settling it would take, rather than run for hours.
WORK_LIMIT = 6_000_000_000


class TooHard(PipelineError):
    """A group whose exact longest ladder would take more than WORK_LIMIT nodes and links visited."""


def diameters(
    indptr: np.ndarray, indices: np.ndarray, group: np.ndarray, work_limit: int | None = None
) -> tuple[np.ndarray, np.ndarray, int]:
    """Per group (`group`: a component label per node, numbered 0..g-1): its diameter and its first
    peripheral node (the smallest node whose eccentricity is the diameter); and the BFS waves it took.

    Bounds on every node's eccentricity (module docstring) give the diameter's bounds: the largest lower
    bound and the largest upper bound of the group. While they differ, a wave's source alternates
    between the node with the largest upper bound (of those, the largest lower bound) and the one with the
    smallest lower bound (of those, the most links). Once they meet at D, a node is peripheral when its
    lower bound is D, and cannot be when its upper bound is below D; sources are then the smallest nodes
    still undecided, until the first peripheral node is known. Once a quarter of the nodes are settled,
    the waves go on in the graph of the others, renumbered (`node`, `label`: the original numbers of its
    nodes and groups), and the larger graph is let go: the analysis of raw/ peaked 78 MiB lower.
    The waves' work past `work_limit` (default WORK_LIMIT) raises TooHard."""
    import numpy as np

    work_limit = WORK_LIMIT if work_limit is None else work_limit
    n = len(group)
    groups = int(group.max()) + 1 if n else 0
    diameter, peripheral = np.zeros(groups, dtype=np.int64), np.zeros(groups, dtype=np.int64)
    # Nodes numbered by group (a group's in ascending order), so that a group's nodes lie side by side: a
    # per-group reduction needs no gather, and a wave reads its groups' arrays in order.
    node, label = np.argsort(group, kind="stable"), np.arange(groups)
    indptr, indices = _subgraph(indptr, indices, node)
    group = group[node]
    lower = np.zeros(n, dtype=np.int64)
    upper = np.full(n, np.iinfo(np.int32).max, dtype=np.int64)
    upper[np.diff(indptr) == 0] = 0
    waves, high = 0, True
    budget = [work_limit]  # work left, shared by the rounds below
    while True:
        d_low, first_sure, done, waves, high = _waves(indptr, indices, group, lower, upper, waves, high, budget)
        if budget[0] < 0:
            d_up = np.maximum.reduceat(upper, np.flatnonzero(np.r_[True, np.diff(group) != 0]))
            worst = int(np.argmax(np.where(done, -1, np.bincount(group))))
            members = np.flatnonzero(group == worst)
            raise TooHard(
                members=len(members),
                edges=int(indptr[members[-1] + 1] - indptr[members[0]]) // 2,
                node=int(node[members[0]]),
                low=int(d_low[worst]),
                high=int(d_up[worst]),
                waves=waves,
                work=work_limit - budget[0],
                limit=work_limit,
            )
        diameter[label[done]], peripheral[label[done]] = d_low[done], node[first_sure[done]]
        if done.all():
            return diameter, peripheral, waves
        nodes = np.flatnonzero(~done[group])
        indptr, indices = _subgraph(indptr, indices, nodes)
        kept, group = np.unique(group[nodes], return_inverse=True)
        group, label, node = group.ravel(), label[kept], node[nodes]
        lower, upper = lower[nodes], upper[nodes]


def _waves(indptr, indices, group, lower, upper, waves, high, budget):
    """BFS waves (diameters()), tightening `lower` and `upper` in place, until every group is done or a
    quarter of the nodes are (isolated words are, before any wave): per group the diameter's lower bound and
    the first node sure to be peripheral, which groups are done, the waves counted so far, and which kind of
    source is next. Nodes are numbered by group (`group` ascending)."""
    import numpy as np

    n = len(group)
    bounds = np.flatnonzero(np.r_[True, np.diff(group) != 0]) if n else np.zeros(0, dtype=np.int64)

    def per_group(reduce, values: np.ndarray) -> np.ndarray:  # labels 0..g-1, ascending, each one used
        return reduce.reduceat(values, bounds)

    def first(key: np.ndarray, among: np.ndarray) -> np.ndarray:  # per group: smallest key, then id; or none
        keyed = np.where(among, key, np.iinfo(np.int64).max)
        return per_group(np.minimum, np.where(among & (keyed == per_group(np.minimum, keyed)[group]), ids, none))

    ids = np.arange(n)
    degree = np.diff(indptr)
    # Ties: a high source is the one with the largest lower bound, a low source the one with most links
    # (then the smallest id). On raw/, 4,871 BFS steps -> 3,984 (of 160 -> 147 waves), the stage's CPU -16%.
    scale, spread = np.int64(n + 1), np.int64(degree.max(initial=0) + 1)
    none = np.int64(n)
    while True:
        d_low, d_up = per_group(np.maximum, lower), per_group(np.maximum, upper)
        known = d_low == d_up
        maybe = (upper >= d_low[group]) & (lower < upper)  # might be peripheral, not yet decided
        sure = lower == d_low[group]
        first_sure = per_group(np.minimum, np.where(sure, ids, none))
        first_maybe = per_group(np.minimum, np.where(maybe, ids, none))
        done = known & (first_sure < first_maybe)
        busy = ~done[group]
        if done.all() or busy.sum() * 4 < n * 3 or budget[0] < 0:
            return d_low, first_sure, done, waves, high
        open_ = busy & (lower < upper)
        bounding, deciding = open_ & ~known[group], open_ & known[group] & maybe
        key = -upper * scale - lower if high else lower * spread + (spread - 1 - degree)
        sources = np.concatenate([first(key, bounding), first(ids, deciding)])
        sources = sources[sources < none]
        high = not high
        dist = bfs(indptr, indices, sources)
        waves += 1
        reached = dist >= 0
        budget[0] -= n + int(np.count_nonzero(reached) + degree[reached].sum())  # the bounds kept, the search
        ecc = per_group(np.maximum, dist)  # -1 where a group had no source this wave
        e, d = ecc[group[reached]], dist[reached].astype(np.int64)
        lower[reached] = np.maximum(lower[reached], np.maximum(d, e - d))
        upper[reached] = np.minimum(upper[reached], e + d)


def analyse(
    ids: np.ndarray, words: pl.Series, src: np.ndarray, dst: np.ndarray, labels: np.ndarray
) -> tuple[pl.DataFrame, int]:
    """One labeling (the words `ids` of a lexicon, their links, their group labels): per group of two or
    more its size, length, diameter and first diametral pair; and the BFS waves used."""
    import numpy as np

    n = len(ids)
    local = np.full(len(words), -1, dtype=np.int32)
    local[ids] = np.arange(n)
    s, d = local[src], local[dst]
    keep = (s >= 0) & (d >= 0)
    indptr, indices = csr(n, s[keep], d[keep])
    diameter, start, waves = diameters(indptr, indices, labels)
    # Both ends of a diametral pair are peripheral, so the first pair starts at the first peripheral word
    # and ends at the first word that far from it.
    sizes = np.bincount(labels, minlength=len(diameter))
    wanted = np.flatnonzero(sizes >= 2)
    dist = bfs(indptr, indices, start[wanted])
    waves += 1
    at = np.flatnonzero(dist == diameter[labels])  # ascending: the first per group is the smallest
    at = at[np.isin(labels[at], wanted)]
    end = np.full(len(diameter), -1, dtype=np.int64)
    end[labels[at][::-1]] = at[::-1]  # written last wins: the smallest node of each group
    lengths = words.str.len_chars().to_numpy()[ids].astype(np.int64)
    order = np.argsort(labels, kind="stable")  # reduceat per group, not ufunc.at: 0.45 s less CPU on raw/
    starts = np.flatnonzero(np.r_[True, np.diff(labels[order]) != 0]) if len(labels) else np.zeros(0, dtype=np.int64)
    shortest, longest = np.minimum.reduceat(lengths[order], starts), np.maximum.reduceat(lengths[order], starts)
    table = pl.DataFrame(
        {
            Col.group_id: wanted,
            Col.size: sizes[wanted],
            Col.diameter: diameter[wanted],
            Col.length: np.where(shortest[wanted] == longest[wanted], shortest[wanted], -1),
            Col.start: words.gather(ids[start[wanted]]),
            Col.end: words.gather(ids[end[wanted]]),
        }
    )
    return table.with_columns(pl.when(pl.col(Col.length) >= 0).then(pl.col(Col.length)).alias(Col.length)), waves


def reused(groups: pl.DataFrame, ids, labels, parent: str, parent_table: pl.DataFrame) -> tuple:
    """Which of a labeling's groups (`labels` of the words `ids`) are groups of its parent lexicon's labeling
    (column `parent`) word for word: their rows of the parent's table, renumbered; and the mask of the words
    whose group is not, to analyse afresh. Same words, same links: the same diameter and first pair."""
    import numpy as np

    theirs = groups[parent].cast(pl.Int64).fill_null(-1).to_numpy()
    sizes = np.bincount(theirs[theirs >= 0])
    order = np.argsort(labels, kind="stable")
    starts = np.flatnonzero(np.r_[True, np.diff(labels[order]) != 0]) if len(labels) else np.zeros(0, dtype=np.int64)
    p = theirs[ids][order]
    low, high = np.minimum.reduceat(p, starts), np.maximum.reduceat(p, starts)
    ours = np.diff(np.r_[starts, len(labels)])
    same = (low == high) & (low >= 0) & (ours == sizes[np.maximum(low, 0)])
    mapping = pl.DataFrame({"theirs": low[same], Col.group_id: np.flatnonzero(same)}).cast(pl.Int64)
    copied = parent_table.rename({Col.group_id: "theirs"}).cast({"theirs": pl.Int64}).join(mapping, on="theirs")
    return copied.drop("theirs"), ~same[labels]


def build_analysis(lexicon: pl.DataFrame, links: pl.DataFrame, groups: pl.DataFrame, lexicons: dict) -> dict:
    import numpy as np

    words = lexicon[Col.word]
    lexicons = made_lexicons(lexicons, groups.columns)  # not the config's: a default one may be left out
    columns = group_columns(lexicons)

    def labeling(name: str, mode: str, column: str, parent=None) -> tuple[pl.DataFrame, int]:
        kept = links.filter(pl.col(Col.kind).is_in(KINDS[mode]))
        src, dst = kept[Col.src].to_numpy(), kept[Col.dst].to_numpy()
        ids = np.flatnonzero(groups[in_column(name)].to_numpy())
        labels = groups[column].to_numpy()[ids].astype(np.int64)
        if parent is None:
            return settle(name, mode, ids, src, dst, labels)
        # A derived lexicon shares most groups with the one it comes from (csw less 100 words: all but 43
        # of 160,460 sub groups on raw/): only its other groups are analysed.
        copied, fresh = reused(groups, ids, labels, columns[lexicons[name]["from"], mode], parent.result()[0])
        if not fresh.any():
            return copied, 0
        kept_groups, local = np.unique(labels[fresh], return_inverse=True)
        table, waves = settle(name, mode, ids[fresh], src, dst, local.ravel())
        table = table.with_columns(pl.Series(Col.group_id, kept_groups[table[Col.group_id].to_numpy()], pl.Int64))
        return pl.concat([copied.select(table.columns).cast(table.schema), table]).sort(Col.group_id), waves

    def settle(name: str, mode: str, ids, src, dst, labels) -> tuple[pl.DataFrame, int]:
        try:
            return analyse(ids, words, src, dst, labels)
        except TooHard as e:
            hard = e.details
            words_, edges = hard["members"], hard["edges"]
            raise TooHard(
                f"stage 6 cannot settle the longest ladder of the {name}/{mode} group of "
                f"{words[int(ids[hard['node']])]} ({wording.words(words_)}, {wording.links(edges)}): it is {hard['low']} to "
                f"{hard['high']} steps after {hard['waves']:,} searches and {hard['work']:,} nodes and links "
                f"visited, the most this stage allows (WORK_LIMIT, a minute or two); settling it exactly may "
                f"take a search from each of its words, {words_ * (2 * words_ + 2 * edges):,} visits, where word "
                "lists take a few dozen searches (a list whose words all look alike, such as every word over "
                "the letters A and B, needs a search from nearly every word)"
            ) from None

    def depth(name: str) -> int:
        return 1 + depth(lexicons[name]["from"]) if lexicons[name].get("from") in lexicons else 0

    # Two labelings at a time: numpy lets go of the GIL in its larger steps, so the waves of one run
    # while the other's Python steps. On raw/, side by side: 1.83-2.13 s -> 1.32-1.45 s. A derived
    # lexicon's labeling waits for its parent's (submitted before it, so already running or done).
    # On an error or Ctrl-C, the labelings not yet started are cancelled; the running ones finish.
    futures: dict = {}
    with POOL(WORKERS) as pool:
        try:
            for (name, mode), column in sorted(columns.items(), key=lambda item: depth(item[0][0])):
                parent = futures.get((lexicons[name].get("from"), mode))
                futures[name, mode] = pool.submit(labeling, name, mode, column, parent)
            done = {key: future.result() for key, future in futures.items()}
        except BaseException:
            pool.shutdown(cancel_futures=True)
            raise
    tables, notes = [], []
    for name, mode in columns:
        table, waves = done[name, mode]
        tables.append(
            table.with_columns(pl.lit(name).alias(Col.lexicon), pl.lit(mode).alias(Col.mode)).select(list(LONGEST))
        )
        if table.height:
            top = table.sort(Col.diameter, Col.group_id, descending=[True, False]).row(0, named=True)
            notes.append(
                f"{name}/{mode}: {counted(table.height, 'group')} of 2+ words, {counted(waves, 'BFS wave')}; longest "
                f"{top[Col.start]}-{top[Col.end]}, {counted(top[Col.diameter], 'step')}"
            )
    longest = pl.concat(tables).cast(LONGEST).sort(Col.lexicon, Col.mode, Col.group_id)
    return {"longest": longest, "notes": notes}


STAGE = Stage(
    number=6,
    name="analysis",
    transform=build_analysis,
    reads=("lexicon", "links", "groups"),  # not a column: the tables stage 6 reads
    settings=("lexicons",),
    writes={"longest": Output("06_longest.parquet", LONGEST)},
    # Not beside stage 2 (definitions): a cold build peaked with both (docs/performance.md).
    runs_after=("definitions",),  # not a column
)
