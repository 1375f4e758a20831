"""An export written in memory: the six transforms run on two word lists and a SCOWL level per word, for the
tests of the solver, the puzzles and `solve --json` that need an export of chosen words without a build."""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from conftest import NO_WORDFREQ, TWO_LISTS, groups_of
from pipeline.config import load_config
from stages.s01_lexicon import build_lexicon
from stages.s02_definitions import build_definitions
from stages.s03_rareness import build_rareness
from stages.s04_links import build_links
from stages.s06_analysis import build_analysis
from stages.s07_export import build_export
from support.paths import DATA

TABLE = load_config()["rareness_by_level"]
WORDNET = {f"wordnet/{p.name}": p.read_bytes() for p in (DATA / "tiny/wordnet").iterdir()}
SUPPLEMENT = {"supplement.txt": (DATA / "tiny/supplement.txt").read_bytes()}
LABELS = load_config()["rareness_labels"]  # common (everyday) up to 35


def digests_of(**files_by_key: dict[str, bytes]) -> dict[str, dict]:
    """What the runner hands stage 7 for its manifest: sha256 and size of each raw file."""
    return {
        label: {"key": key, "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}
        for key, files in files_by_key.items()
        for label, data in files.items()
    }


def write_export(
    folder: Path, csw: list[str], owl: list[str], levels: dict[str, int], lexicons: dict | None = None, files=None
) -> Path:
    """Run the six transforms in memory on two word lists (and any `files` the `lexicons` name besides) and a
    SCOWL level per word; write the export."""
    csw_file = {"csw.txt": "\n".join(csw).encode()}
    owl_file = {"owl.txt": "\n".join(owl).encode()}
    lexicons = lexicons or TWO_LISTS
    scowl: dict[str, list[str]] = {}
    for word, level in levels.items():
        scowl.setdefault(f"scowl/english-words.{level}", []).append(word.lower())
    scowl_files = {k: "\n".join(v).encode() for k, v in scowl.items()}
    stage1 = build_lexicon({**csw_file, **owl_file, **(files or {})}, lexicons)
    lexicon = stage1["lexicon"]
    links = build_links(lexicon)["links"]
    rareness = build_rareness(lexicon, scowl_files, NO_WORDFREQ, TABLE, LABELS, 0)["rareness"]
    groups = groups_of(lexicon, links, lexicons, rareness)
    folder.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(dir=folder.parent))  # the runner's scratch folder, stage 7 writes there
    export = build_export(
        lexicon,
        stage1["skipped"],
        stage1["warnings"],
        build_definitions(lexicon, WORDNET, SUPPLEMENT, ["wordnet"])["definitions"],
        rareness,
        links,
        groups,
        build_analysis(lexicon, links, groups, lexicons)["longest"],
        digests_of(csw=csw_file, owl=owl_file, scowl=scowl_files, wordnet=WORDNET, supplement=SUPPLEMENT),
        lexicons,
        ["wordnet"],
        TABLE,
        LABELS,
        scratch=scratch,
    )["export"]
    for name, data in export.items():
        if isinstance(data, Path):  # ladder.sqlite, handed over as a file in the scratch folder
            data.replace(folder / name)
        else:
            (folder / name).write_bytes(data)
    scratch.rmdir()
    return folder
