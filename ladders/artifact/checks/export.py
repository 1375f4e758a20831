"""An export folder as verify's checks read it: the manifest, words.parquet and groups.parquet each read
once, on first use (longest.parquet and ladder.sqlite are read by the checks that need them).

`Export(folder)` gives the manifest (contract.load_manifest), the lexicons it names, the group columns
and, for each, its lexicon's flag and its mode's neighbour-list columns; words.parquet and groups.parquet
as frames; and the (src, dst) pairs of a neighbour-list column. EXAMPLES is how many examples a failed
check lists.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import polars as pl

from pipeline.columns import GROUPS_FILE, LIST_COLUMNS, WORDS_FILE, Col, group_columns, in_column
from ladders.artifact.contract import link_pairs, load_manifest, manifest_lexicons

EXAMPLES = 5


@dataclass
class Export:
    folder: Path

    @cached_property
    def manifest(self) -> dict:
        return load_manifest(self.folder)

    @cached_property
    def lexicons(self) -> tuple[str, ...]:
        return manifest_lexicons(self.manifest)

    @cached_property
    def group_columns(self) -> dict[tuple[str, str], str]:
        return group_columns(self.lexicons)

    @cached_property
    def labelings(self) -> dict[str, tuple[str, list[str]]]:
        """Each group column: the flag of its lexicon and the neighbour lists of its mode."""
        return {column: (in_column(lex), LIST_COLUMNS[mode]) for (lex, mode), column in self.group_columns.items()}

    @cached_property
    def words(self) -> pl.DataFrame:
        return pl.read_parquet(self.folder / WORDS_FILE, glob=False)  # the path as written: no pattern

    @cached_property
    def groups(self) -> pl.DataFrame:
        return pl.read_parquet(self.folder / GROUPS_FILE, glob=False)

    def pairs(self, column: str) -> pl.DataFrame:
        """(`src`, `dst`) for every entry of a neighbour-list column."""
        return link_pairs(self.words, (column,)).drop(Col.kind)
