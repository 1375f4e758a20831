"""`ladders export-web DIR`: a static solver page and the compact data it fetches.

Reads words.parquet of an export. Writes into DIR:
- index.html, app.js, style.css: the page (pipeline/web/), plain HTML/CSS/JS;
- data/lexicon.json: what a search needs, column by column, for every word in
  id order: `words` (the words), `rareness`, `label` (0 common, 1 uncommon,
  2 rare, 3 obscure, from the manifest's cut-offs), `offensive` and `vulgar_sense` (0/1), the four
  group columns (null: not in that lexicon), and the links as CSR arrays:
  `sub_ptr`/`sub_idx` (substitution neighbours of word i are
  sub_idx[sub_ptr[i]:sub_ptr[i+1]]) and `indel_ptr`/`indel_idx`;
- data/defs/N.json: the definitions of words N*SHARD .. N*SHARD+SHARD-1, an
  array (null: none). The page fetches only the shards of the rungs it shows;
- sw.js and files.json: a service worker that caches every file listed once the
  page has loaded, so that the page works offline afterwards.
Definitions are most of the bytes (about 30 MB for raw/), so they stay out of
the one file the page must load before it can solve.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import polars as pl

from pipeline.artifact.contract import GROUP_COLUMNS, Col, export_file, label_cutoffs
from pipeline.errors import UsageError

SHARD = 4_096
PAGE = Path(__file__).resolve().parent.parent / "web"


def _csr(lists: pl.Series) -> tuple[list[int], list[int]]:
    lengths = lists.list.len().fill_null(0).to_numpy()
    ptr = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=ptr[1:])
    return ptr.tolist(), lists.explode().drop_nulls().cast(pl.Int64).to_list()


def web_files(export: Path) -> dict[str, bytes]:
    """Every file of the page folder, by path relative to it."""
    words = pl.read_parquet(export_file(export))
    cutoffs = label_cutoffs(export)
    labels = [*cutoffs, "obscure"]
    label = pl.lit(len(cutoffs))  # obscure: beyond the last cut-off, or not in SCOWL
    for number, top in reversed(list(enumerate(cutoffs.values()))):
        label = pl.when(pl.col(Col.scowl_level) <= top).then(number).otherwise(label)
    sub_ptr, sub_idx = _csr(words[Col.links])
    indel_ptr, indel_idx = _csr(words[Col.edit_links])
    data = {
        "labels": labels, "words": words[Col.word].to_list(), Col.rareness: words[Col.rareness].to_list(),
        "label": words.select(label.alias("label"))["label"].to_list(),
        Col.offensive: words[Col.offensive].cast(pl.Int8).to_list(),
        Col.vulgar_sense: words[Col.vulgar_sense].cast(pl.Int8).to_list(),
        **{column: words[column].to_list() for column in GROUP_COLUMNS.values()},
        "sub_ptr": sub_ptr, "sub_idx": sub_idx, "indel_ptr": indel_ptr, "indel_idx": indel_idx, "shard": SHARD,
    }
    files = {"data/lexicon.json": json.dumps(data, separators=(",", ":")).encode()}
    definitions = words[Col.definition].to_list()
    for n, start in enumerate(range(0, len(definitions), SHARD)):
        files[f"data/defs/{n}.json"] = json.dumps(definitions[start:start + SHARD], ensure_ascii=False,
                                                  separators=(",", ":")).encode()
    for name in ("index.html", "app.js", "style.css", "sw.js"):
        files[name] = (PAGE / name).read_bytes()
    # What the service worker caches when the page is first opened, so that it works offline after.
    files["files.json"] = json.dumps(["./", "index.html", "app.js", "style.css", *sorted(
        (n for n in files if n.startswith("data/")), key=lambda n: (n.count("/"), len(n), n))]).encode()
    return files


MARKER = ".ladders-web"  # in every page folder ladders wrote: the only ones it writes into again


def write_web(export: Path, folder: Path) -> int:
    """Write the page into `folder`, new, empty or written by ladders before; the bytes written."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MARKER).exists():
        raise UsageError(f"{folder} holds files ladders did not write; choose an empty or new folder")
    files = web_files(export)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / MARKER).write_text("ladders export-web writes and replaces the files of this folder.\n")
    if (folder / "data").is_dir():
        shutil.rmtree(folder / "data")
    for name, data in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)
    return sum(map(len, files.values()))
