"""Stage 5, groups: connected components of the link graph, per lexicon and mode.

Reads build/01_lexicon.parquet (`id`, `in_owl`) and build/04_links.parquet
(`src`, `dst`, `kind`).

Four labelings: csw/sub (the graph of sub links induced on CSW words), owl/sub
(induced on OWL words alone, so two OWL words in one CSW group may be apart
here), csw/edit and owl/edit (sub plus indel links). Components come from a
few rounds of numpy (`components`) and are numbered from 0 in order of each
group's smallest word id, so they are deterministic.

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

if TYPE_CHECKING:  # numpy loads only when groups are computed: a no-op build never needs it
    import numpy as np


def components(n: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Group of each of n nodes, numbered from 0 in order of each group's smallest node.

    Min-label hooking with pointer jumping, in numpy: each node points at a node of its own group,
    never at a larger one. Every round, for each link whose two ends still point at different
    trees, the larger of the two tree roots is pointed at the smaller (np.minimum.at keeps the
    smallest when several links hook one root), then every pointer is followed to its root. Links
    inside one tree are dropped. When no link is left, each node points at its group's smallest
    node, which points at itself. A round carries each group's smallest label one link further at
    least, and in practice halves the trees; raw/ takes five rounds. This replaced scipy's
    connected_components, whose compute is about as fast (a labeling of raw/: 23 ms against our
    17 ms; of the bench's 16x synthetic lexicon: 0.5-0.6 s against our 0.6-0.7 s) but whose import
    (0.2 s) was most of the stage.
    """
    import numpy as np

    parent = np.arange(n, dtype=np.intp)
    src, dst = src.astype(np.intp, copy=False), dst.astype(np.intp, copy=False)
    while len(src):
        a, b = parent[src], parent[dst]
        apart = np.flatnonzero(a != b)
        src, dst, a, b = src[apart], dst[apart], a[apart], b[apart]
        np.minimum.at(parent, np.maximum(a, b), np.minimum(a, b))
        # Pointer jumping on the nodes not yet pointing at a root only: 16x synthetic, 0.8-1.1 -> 0.6 s.
        todo = np.flatnonzero(parent[parent] != parent)
        while todo.size:
            up = parent[parent[todo]]
            parent[todo] = up
            todo = todo[parent[up] != up]
    roots = parent == np.arange(n)
    return (np.cumsum(roots, dtype=np.uint32) - 1)[parent]


def labelings(links: pl.DataFrame, members: pl.Series) -> dict[str, pl.Series]:
    """Sub and edit groups of the graph induced on the words where `members` is true (null elsewhere).

    Edit groups are sub groups joined by insert/delete links, so they are found on the graph of the
    sub groups, not of the words again (16x synthetic: 0.6 -> 0.3 s a labeling). Sub groups are
    numbered in order of their smallest word, so an edit group's smallest sub group holds its
    smallest word: the numbering stays in order of each group's smallest word."""
    import numpy as np

    keep = members.to_numpy()
    local = np.cumsum(keep) - 1  # position of each member among members
    src, dst = links[Col.src].to_numpy(), links[Col.dst].to_numpy()
    inside = keep[src] & keep[dst]
    src, dst, is_sub = local[src[inside]], local[dst[inside]], (links[Col.kind] == "sub").to_numpy()[inside]
    sub = components(int(keep.sum()), src[is_sub], dst[is_sub])
    edit = components(int(sub.max()) + 1 if sub.size else 0, sub[src[~is_sub]], sub[dst[~is_sub]])[sub]
    out = {}
    for mode, groups in (("sub", sub), ("edit", edit)):
        full = np.zeros(len(keep), dtype=np.uint32)
        full[keep] = groups
        out[mode] = pl.Series(full, dtype=pl.UInt32).scatter(np.flatnonzero(~keep), None)
    return out


def build_groups(lexicon: pl.DataFrame, links: pl.DataFrame) -> dict:
    found = {name: labelings(links, lexicon[f"in_{name}"]) for name in ("csw", "owl")}  # not a column: lexicons
    groups = pl.DataFrame(
        {Col.id: lexicon[Col.id], **{column: found[name][mode] for (name, mode), column in GROUP_COLUMNS.items()}}
    )
    counts = ", ".join(f"{c.removeprefix('group_')} {groups[c].drop_nulls().n_unique():,}" for c in list(GROUPS)[1:])
    return {"groups": groups, "notes": [f"groups: {counts}"]}


STAGE = Stage(
    number=5,
    name="groups",
    transform=build_groups,
    reads=("lexicon", "links"),  # not a column: the tables stage 5 reads
    writes={"groups": Output("05_groups.parquet", GROUPS)},
)
