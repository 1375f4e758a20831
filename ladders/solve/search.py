"""Pure graph search on one group: adjacency lists (or CSR arrays) of local word numbers 0..n-1, no IO.

- reachable(adjacent, s, t): whether t can be reached from s;
- distances(adjacent, s): steps from s to every word it reaches;
- bfs(adjacent, s, t): shortest-path counts and predecessors from s, up to t;
- bidirectional_bfs(adjacent, s, t, rng, weight): one s-t path of the fewest steps and, among those, the
  least weight sum, drawn uniformly among the exact ties, and how many tie;
- a_star(adjacent, cost, steps_left, s, t, weight): counts and predecessors of the least-(cost sum, steps,
  weight sum) paths;
- csr(adjacent), least_cost(indptr, indices, cost, s, t, weight): the same answer by a compiled Dijkstra
  (scipy), for large groups: 5-10x faster there, but importing scipy costs about 0.14 s, more than a small
  group's A*;
- draw(preds, counts, t, rng): one counted path back to t, uniformly.
The solver (solver.py) loads groups and presents ladders; tests check these against brute force.
"""

from __future__ import annotations

import heapq
import random
from collections import deque
from typing import TYPE_CHECKING

from pipeline import graph

if TYPE_CHECKING:  # numpy is imported where used: a one-off solve of a small group needs none of it (0.1 s)
    import numpy as np


class Unreachable(Exception):
    """No path between the two words (the solver checks groups first, so this means a damaged export)."""


def reachable(adjacent: list[list[int]], s: int, t: int) -> bool:
    seen, queue = {s}, deque([s])
    while queue:
        v = queue.popleft()
        if v == t:
            return True
        for u in adjacent[v]:
            if u not in seen:
                seen.add(u)
                queue.append(u)
    return False


def distances(adjacent: list[list[int]], s: int, within: int | None = None) -> dict[int, int]:
    """Steps from s to every node it reaches (`within`: only those at most that many steps away, so that a
    puzzle of N steps walks its start's neighbourhood, not its whole group)."""
    dist = {s: 0}
    queue = deque([s])
    while queue:
        v = queue.popleft()
        if within is not None and dist[v] >= within:
            continue
        for u in adjacent[v]:
            if u not in dist:
                dist[u] = dist[v] + 1
                queue.append(u)
    return dist


def bfs(adjacent: list[list[int]], s: int, t: int) -> tuple[dict[int, int], dict[int, list[int]]]:
    """Shortest-path counts and predecessors from s, up to t's distance."""
    dist, counts, preds = {s: 0}, {s: 1}, {s: []}
    queue = deque([s])
    while queue:
        v = queue.popleft()
        if v == t or dist[v] >= dist.get(t, len(adjacent)):
            continue
        for u in adjacent[v]:
            if u not in dist:
                dist[u], counts[u], preds[u] = dist[v] + 1, 0, []
                queue.append(u)
            if dist[u] == dist[v] + 1:
                counts[u] += counts[v]
                preds[u].append(v)
    return counts, preds


