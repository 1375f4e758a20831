"""A previous release's export, checked before CHANGES.md compares against it (ladders/artifact/release.py
calls check_previous_export once the release's files match its SHA256SUMS).

SHA256SUMS says only that the files are the ones that were packed, not that they are an export: a manifest
that is a JSON list read as no manifest at all ("schema_version None"), and link ids past the last word were
dropped by the comparison's joins ("links +0"). So the manifest must have an export manifest's shape; and when
its schema_version is this ladders' (another is named in CHANGES.md, not compared), its files must match it
(verify's E001), have the contract's columns (E002), ids 0..N-1 in row order, and every neighbour-list entry
an id of the file. Reads the release folder's manifest.json, words.parquet, groups.parquet and
longest.parquet; writes nothing. A failure is DamagedState (exit 3) naming the first damage found.
"""

from __future__ import annotations

import json
from pathlib import Path

from pipeline.columns import LINK_KINDS, MANIFEST_FILE, SCHEMA_VERSION, Col
from pipeline.errors import DamagedState
from ladders.artifact.checks import files
from ladders.artifact.checks.export import Export


def _manifest_shape(manifest) -> str:
    """What keeps `manifest` from having an export manifest's shape (the keys a comparison reads), or ''."""
    if not isinstance(manifest, dict):
        return f"a JSON {type(manifest).__name__}, not an object"
    version = manifest.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, (int, str)):
        return f"its schema_version is {json.dumps(version)}, not a number"
    entries = manifest.get("files")
    if not isinstance(entries, dict) or not all(
        isinstance(e, dict) and isinstance(e.get("sha256"), str) for e in entries.values()
    ):
        return "its files are not an object of {name: {sha256, ...}}"
    lexicons = manifest.get("lexicons", [])
    if not isinstance(lexicons, list) or not all(
        isinstance(e, dict) and isinstance(e.get("name"), str) for e in lexicons
    ):
        return "its lexicons are not a list of {name, ...}"
    config = manifest.get("config", {})
    labels = config.get("rareness_labels", {}) if isinstance(config, dict) else None
    if not isinstance(labels, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in (labels or {}).values()
    ):
        return "its config.rareness_labels is not an object of {label: SCOWL level}"
    return ""


def ids_and_links_in_range(e: Export) -> list[str]:
    """ids are not 0..N-1 in row order, or a neighbour list holds an id that is no row"""
    ids = e.words[Col.id]
    bad = [] if ids.equals(ids.__class__(Col.id, range(e.words.height), dtype=ids.dtype)) else ["ids are not 0..N-1"]
    for column in LINK_KINDS:
        top = e.words[column].explode().max()
        if top is not None and top >= e.words.height:
            bad.append(f"{column} holds id {top:,}, past the last word ({e.words.height - 1:,})")
    return bad


# verify's own checks of the files against the manifest and the contract, then the ids.
CHECKS = (files.files_match_manifest, files.schemas_match_contract, ids_and_links_in_range)


def check_previous_export(folder: Path, what: str) -> None:
    """DamagedState naming the first damage of the export in a previous release folder (`what` names it)."""
    try:
        manifest = json.loads((Path(folder) / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise DamagedState(f"{what} is damaged: its {MANIFEST_FILE} is not JSON ({err})") from None
    wrong = _manifest_shape(manifest)
    if wrong:
        raise DamagedState(f"{what} is damaged: its {MANIFEST_FILE} is not an export manifest: {wrong}")
    if manifest["schema_version"] != SCHEMA_VERSION:
        return  # another ladders' export: CHANGES.md names its schema_version and compares nothing
    export = Export(Path(folder))
    for check in CHECKS:
        try:
            found = check(export)
        except Exception as err:  # a file that does not read is damage too, named as verify names it
            found = [f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"]
        if found:
            raise DamagedState(f"{what} is damaged: {' '.join(check.__doc__.split())}: {found[0]}")
