"""Stage 6, analysis: diameters and first diametral pairs against plain BFS from every word."""

from __future__ import annotations

import gzip

import polars as pl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import brute
from support.brute import oracle
from conftest import TWO_LISTS, groups_of, lexicon_of
from support.paths import DATA
from stages.s04_links import build_links
from stages.s06_analysis import build_analysis

word = st.text(alphabet="abc", min_size=1, max_size=4)
dictionary = st.lists(
    st.tuples(word, st.sampled_from(["both", "both", "csw", "owl"])), min_size=1, max_size=40, unique_by=lambda t: t[0]
)


def analysis_of(csw: list[str], owl: list[str]):
    lex = lexicon_of(csw, owl)
    links = build_links(lex)["links"]
    return lex, build_analysis(lex, links, groups_of(lex, links), TWO_LISTS)["longest"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(dictionary)
def test_diameters_and_first_pairs_equal_bfs_from_every_word(entries):
    csw = sorted({w.upper() for w, where in entries if where != "owl"}) or ["A"]
    owl = sorted({w.upper() for w, where in entries if where != "csw"}) or ["A"]
    _, longest = analysis_of(csw, owl)
    edges = brute.links(sorted(set(csw) | set(owl)))
    for name, members in (("csw", set(csw)), ("owl", set(owl))):
        for mode, kinds in (("sub", {"sub"}), ("edit", {"sub", "indel"})):
            _, groups = oracle(members, edges, kinds)
            rows = longest.filter((pl.col("lexicon") == name) & (pl.col("mode") == mode))
            got = {(r["diameter"], (r["start"], r["end"])) for r in rows.iter_rows(named=True)}
            assert got == set(groups.values()), (name, mode)
            assert sorted(rows["size"]) == sorted(len(g) for g in groups)
            lengths = {frozenset(g): (len({len(w) for w in g}) == 1 and len(next(iter(g)))) or None for g in groups}
            assert sorted(rows["length"].to_list(), key=str) == sorted(lengths.values(), key=str)


def test_knuth_words_graph_diameter():
    """The Stanford GraphBase words graph (5,757 five-letter words): its giant component of 4,493 words
    has diameter 29: networkx.diameter on the same 14,135-edge graph, an independent all-pairs BFS (two
    minutes, so run once when this test was written, not here)."""
    lines = gzip.decompress((DATA / "words_dat.txt.gz").read_bytes()).decode().splitlines()
    words = [line[:5].upper() for line in lines if not line.startswith("*")]
    _, longest = analysis_of(words, words)
    csw = longest.filter((pl.col("lexicon") == "csw") & (pl.col("mode") == "sub")).sort("size", descending=True)
    assert csw["size"][0] == 4_493
    assert csw["diameter"][0] == 29


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 400), st.floats(0.5, 3.0), st.randoms(use_true_random=False))
def test_diameters_of_larger_random_graphs_equal_bfs_from_every_node(n, links_per_node, rng):
    """diameters() itself on graphs of up to 400 nodes, sparse enough for long paths, many groups and trees
    (where the bounds meet slowly): the waves of many groups at once, and the smaller graph of the unsettled
    groups that it goes on in, against BFS from every node."""
    import numpy as np

    from stages.s05_groups import components
    from stages.s06_analysis import csr, diameters

    m = int(n * links_per_node / 2)
    src = np.array([rng.randrange(n) for _ in range(m)], dtype=np.int64)
    dst = np.array([rng.randrange(n) for _ in range(m)], dtype=np.int64)
    keep = src != dst
    src, dst = src[keep], dst[keep]
    group = components(n, src, dst).astype(np.int64)
    indptr, indices = csr(n, src, dst)
    diameter, first, _ = diameters(indptr, indices, group)

    adjacent = {v: set() for v in range(n)}
    for a, b in zip(src.tolist(), dst.tolist()):
        adjacent[a].add(b)
        adjacent[b].add(a)
    ecc = {v: max(brute.distances(adjacent, v).values()) for v in range(n)}
    for g in range(int(group.max()) + 1):
        members = np.flatnonzero(group == g).tolist()
        want = max(ecc[v] for v in members)
        assert diameter[g] == want
        assert first[g] == min(v for v in members if ecc[v] == want)