def bidirectional_bfs(
    adjacent: list[list[int]], s: int, t: int, rng: random.Random, weight: list[int] | None = None
) -> tuple[list[int], int]:
    """An s-t path of the fewest steps and, among those, the least sum of `weight` over its words
    (every path of the fewest steps when weight is None), drawn uniformly among the exact ties; and
    how many tie.

    Whole layers grow from the smaller side until a new layer touches the
    other side. Every shortest path crosses that layer at a node m nearest the
    other side. On each side, while a layer grows, each node keeps the least
    weight sum from its side's end over the shortest paths to it, how many
    reach that sum, and the predecessors on them (a node's predecessors are all
    in the layer before, already final). A ladder through m then sums
    best_s(m) + best_t(m) - weight(m), and the ties at the least of those
    number count_s(m) * count_t(m) for each such m: draw m in proportion, then
    walk back to each end.
    """
    w = weight if weight is not None else [0] * len(adjacent)
    dist, best, counts, preds = ({s: 0}, {t: 0}), ({s: w[s]}, {t: w[t]}), ({s: 1}, {t: 1}), ({s: []}, {t: []})
    frontier = ([s], [t])
    while frontier[0] and frontier[1]:
        side = 0 if len(frontier[0]) <= len(frontier[1]) else 1
        d, b, c, p = dist[side], best[side], counts[side], preds[side]
        layer = []
        for v in frontier[side]:
            step, ways, sofar = d[v] + 1, c[v], b[v]  # the hot loop: one dict lookup per link where it can
            for u in adjacent[v]:
                du = d.get(u)
                if du is None:
                    d[u], b[u], c[u], p[u] = step, sofar + w[u], ways, [v]
                    layer.append(u)
                elif du == step:
                    total = sofar + w[u]
                    if total < b[u]:
                        b[u], c[u], p[u] = total, ways, [v]
                    elif total == b[u]:
                        c[u] += ways
                        p[u].append(v)
        frontier = (layer, frontier[1]) if side == 0 else (frontier[0], layer)
        other = dist[1 - side]
        met = [u for u in layer if u in other]
        if met:
            nearest = min(other[u] for u in met)
            through = {u: best[0][u] + best[1][u] - w[u] for u in met if other[u] == nearest}
            least = min(through.values())
            met = [u for u, total in through.items() if total == least]
            ways = [counts[0][u] * counts[1][u] for u in met]
            m = rng.choices(met, weights=ways)[0]
            to_s, to_t = draw(preds[0], counts[0], m, rng), draw(preds[1], counts[1], m, rng)
            return to_s + to_t[::-1][1:], sum(ways)
    raise Unreachable("no ladder between these words")  # unreachable when both share a group


def a_star(
    adjacent: list[list[int]],
    cost: list[int],
    steps_left: list[int],
    s: int,
    t: int,
    weight: list[int] | None = None,
) -> tuple[dict[int, int], dict[int, list[int]]]:
    """Counts and predecessors of the least-(cost sum, steps, weight sum) paths from s, until t is settled.

    A* on the triple, compared in that order. From a word v other than t, any
    ladder still pays t's own cost and weight and max(steps_left[v] - 1, 0)
    more words of at least the group's least cost and weight, in at least
    max(steps_left[v], 1) steps. Each part of that bound is consistent (a step
    lowers steps_left by at most one), so the triple is too and nodes settle in
    order; counting t's cost keeps the search away from every word costlier
    than the best ladder, even when both ends are costly. Ties on the estimate
    pop the smaller triple first, so all of a node's predecessors are counted
    before the node itself is settled. weight None: no third key.
    """
    w = weight if weight is not None else [0] * len(adjacent)
    least, lightest = min(cost), min(w)

    def estimate(v: int, key: tuple[int, int, int]) -> tuple:
        if v == t:
            return (*key, *key, v)
        more = max(steps_left[v] - 1, 0)
        bound = (key[0] + cost[t] + more * least, key[1] + max(steps_left[v], 1), key[2] + w[t] + more * lightest)
        return (*bound, *key, v)

    best = {s: (cost[s], 0, w[s])}
    counts, preds, done = {s: 1}, {s: []}, set()
    heap = [estimate(s, best[s])]
    while heap:
        *_, c, steps, weighed, v = heapq.heappop(heap)
        key = (c, steps, weighed)
        if v in done or key != best[v]:
            continue
        done.add(v)
        if v == t:
            break
        for u in adjacent[v]:
            candidate = (c + cost[u], steps + 1, weighed + w[u])
            if u not in best or candidate < best[u]:
                best[u], counts[u], preds[u] = candidate, counts[v], [v]
                heapq.heappush(heap, estimate(u, candidate))
            elif candidate == best[u] and u not in done:
                counts[u] += counts[v]
                preds[u].append(v)
    return counts, preds


