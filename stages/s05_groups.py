"""Stage 5, groups: each lexicon's words, and the connected components of the link graph per lexicon and mode.

Reads build/01_lexicon.parquet (`id` and the lists' pieces: list_<name>, add_<name>, remove_<name>),
build/03_rareness.parquet (`main_level`, for a lexicon's `max_scowl_level` filter) and
build/04_links.parquet (`src`, `dst`, `kind`); config `lexicons`.

Membership first, here because a filter needs what stage 3 knows of a word (stage 1 knows only the lists):
a lexicon holds ((its base, filtered) plus its add-list) less its remove-list, where its base is its own
list file's words or, for a lexicon derived `from` another, that lexicon's words (so the order matters:
everyday's filter applies to csw's words, an add-list word passes no filter, a remove-list wins over all).
A lexicon that ends up holding no word is an InputFormatError, but for a default one (config
`default_lexicons`: made by the built-in defaults, named by no config file, as everyday is): lists that hold
no word of SCOWL's main lists (made-up words, another language's) leave everyday empty, and it is left out,
said once as a warning. So the lexicons made depend on the data: they are the in_<name> columns of this
stage's table (pipeline/schemas.py, made_lexicons), which stages 6 and 7 read instead of config `lexicons`.

Then two labelings per lexicon: sub (the graph of sub links induced on the lexicon's words, so two OWL
words in one CSW group may be apart in OWL's) and edit (sub plus indel links). Components come from a
scipy's connected_components (`components`) and are numbered from 0 in order of each group's smallest word id, so
they are deterministic.

Writes build/05_groups.parquet, one row per word of 01, key `id` (schema: pipeline/schemas.py,
groups_schema): id u32; in_<name> bool for each lexicon made (config order); then group_<name> u32 for each
lexicon made, then group_<name>_edit u32 for each (pipeline/columns.py, group_columns): the word's group among the
lexicon's words, null outside the lexicon.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import polars as pl

from pipeline.columns import Col, group_columns, how_made, in_column
from pipeline.errors import InputFormatError
from pipeline.schemas import groups_schema
from pipeline.stage import Output, Stage

if TYPE_CHECKING:  # numpy loads only when groups are computed: a no-op build never needs it
    import numpy as np


def components(n: int, src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """Group of each of n nodes (u32), numbered from 0 in order of each group's smallest node: scipy's
    connected_components, which labels a group from each node not yet labelled, in ascending order. Its
    import (0.2 s of CPU, most of the stage on raw/: 0.65 -> 0.84 s for the process) replaced 25 lines of
    our own union-find; the stage runs beside stage 2, off the build's critical path."""
    import numpy as np
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    graph = csr_matrix((np.ones(len(src), dtype=np.int32), (src, dst)), shape=(n, n))
    return connected_components(graph, directed=False)[1].astype(np.uint32)


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


def memberships(
    lexicon: pl.DataFrame, rareness: pl.DataFrame, lexicons: dict, defaults: tuple = (), notes: list | None = None
) -> dict[str, pl.Series]:
    """The words (a bool per row of `lexicon`) of each lexicon made, as the module docstring says. An empty
    lexicon is an error, but for one of `defaults` (made by the built-in defaults, not named by a config:
    everyday), which is left out, with a warning in `notes`."""
    if not rareness[Col.id].equals(lexicon[Col.id]):
        rareness = lexicon.select(Col.id).join(rareness, on=Col.id, how="left")
    level = rareness["main_level"]
    found: dict[str, pl.Series] = {}

    def member(name: str) -> pl.Series:
        if name not in found:
            entry = lexicons[name]
            words = lexicon[f"list_{name}"] if "file" in entry else member(entry["from"])
            if "max_scowl_level" in entry:
                words = words & (level <= entry["max_scowl_level"]).fill_null(False)
            if "add" in entry:
                words = words | lexicon[f"add_{name}"]
            if "remove" in entry:
                words = words & ~lexicon[f"remove_{name}"]
            if not words.any() and name not in defaults:
                raise InputFormatError(
                    f"lexicon {name!r} holds no word once made ({how_made(entry)}): an empty lexicon; "
                    f"give it words, or drop it with `{name} = false` under [lexicons]"
                )
            found[name] = words.alias(in_column(name))
        return found[name]

    made = {name: member(name) for name in lexicons}
    for name in [name for name, words in made.items() if not words.any()]:  # only defaults get here
        # Its words stay in `found` for a lexicon derived from it (an add-list's words); it goes nowhere else.
        del made[name]
        (notes if notes is not None else []).append(
            f"warning: lexicon {name!r} holds no word of this build: left out (it is a default; drop it with "
            f"{name} = false to silence this)"
        )
    return made


def build_groups(
    lexicon: pl.DataFrame, rareness: pl.DataFrame, links: pl.DataFrame, lexicons: dict, default_lexicons: list = ()
) -> dict:
    warnings: list[str] = []
    members = memberships(lexicon, rareness, lexicons, tuple(default_lexicons), warnings)
    found = {name: labelings(links, words) for name, words in members.items()}
    groups = pl.DataFrame(
        {
            Col.id: lexicon[Col.id],
            **{in_column(name): words for name, words in members.items()},
            **{column: found[name][mode] for (name, mode), column in group_columns(members).items()},
        }
    )
    counts = ", ".join(
        f"{column.removeprefix('group_')} {groups[column].drop_nulls().n_unique():,}"
        for column in group_columns(members).values()
    )
    sizes = ", ".join(f"{name} {int(words.sum()):,}" for name, words in members.items())
    return {"groups": groups, "notes": [*warnings, f"words: {sizes}", f"groups: {counts}"]}


STAGE = Stage(
    number=5,
    name="groups",
    transform=build_groups,
    reads=("lexicon", "rareness", "links"),  # not a column: the tables stage 5 reads
    settings=("lexicons", "default_lexicons"),
    writes={"groups": Output("05_groups.parquet", groups_schema, made=True)},
)
