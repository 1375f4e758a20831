"""The two least-cost searches (ladders/solve/search.py) against oracles on random graphs: every simple
path enumerated on small weighted graphs, and BFS with a DP over the shortest-path layers on layered ones."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support import brute


@st.composite
def weighted_graphs(draw, most: int = 8):
    n = draw(st.integers(2, most))
    edges = draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=20 + (most - 8) * 2))
    adjacent = [
        sorted({b for a, b in edges if a == v and b != v} | {a for a, b in edges if b == v and a != v})
        for v in range(n)
    ]
    # Small weights make equal sums over different step counts common: (sum, steps) ties matter.
    weight = draw(st.lists(st.sampled_from([1, 1, 2, 3, 4, 200, 2_000_001]), min_size=n, max_size=n))
    return adjacent, weight


@st.composite
def layered_graphs(draw):
    """A start (node 0), layers of 1-3 nodes each linked to the layer before, an end (the last node), and a
    few links anywhere: many ladders of the fewest steps that merge and part inside one side's layers,
    which random sparse graphs seldom give."""
    widths = [1, *draw(st.lists(st.integers(1, 3), min_size=2, max_size=6)), 1]
    layers, n = [], 0
    for width in widths:
        layers.append(list(range(n, n + width)))
        n += width
    edges = set()
    for before, layer in zip(layers, layers[1:]):
        for u in layer:
            parents = draw(st.sets(st.sampled_from(before), min_size=1))
            edges |= {(v, u) for v in parents}
    edges |= draw(st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3))
    adjacent = [
        sorted({b for a, b in edges if a == v and b != v} | {a for a, b in edges if b == v and a != v})
        for v in range(n)
    ]
    weight = draw(st.lists(st.sampled_from([1, 1, 2, 3, 4, 200, 2_000_001]), min_size=n, max_size=n))
    return adjacent, weight


def simple_paths(adjacent: list[list[int]], s: int, t: int) -> list[list[int]]:
    found, stack = [], [[s]]
    while stack:
        path = stack.pop()
        if path[-1] == t:
            found.append(path)
            continue
        stack.extend(path + [u] for u in adjacent[path[-1]] if u not in path)
    return found


def everyday_cost(weight: list[int]) -> list[int]:
    """The common-word ladder's cost: 1 for an everyday word (rareness at most 4, SCOWL 35), else the rareness."""
    return [1 if w <= 4 else w for w in weight]


@settings(max_examples=300, deadline=None)
@given(weighted_graphs(), st.integers(0, 2**16))
def test_both_least_cost_searches_count_what_every_simple_path_shows(graph, seed):
    """The A* (small groups) and the scipy Dijkstra (large groups) against every simple path of a tiny
    graph: the least (everyday cost sum, steps, rareness sum), how many paths reach it, and a drawn path at it."""
    from ladders.solve import search

    adjacent, weight = graph
    cost = everyday_cost(weight)
    rng = random.Random(seed)
    s, t = rng.sample(range(len(adjacent)), 2)
    paths = simple_paths(adjacent, s, t)
    if not paths:
        with pytest.raises(search.Unreachable):
            search.least_cost(*search.csr(adjacent), np.asarray(cost), s, t, weight)
        return

    def key(p: list[int]) -> tuple[int, int, int]:
        return sum(cost[v] for v in p), len(p) - 1, sum(weight[v] for v in p)

    scored = [key(p) for p in paths]
    best = min(scored)
    oracle = brute.least_triple(dict(enumerate(map(set, adjacent))), dict(enumerate(cost)), dict(enumerate(weight)), s)
    assert oracle[t] == best
    steps_left = [0] * len(adjacent)  # an admissible bound, the weakest
    for counts, preds in (
        search.a_star(adjacent, cost, steps_left, s, t, weight),
        search.least_cost(*search.csr(adjacent), np.asarray(cost), s, t, weight),
    ):
        assert counts[t] == scored.count(best)
        path = search.draw(preds, counts, t, rng)
        assert path[0] == s and all(b in adjacent[a] for a, b in zip(path, path[1:]))
        assert key(path) == best


@settings(max_examples=400, deadline=None)
@given(st.one_of(weighted_graphs(most=16), layered_graphs()), st.integers(0, 2**16), st.booleans())
def test_shortest_is_the_least_rare_of_the_fewest_steps(graph, seed, ends):
    """The bidirectional search against an independent oracle (BFS from both ends, then a dynamic
    programme over the shortest-path layers) and, on the smaller graphs, against every simple path: fewest
    steps, then the least rareness sum; the count is of exact ties only, and every drawn ladder is one of
    them. Up to 16 nodes, so that ladders of 4 steps and more meet several ways inside one side's layers."""
    from ladders.solve import search

    adjacent, weight = graph
    rng = random.Random(seed)
    s, t = (0, len(adjacent) - 1) if ends else rng.sample(range(len(adjacent)), 2)
    graph_by_node = dict(enumerate(map(set, adjacent)))
    if t not in brute.distances(graph_by_node, s):
        with pytest.raises(search.Unreachable):
            search.bidirectional_bfs(adjacent, s, t, rng, weight)
        return
    steps, least, ties = brute.least_rare_shortest(graph_by_node, dict(enumerate(weight)), s, t)
    fewest = brute.count_shortest(graph_by_node, s, t)
    if len(adjacent) <= 9:
        scored = [(len(p) - 1, sum(weight[v] for v in p)) for p in simple_paths(adjacent, s, t)]
        assert (steps, least, ties) == (*min(scored), scored.count(min(scored)))
    for _ in range(3):
        path, count = search.bidirectional_bfs(adjacent, s, t, rng, weight)
        assert path[0] == s and path[-1] == t and all(b in adjacent[a] for a, b in zip(path, path[1:]))
        assert (len(path) - 1, sum(weight[v] for v in path), count) == (steps, least, ties)
    # Without weights, every fewest-step ladder ties (`--all` and `--count-only` count those).
    assert search.bidirectional_bfs(adjacent, s, t, rng)[1] == fewest