def csr(adjacent: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """The adjacency lists as CSR arrays (indptr, indices), for the compiled searches."""
    import numpy as np

    lengths = np.fromiter(map(len, adjacent), dtype=np.int64, count=len(adjacent))
    targets = np.fromiter((u for ns in adjacent for u in ns), dtype=np.int32, count=int(lengths.sum()))
    return graph.csr(len(adjacent), np.repeat(np.arange(len(adjacent)), lengths), targets)


def least_cost(
    indptr: np.ndarray,
    indices: np.ndarray,
    cost: np.ndarray,
    s: int,
    t: int,
    weight: list[int] | None = None,
) -> tuple[dict[int, int], dict[int, list[int]]]:
    """Counts and predecessors of the least-(cost sum, steps, weight sum) paths from s to t (every cost >= 1).

    One Dijkstra in compiled code (scipy) finds each word's least cost sum from s. The links that
    stay on such a sum (sum[v] + cost[u] == sum[u]) form a DAG ordered by sum; only its words from
    which t is reached matter, usually a handful. Over those, in order of sum, the least (steps,
    weight sum) and their count are a plain dynamic programme. Sums are exact: at most n * 2^32 < 2^53
    for n < 2^21 words.
    """
    import numpy as np

    _one_blas_thread()
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order, dijkstra

    n = len(indptr) - 1
    w = weight if weight is not None else [0] * n
    cost = np.asarray(cost, dtype=np.float64)
    total = dijkstra(csr_matrix((cost[indices], indices, indptr), shape=(n, n)), indices=s)
    if not np.isfinite(total[t]):
        raise Unreachable("no ladder between these words")
    src = np.repeat(np.arange(n, dtype=np.int32), np.diff(indptr))
    tight = (total[src] + cost[indices] == total[indices]) & (total[indices] <= total[t])
    tsrc, tdst = src[tight], indices[tight]
    back = csr_matrix((np.ones(len(tsrc), dtype=np.int8), (tdst, tsrc)), shape=(n, n))
    on_way = np.zeros(n, dtype=bool)
    on_way[breadth_first_order(back, t, directed=True, return_predecessors=False)] = True
    keep = on_way[tsrc] & on_way[tdst]
    into: dict[int, list[int]] = {}
    for v, u in zip(tsrc[keep].tolist(), tdst[keep].tolist()):
        into.setdefault(u, []).append(v)
    nodes = np.flatnonzero(on_way)
    key, counts, preds = {s: (0, w[s])}, {s: 1}, {s: []}
    for u in nodes[np.argsort(total[nodes], kind="stable")].tolist():
        if u == s:
            continue
        least = min((key[v][0] + 1, key[v][1] + w[u]) for v in into[u])
        preds[u] = [v for v in into[u] if (key[v][0] + 1, key[v][1] + w[u]) == least]
        key[u], counts[u] = least, sum(counts[v] for v in preds[u])
    return counts, preds


def draw(preds: dict[int, list[int]], counts: dict[int, int], t: int, rng: random.Random) -> list[int]:
    """One path back from t, uniform over all counted paths: step to a predecessor in proportion to its count."""
    path = [t]
    while preds[path[-1]]:
        options = preds[path[-1]]
        path.append(rng.choices(options, weights=[counts[u] for u in options])[0])
    return path[::-1]


def _one_blas_thread() -> None:
    """Under an address-space limit (`ulimit -v`), scipy's OpenBLAS starts a thread per core, each
    reserving a large stack; when that fails it spins at 100% CPU, ignoring Ctrl-C (`import
    scipy.sparse.csgraph` alone hung under `ulimit -v 250000`). The graph search needs no BLAS: one thread,
    unless the user chose otherwise. Read by OpenBLAS when it loads, so before scipy's first import."""
    import os
    import resource

    if resource.getrlimit(resource.RLIMIT_AS)[0] != resource.RLIM_INFINITY:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
