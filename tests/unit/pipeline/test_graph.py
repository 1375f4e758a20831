"""pipeline/graph.py's CSR builder, the one the stages and the solver share, against adjacency lists
built by hand from the same edges."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from pipeline.graph import csr

edges = st.integers(1, 12).flatmap(
    lambda n: st.tuples(st.just(n), st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=40))
)


def rows(indptr: np.ndarray, indices: np.ndarray) -> list[list[int]]:
    return [indices[indptr[v] : indptr[v + 1]].tolist() for v in range(len(indptr) - 1)]


@given(edges, st.booleans())
def test_csr_rows_are_each_nodes_targets_in_edge_order_or_ascending(graph, ascending):
    n, pairs = graph
    expected = [[d for s, d in pairs if s == v] for v in range(n)]
    if ascending:
        expected = [sorted(targets) for targets in expected]
    src = np.array([s for s, _ in pairs], dtype=np.int64)
    dst = np.array([d for _, d in pairs], dtype=np.int64)
    indptr, indices = csr(n, src, dst, ascending=ascending)
    assert indptr.dtype == np.int64 and indices.dtype == np.int32
    assert rows(indptr, indices) == expected
