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
Every file is written atomically (a temporary file in its folder, renamed over
the name), so a web server never serves half a file and a link planted at a
file's name is replaced, never followed. A folder holding a link anywhere
(a file, data/, data/defs/) is refused, naming the link: ladders neither writes
through it nor removes it. The subfolders are opened without following links
and written through their descriptors, so a link planted while the data is
being made (after that check) makes the write fail rather than be followed.
Definitions are most of the bytes (about 30 MB for raw/), so they stay out of
the one file the page must load before it can solve.
"""
from __future__ import annotations

import json
import os
import secrets
import stat
from pathlib import Path

import numpy as np
import polars as pl

from pipeline.artifact.contract import GROUP_COLUMNS, Col, export_file, label_cutoffs
from pipeline import io
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


def _links_in(fd: int, folder: Path) -> list[Path]:
    """Every symbolic link at or below the open folder `fd` (named `folder`), without following any."""
    found = []
    for top, dirs, files, top_fd in os.fwalk(".", dir_fd=fd):  # fwalk does not descend into linked folders
        found += [folder / top / n for n in dirs + files
                  if stat.S_ISLNK(os.stat(n, dir_fd=top_fd, follow_symlinks=False).st_mode)]
    return sorted(found)


def _refuse_link(path: Path, more: int = 0) -> UsageError:
    return UsageError(f"{path} is a symbolic link in the page folder" + (f" ({more} more)" if more else "")
                      + "; ladders neither writes through links nor removes them: remove it and run again")


class _Folder:
    """The page folder opened once, its subfolders by descriptors opened without following links: a link
    planted after the check above (a race) still makes the write fail instead of following it."""

    def __init__(self, path: Path):
        self.path = path
        self.fds = {"": os.open(path, os.O_RDONLY | os.O_DIRECTORY)}  # the folder named may itself be a link

    def dir_fd(self, sub: str) -> int:
        if sub not in self.fds:
            parent, _, name = sub.rpartition("/")
            up = self.dir_fd(parent)
            try:
                os.mkdir(name, dir_fd=up)
            except FileExistsError:
                pass
            try:
                self.fds[sub] = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=up)
            except OSError as e:  # ELOOP: a link; ENOTDIR: a file where a folder belongs
                raise _refuse_link(self.path / sub) if os.path.islink(self.path / sub) else e from None
        return self.fds[sub]

    def write(self, name: str, data: bytes) -> None:
        """`data` into a new temporary file beside `name`, then renamed over it: never through a link."""
        sub, _, base = name.rpartition("/")
        fd = self.dir_fd(sub)
        with io.naming(self.path / name):
            # A new file of a name no one could guess: a link, hard link or FIFO planted there beforehand
            # is never opened (O_EXCL), and a name taken is simply passed over.
            while True:
                tmp = f".{base}.{secrets.token_hex(8)}.tmp"
                try:
                    out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666, dir_fd=fd)
                    break
                except FileExistsError:
                    continue
            try:
                with os.fdopen(out, "wb") as f:
                    f.write(data)
                    f.flush()
                    os.fsync(f.fileno())
                os.rename(tmp, base, src_dir_fd=fd, dst_dir_fd=fd)
            except BaseException:
                os.unlink(tmp, dir_fd=fd)
                raise

    def remove_stale(self, sub: str, keep: set[str]) -> None:
        """Remove the files below `sub` whose names are not in `keep`, and folders left empty."""
        fd = self.dir_fd(sub)
        for name in os.listdir(fd):
            path = f"{sub}/{name}"
            if os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode & 0o170000 == 0o040000:
                self.remove_stale(path, keep)
                if not os.listdir(self.dir_fd(path)):
                    os.rmdir(name, dir_fd=fd)
            elif path not in keep:
                os.unlink(name, dir_fd=fd)  # a file or a link: unlink never follows

    def close(self) -> None:
        for fd in self.fds.values():
            os.close(fd)


def write_web(export: Path, folder: Path) -> int:
    """Write the page into `folder`, new, empty or written by ladders before; the bytes written."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is a file, not a folder")
    files = web_files(export)
    folder.mkdir(parents=True, exist_ok=True)
    # The folder is opened once and every check and write goes through that descriptor: a folder swapped
    # for a link after the check (a race) is not the one written into.
    page = _Folder(folder)
    try:
        top = page.dir_fd("")
        entries = os.listdir(top)
        if entries and MARKER not in entries:
            raise UsageError(f"{folder} holds files ladders did not write; choose an empty or new folder")
        links = _links_in(top, folder)
        if links:
            raise _refuse_link(links[0], len(links) - 1)
        page.write(MARKER, b"ladders export-web writes and replaces the files of this folder.\n")
        for name, data in files.items():
            page.write(name, data)
        # Then the data files of an earlier export that this one no longer has. Not before: a visitor
        # loading the page meanwhile finds every file it asks for, old or new.
        page.remove_stale("data", set(files))
    finally:
        page.close()
    return sum(map(len, files.values()))
