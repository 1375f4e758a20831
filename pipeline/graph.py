"""The one builder of compressed sparse rows (CSR) of a word graph, in numpy: stage 6's graph and its
subgraphs, stage 7's neighbour lists, the solver's compiled searches (scipy.sparse.csgraph reads the
same arrays). Reads and writes nothing."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np


def csr(n: int, src: np.ndarray, dst: np.ndarray, ascending: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(indptr int64, indices int32) of the directed edges src -> dst on nodes 0..n-1 (an undirected graph
    passes each edge both ways). A node's targets keep the edges' order, or are ascending with `ascending`;
    edges already in order of `src` are taken as they are (no sort)."""
    import numpy as np

    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst)
    if ascending:
        order = np.argsort(src * max(n, 1) + dst)
    elif len(src) and np.any(src[1:] < src[:-1]):
        order = np.argsort(src, kind="stable")
    else:
        order = None
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=indptr[1:])
    indices = dst if order is None else dst[order]
    return indptr, indices.astype(np.int32, copy=False)
