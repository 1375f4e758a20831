"""Reading an export folder: a file of it that this ladders can read (export_file), its manifest, the
lexicons and label cut-offs it was built with, its links as a table (`src`, `dst`: ids; `kind`: sub or
indel), each link in both directions as the neighbour lists store it. The names and schemas are the column
table's (pipeline/columns.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from pipeline.columns import (
    DEFAULT_LABELS,
    DEFAULT_LEXICONS,
    LINK_KINDS,
    MANIFEST_FILE,
    SCHEMA_VERSION,
    WORDS_FILE,
    Col,
)
from pipeline.errors import DamagedState, NoExport

if TYPE_CHECKING:
    import polars as pl


def export_lexicons(folder: Path) -> tuple[str, ...]:
    """The lexicons an export holds, in column order, from its manifest."""
    listed = read_manifest(folder).get("lexicons")
    return tuple(entry["name"] for entry in listed) if isinstance(listed, list) else DEFAULT_LEXICONS


def default_lexicon(folder: Path) -> str:
    """The lexicon a question that names none asks: csw when the export holds it, else its first lexicon
    with a list file of its own (a language build's: `es`)."""
    names = export_lexicons(folder)
    listed = read_manifest(folder).get("lexicons")
    own = [e.get("name") for e in listed if isinstance(e, dict) and "file" in e] if isinstance(listed, list) else []
    return "csw" if "csw" in names else next((n for n in own if n in names), names[0] if names else "csw")


def export_alphabet(folder: Path) -> dict:
    """The export's alphabet (its manifest's `alphabet`: language, name, letters, table: a typed character ->
    the letters it is written as), checked; an export from before the key is English (A-Z). A manifest whose
    alphabet is no such thing is DamagedState."""
    found = read_manifest(folder).get("alphabet")
    if found is None:  # written out, not read from pipeline/alphabet.py: that imports polars, which solve must not
        letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        table = {**{c: c for c in letters}, **{c.lower(): c for c in letters}}
        return {"language": "en", "name": "English", "letters": letters, "table": table}
    table = found.get("table") if isinstance(found, dict) else None
    letters = found.get("letters") if isinstance(found, dict) else None
    if (
        not isinstance(table, dict)
        or not isinstance(letters, str)
        or not letters
        or any(not isinstance(k, str) or len(k) != 1 or not isinstance(v, str) or not v for k, v in table.items())
        or any(c not in letters for v in table.values() for c in v)
        or not isinstance(found.get("name"), str)
    ):
        raise DamagedState(f"{Path(folder) / MANIFEST_FILE}: its alphabet is not a table of characters to letters")
    return found


def export_file(folder: Path, name: str = WORDS_FILE) -> Path:
    """A file of an export folder this version of ladders can read (words.parquet unless named), or
    DamagedState saying why not.

    The solver and diff read exports that a user names; the manifest's schema_version tells an export
    of another ladders release apart from a damaged one before any column is looked up."""
    from pipeline.swap import wait_for_swap

    folder = Path(folder)
    wanted = folder / name
    version = load_manifest(folder).get("schema_version")  # a missing manifest is named first
    if not wait_for_swap(folder, wanted.is_file):  # a rebuild mid-swap: wait
        raise NoExport(f"{folder} is not an export ({wanted.name} does not exist); build the export first (make build)")
    if version != SCHEMA_VERSION:
        raise DamagedState(
            f"{folder} holds schema_version {version!r}; this ladders reads {SCHEMA_VERSION}: "
            "rebuild it with this version (make build)"
        )
    return wanted


def link_pairs(words: pl.DataFrame, columns: tuple[str, ...] = tuple(LINK_KINDS)) -> pl.DataFrame:
    """(`src`, `dst`, `kind`): every entry of the words' neighbour lists as stored, so each link twice."""
    import polars as pl

    return pl.concat(
        [
            words.select(pl.col(Col.id).alias(Col.src), pl.col(c).alias(Col.dst))
            .explode(Col.dst)
            .drop_nulls()
            .with_columns(pl.lit(LINK_KINDS[c]).alias(Col.kind))
            for c in columns
        ]
    )


def label_cutoffs(folder: Path) -> dict[str, int]:
    """The SCOWL level cut-offs of the rareness labels the export was built with, lowest first."""
    cutoffs = read_manifest(folder).get("config", {}).get("rareness_labels") or DEFAULT_LABELS
    return dict(sorted(cutoffs.items(), key=lambda kv: kv[1]))


def load_manifest(folder: Path) -> dict:
    """manifest.json of an export folder, the one reader of it: NoExport when it does not exist (after
    waiting out a rebuild's swap), DamagedState when it is not a JSON object with an object of files."""
    from pipeline.swap import wait_for_swap

    folder = Path(folder)
    path = folder / MANIFEST_FILE
    if not wait_for_swap(folder, path.is_file):  # a rebuild mid-swap: read the new one, not nothing
        raise NoExport(
            f"{folder} is not an export ({MANIFEST_FILE} does not exist); build the export first (make build)"
        )
    try:
        manifest = json.loads(path.read_text())
    except (ValueError, UnicodeDecodeError) as e:
        raise DamagedState(f"{path} is not valid JSON ({e}): this export is damaged; build it again") from None
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files", {}), dict):
        # `[]` made every check that reads it fail with an AttributeError
        raise DamagedState(f"{path} is not a manifest (a JSON object with its files): this export is damaged")
    return manifest


def read_manifest(folder: Path) -> dict:
    """load_manifest, or {} when it is missing or unreadable (callers fall back to the defaults)."""
    try:
        return load_manifest(folder)
    except (OSError, NoExport, DamagedState):
        return {}
