"""Stage 5, groups: connected components of the link graph, per lexicon and mode.

Reads build/01_lexicon.parquet (`id`, `in_owl`) and build/04_links.parquet
(`src`, `dst`, `kind`).

Four labelings: csw/sub (the graph of sub links induced on CSW words), owl/sub
(induced on OWL words alone, so two OWL words in one CSW group may be apart
here), csw/edit and owl/edit (sub plus indel links). Components come from
scipy.sparse.csgraph; ids are then renumbered from 0 in order of each group's
smallest word id, so they are deterministic.

Writes build/05_groups.parquet, one row per word, key `id`:
- id u32
- group_csw u32, group_csw_edit u32: the word's group among CSW words (null: not
  in CSW, which happens only when the OWL list holds words the CSW list lacks)
- group_owl u32, group_owl_edit u32: its group among OWL words (null: not in OWL)
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

from pipeline.artifact.contract import GROUP_COLUMNS, Col
from pipeline.schemas import GROUPS
from pipeline.stage import Output, Stage

if TYPE_CHECKING:  # numpy and scipy load only when groups are computed: a no-op build never needs them
    import numpy as np


def in_order_of_first_node(labels: np.ndarray) -> np.ndarray:
    """The same grouping, numbered from 0 in order of each group's first node."""
    import numpy as np

    labels = labels.astype(np.uint32)
    # Already so numbered (scipy numbers groups as it meets them, though it does not promise
    # to): a linear check, and nothing to do.
    seen = np.maximum.accumulate(labels)
    if len(labels) == 0 or (labels[0] == 0 and bool(np.all(labels[1:] <= seen[:-1] + 1))):
        return labels
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.uint32)
    rank[np.argsort(first)] = np.arange(len(first), dtype=np.uint32)
    return rank[inverse.ravel()]


def components(n: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Group of each of n nodes, numbered from 0 in order of each group's smallest node."""
    import numpy as np
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    graph = coo_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n, n))
    return in_order_of_first_node(connected_components(graph, directed=False)[1])


def label(links: pl.DataFrame, members: pl.Series) -> pl.Series:
    """Groups of the graph induced on the words where `members` is true (null elsewhere)."""
    import numpy as np

    keep = members.to_numpy()
    local = np.cumsum(keep) - 1  # position of each member among members
    src, dst = links[Col.src].to_numpy(), links[Col.dst].to_numpy()
    inside = keep[src] & keep[dst]
    groups = components(int(keep.sum()), local[src[inside]], local[dst[inside]])
    full = np.zeros(len(keep), dtype=np.uint32)
    full[keep] = groups
    return pl.Series(full, dtype=pl.UInt32).scatter(np.flatnonzero(~keep), None)


def build_groups(lexicon: pl.DataFrame, links: pl.DataFrame) -> dict:
    sub = links.filter(pl.col(Col.kind) == "sub")
    kept = {"sub": sub, "edit": links}  # the edit mode joins words by every kind of link
    groups = pl.DataFrame({Col.id: lexicon[Col.id], **{column: label(kept[mode], lexicon[f"in_{name}"])
                                                      for (name, mode), column in GROUP_COLUMNS.items()}})
    counts = ", ".join(f"{c.removeprefix('group_')} {groups[c].drop_nulls().n_unique():,}" for c in list(GROUPS)[1:])
    return {"groups": groups, "notes": [f"groups: {counts}"]}


STAGE = Stage(
    number=5,
    name="groups",
    transform=build_groups,
    reads=("lexicon", "links"),  # not a column: the tables stage 5 reads
    writes={"groups": Output("05_groups.parquet", GROUPS)},
)
