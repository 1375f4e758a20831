"""Reading an export folder: a file of it that this ladders can read (export_file), its manifest, the
lexicons, label cut-offs and alphabet it was built with, its links as a table (`src`, `dst`: ids; `kind`: sub or
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

    from pipeline.alphabet import Alphabet


def export_lexicons(folder: Path) -> tuple[str, ...]:
    """The lexicons an export holds, in column order, from its manifest; DamagedState when one is unnamed."""
    manifest = read_manifest(folder)
    lexicons, listed = manifest_lexicons(manifest), manifest.get("lexicons")
    if isinstance(listed, list) and (len(lexicons) < len(listed) or not all(isinstance(n, str) for n in lexicons)):
        raise DamagedState(f"{Path(folder) / MANIFEST_FILE} names its lexicons wrongly: this export is damaged")
    return lexicons


def manifest_lexicons(manifest: dict) -> tuple[str, ...]:
    """The lexicons a manifest names, in column order (csw and owl when it names none), the one reader of
    them (verify's too): an entry that is not an object is skipped, one without a name gives None (verify's
    checks report both; export_lexicons refuses them)."""
    listed = manifest.get("lexicons")
    if not isinstance(listed, list):
        return DEFAULT_LEXICONS
    return tuple(entry.get("name") for entry in listed if isinstance(entry, dict))


def default_lexicon(folder: Path) -> str:
    """The lexicon a question that names none asks: csw when the export holds it, else its first lexicon
    with a list file of its own (a language build's: `es`)."""
    names = export_lexicons(folder)
    listed = read_manifest(folder).get("lexicons")
    own = [e.get("name") for e in listed if isinstance(e, dict) and "file" in e] if isinstance(listed, list) else []
    return "csw" if "csw" in names else next((n for n in own if n in names), names[0] if names else "csw")


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


def alphabet_entry(letters: Alphabet) -> dict:
    """An alphabet as the manifest's "alphabet" carries it (docs/languages.md): its language, name, letters, and
    `table`, every character a typed word may hold -> the letters it is written as."""
    return {"language": letters.code, "name": letters.name, "letters": letters.letters, "table": letters.table}


def export_alphabet(folder: Path) -> Alphabet:
    """The alphabet an export was built with, from its manifest's "alphabet"; an export written before the
    manifest carried one is English's (pipeline/languages.toml's row: the one fallback, for every solver's writer).
    Its `fold` is the typed-word rule of every solver. DamagedState when the entry is not a table of letters."""
    from pipeline.alphabet import DEFAULT, Alphabet, alphabet

    entry = read_manifest(folder).get("alphabet")
    if entry is None:
        return alphabet(DEFAULT)
    damaged = DamagedState(f"{Path(folder) / MANIFEST_FILE}: its alphabet is not a table of letters; build it again")
    if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) for k in ("language", "letters")):
        raise damaged
    letters, table = entry["letters"], entry.get("table")
    if not letters or len(set(letters)) != len(letters) or not isinstance(table, dict):
        raise damaged
    for char, into in table.items():
        if len(char) != 1 or not isinstance(into, str) or not into or any(c not in letters for c in into):
            raise damaged
    if any(table.get(c) != c for c in letters):
        raise damaged
    name = entry.get("name") if isinstance(entry.get("name"), str) else entry["language"]
    return Alphabet(entry["language"], name, letters, {}, (), dict(table))


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
