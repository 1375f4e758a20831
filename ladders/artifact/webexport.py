"""`ladders export-web DIR`: a static solver page and the compact data it fetches.

Reads words.parquet of an export. Writes into DIR:
- index.html, app.js, style.css: the page (ladders/web/), plain HTML/CSS/JS;
- data/manifest.json: the export's version, its lexicons (the page's list selector), the label names and
  the names of the files below, which
  hold a hash of their content in their name (a browser may keep them forever);
- data/i/*: the word index, a file per length and first letter: `words`, `ids` (delta-coded) and
  `bucket` of each;
- data/b/*: buckets of whole substitution groups (every lexicon's, joined where they share a word) of one
  length, up to BUCKET words unless one group is larger: `ids` (delta-coded), `words`, each column the
  column table (pipeline/columns.py) sends as `values` (rareness, every group column: one per word), `label`
  (0 common .. 3 obscure, from the manifest's cut-offs), each column it sends as `positions` (offensive,
  vulgar_sense: the positions in the bucket of the flagged words; data/manifest.json names them), the substitution links as lengths
  and delta-coded positions in the bucket, the insert/delete links as lengths and delta-coded ids, and
  `defs`: the names of its definition files;
- data/defs/*: definitions, CHUNK words of a bucket a file (null: none);
- data/s/*: for each edit group of SPAN ids, the buckets it spans when more than one;
- data/puzzles.*.json: puzzles drawn by `ladders puzzle`'s generator (start, end, length, steps,
  difficulty), for play mode;
- data/files.*.json: every file with its size, for "keep for offline use";
- sw.js: the service worker, its cache named by the version (a hash of every file);
- a gzip copy beside every file (NAME.gz), for servers that send precompressed files.
So a first visit fetches a few hundred KB before its first ladder, not the whole list (tests/test_web.py
holds the byte budgets).
Every file is written atomically (a temporary file in its folder, renamed over
the name), so a web server never serves half a file and a link planted at a
file's name is replaced, never followed. A folder holding a link anywhere
(a file, data/, data/defs/) is refused, naming the link: ladders neither writes
through it nor removes it. The subfolders are opened without following links
and written through their descriptors, so a link planted while the data is
being made (after that check) makes the write fail rather than be followed.
ladders owns only the files it wrote, listed in the folder's marker (`.ladders-web`, JSON): a re-export
removes the files of the export before the previous one that neither of the two has, and nothing else
(a user's data/notes.txt stays), so a page left open since the previous export still finds its files.
Two export-web runs into one folder take turns (a lock on the folder), the second one saying it waits.
"""

from __future__ import annotations

import fcntl
import gzip
import hashlib
import json
import os
import secrets
import stat
from pathlib import Path

import polars as pl

from pipeline.columns import WORDS, Col, group_columns, words_columns
from ladders.artifact.contract import export_file, export_lexicons, label_cutoffs
from pipeline import io
from pipeline.errors import UsageError

BUCKET = 2_048  # words per bucket of small groups: one fetch brings a few hundred groups of a length
SPAN = 4_096  # edit groups per file of the buckets they span
CHUNK = 256  # definitions per file: a ladder's rungs need a few of these, not a bucket's whole text
PAGE = Path(__file__).resolve().parent.parent / "web"
SHELL = ("index.html", "app.js", "style.css")


def _json(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _named(files: dict[str, bytes], folder: str, stem: str, data: bytes) -> str:
    """Put `data` at a name holding its content's hash (cacheable forever); the name."""
    name = f"{folder}/{stem}.{hashlib.sha256(data).hexdigest()[:16]}.json"
    files[name] = data
    return name


def _deltas(values: list[int]) -> list[int]:
    """Ascending ids as differences from the previous one (small numbers: fewer bytes)."""
    return [b - a for a, b in zip([0, *values], values)]


def _buckets(words: pl.DataFrame, columns: list[str]) -> list[list[int]]:
    """Word ids by bucket: whole substitution groups (of every lexicon's sub `columns`, joined where they
    share a word) packed by length, so that a substitution search needs one bucket and a bucket holds only
    words of one length."""
    parent: dict = {}

    def find(x):
        while parent.setdefault(x, x) != x:
            parent[x] = x = parent[parent[x]]
        return x

    rows = words.select(columns).rows()
    keys = [[(n, g) for n, g in enumerate(row) if g is not None] or [("none", i)] for i, row in enumerate(rows)]
    for first, *rest in keys:
        for key in rest:
            parent[find(key)] = find(first)
    members: dict = {}
    for i, (first, *_) in enumerate(keys):
        members.setdefault(find(first), []).append(i)
    lengths = words[Col.length].to_list()
    groups = sorted(members.values(), key=lambda ids: (lengths[ids[0]], ids[0]))
    buckets: list[list[int]] = []
    for ids in groups:
        if not buckets or len(buckets[-1]) + len(ids) > BUCKET or lengths[buckets[-1][0]] != lengths[ids[0]]:
            buckets.append([])
        buckets[-1].extend(ids)
    return [sorted(b) for b in buckets]


PUZZLES = {"lengths": (3, 4, 5, 6), "steps": (3, 4, 5, 6), "count": 12, "seed": 27}


def _puzzles(export: Path) -> list[dict]:
    """The page's puzzles, drawn here by `ladders puzzle`'s own generator (common and clean words, CSW,
    substitutions): a fixed set, so that the page needs no longest-ladder table and every visitor gets
    the same puzzle on a date. Lengths and steps with no such puzzle are left out."""
    from ladders.solve.puzzle import puzzles
    from ladders.solve.solver import Ladders, SolveError

    ladders, found = Ladders.open(export), []
    for length in PUZZLES["lengths"]:
        for steps in PUZZLES["steps"]:
            try:
                drawn = puzzles(
                    ladders, length, steps, common=True, clean="strict", seed=PUZZLES["seed"], count=PUZZLES["count"]
                )
            except SolveError:
                continue
            found += [
                {
                    "start": p.start,  # not a column: the page's names
                    "end": p.end,  # not a column: the page's names
                    "length": length,  # not a column: the page's names
                    "steps": p.steps,
                    "difficulty": p.difficulty,
                }
                for p in drawn
            ]
    return found


def web_files(export: Path, table=WORDS) -> dict[str, bytes]:
    """Every file of the page folder, by path relative to it; the buckets' fields by the column `table`."""
    words = io.read_export_table(export_file(export))
    lexicons = export_lexicons(export)
    group_of = group_columns(lexicons)
    cutoffs = label_cutoffs(export)
    labels = [*cutoffs, "obscure"]
    label = pl.lit(len(cutoffs))  # obscure: beyond the last cut-off, or not in SCOWL
    for number, top in reversed(list(enumerate(cutoffs.values()))):
        label = pl.when(pl.col(Col.scowl_level) <= top).then(number).otherwise(label)
    # The bucket's fields, from the column table: `values` columns as a list (one per word), `positions`
    # columns as the positions of the words where they are true; `label` is the page's own.
    encoded = words_columns(lexicons, table)
    values = [name for name, c in encoded if c.web == "values"]
    positions = [name for name, c in encoded if c.web == "positions"]
    columns = {
        Col.word: words[Col.word].to_list(),
        "label": words.select(label.alias("label"))["label"].to_list(),
        **{column: words[column].to_list() for column in values + positions},
        "sub": words[Col.links].to_list(),
        "indel": words[Col.edit_links].to_list(),
        Col.definition: words[Col.definition].to_list(),
    }
    files: dict[str, bytes] = {}
    buckets = _buckets(words, [column for (_, mode), column in group_of.items() if mode == "sub"])
    bucket_of = [0] * words.height
    for n, ids in enumerate(buckets):
        for i in ids:
            bucket_of[i] = n
    bucket_names = []
    for n, ids in enumerate(buckets):
        position = {i: p for p, i in enumerate(ids)}
        # A substitution group stays in its bucket; a link between an OWL-only and a CSW-only word (no
        # lexicon's search may step on it) would leave it, and is left out.
        sub = [sorted(position[u] for u in columns["sub"][i] or [] if u in position) for i in ids]
        indel = [sorted(columns["indel"][i] or []) for i in ids]
        defs = [
            _named(
                files, "data/defs", f"{n}-{k}", _json([columns[Col.definition][i] for i in ids[start : start + CHUNK]])
            )
            for k, start in enumerate(range(0, len(ids), CHUNK))
        ]
        bucket = {
            "ids": _deltas(ids),
            "words": [columns[Col.word][i] for i in ids],
            **{c: [columns[c][i] for i in ids] for c in (*values, "label")},
            **{c: [p for p, i in enumerate(ids) if columns[c][i]] for c in positions},
            "sub_len": [len(s) for s in sub],
            "sub": [d for s in sub for d in _deltas(s)],
            "indel_len": [len(s) for s in indel],
            "indel": [d for s in indel for d in _deltas(s)],
            "defs": defs,
            "chunk": CHUNK,
        }
        bucket_names.append(_named(files, "data/b", str(n), _json(bucket)))
    # The word index: by length and first letter, each word's id and bucket.
    keys: dict[str, list[int]] = {}
    for i, w in enumerate(columns[Col.word]):
        keys.setdefault(f"{len(w)}:{w[:1]}", []).append(i)
    index = {
        key: _named(
            files,
            "data/i",
            str(k),
            _json(
                {
                    "words": [columns[Col.word][i] for i in ids],
                    "ids": _deltas(ids),
                    "bucket": [bucket_of[i] for i in ids],
                }
            ),
        )
        for k, (key, ids) in enumerate(sorted(keys.items()))
    }
    # Edit groups join substitution groups of several lengths: the buckets each one spans, when more than
    # one, in files of SPAN groups (an edit search fetches one of them).
    spans: dict[str, list[str]] = {}
    for column in [column for (_, mode), column in group_of.items() if mode == "edit"]:
        by_group: dict[int, set[int]] = {}
        for i, g in enumerate(columns[column]):
            if g is not None:
                by_group.setdefault(g, set()).add(bucket_of[i])
        top = max(by_group, default=-1)
        spans[column] = [
            _named(
                files,
                "data/s",
                f"{column}-{k}",
                _json(
                    {
                        str(g): sorted(by_group[g])
                        for g in range(start, min(start + SPAN, top + 1))
                        if len(by_group.get(g, ())) > 1
                    }
                ),
            )
            for k, start in enumerate(range(0, top + 1, SPAN))
        ]
    puzzles_name = _named(files, "data", "puzzles", _json(_puzzles(export)))
    data_names = sorted(files)
    for name in SHELL:
        files[name] = (PAGE / name).read_bytes()
    # The version names the whole export: the service worker's cache is named by it.
    version = hashlib.sha256(
        b"".join(n.encode() + b"\0" + hashlib.sha256(files[n]).digest() for n in sorted(files))
    ).hexdigest()[:16]
    listing = _named(files, "data", "files", _json({n: len(files[n]) for n in [*SHELL, *data_names]}))
    files["data/manifest.json"] = _json(
        {
            "version": version,
            "lexicons": list(lexicons),
            "labels": labels,
            "positions": positions,  # the bucket fields the page reads as sets of positions
            "index": index,
            "buckets": bucket_names,
            "spans": spans,
            "span": SPAN,
            "files": listing,
            "puzzles": puzzles_name,
            "bytes": sum(len(files[n]) for n in [*SHELL, *data_names]),
        }
    )
    files["sw.js"] = (PAGE / "sw.js").read_bytes().replace(b"@VERSION@", version.encode())
    # Precompressed copies beside the data and the page, for a server that sends them to browsers
    # accepting gzip (README: serving the page). mtime 0: the same export gives the same bytes.
    for name in [n for n in files if n.endswith((".json", ".js", ".html", ".css"))]:
        files[name + ".gz"] = gzip.compress(files[name], compresslevel=9, mtime=0)
    return files


MARKER = ".ladders-web"  # in every page folder ladders wrote: the only ones it writes into again
MARKER_NOTE = "ladders export-web writes and replaces the files listed here (and only those)"


def _killed_writes(page: "_Folder", ours: set[str]) -> set[str]:
    """The temporary files a killed export-web left (`.NAME.<16 hex>.tmp` beside a file of ours)."""
    import re

    found = set()
    for sub in {name.rpartition("/")[0] for name in ours}:
        try:
            entries = os.listdir(page.dir_fd(sub))
        except OSError:
            continue
        for entry in entries:
            m = re.fullmatch(r"\.(.+)\.[0-9a-f]{16}\.tmp", entry)
            name = f"{sub}/{m[1]}" if m and sub else m[1] if m else None
            if name in ours:
                found.add(f"{sub}/{entry}" if sub else entry)
    return found


def _record(page: "_Folder") -> tuple[set[str], set[str]]:
    """The files ladders wrote here: (the last export's, the one's before it). The marker holds them as
    JSON; an older marker (plain text) has none, and then the last export's are those its manifest names."""
    try:
        record = json.loads(page.read(MARKER) or b"")
        return set(record["written"]), set(record["before"])
    except (ValueError, KeyError, TypeError):
        pass
    try:
        manifest = json.loads(page.read("data/manifest.json") or b"")
        listed = set(json.loads(page.read(manifest["files"]) or b""))
        listed |= {manifest["files"], "data/manifest.json", "sw.js"}
        return {n for name in listed for n in (name, name + ".gz")}, set()
    except (ValueError, KeyError, TypeError):
        return set(), set()


WHERE = "the page folder"


def _refuse_link(path: Path) -> UsageError:
    try:
        io.refuse_links([path], WHERE)
    except UsageError as e:
        return e
    raise AssertionError(path)


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

    def read(self, name: str) -> bytes | None:
        """The bytes of a regular file of the folder (None when missing or not a file), never via a link."""
        sub, _, base = name.rpartition("/")
        try:
            fd = os.open(base, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=self.dir_fd(sub))
        except OSError:
            return None
        with os.fdopen(fd, "rb") as f:
            return f.read() if stat.S_ISREG(os.fstat(f.fileno()).st_mode) else None

    def remove(self, names: set[str]) -> None:
        """Remove these files (ours: named in a record of an earlier export), where they still are."""
        for name in sorted(names):
            sub, _, base = name.rpartition("/")
            try:
                os.unlink(base, dir_fd=self.dir_fd(sub))  # unlink never follows a link
            except (FileNotFoundError, NotADirectoryError):
                pass

    def close(self) -> None:
        for fd in self.fds.values():
            os.close(fd)


def write_web(export: Path, folder: Path, echo=lambda line: None) -> int:
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
        # One export-web at a time per folder: a second one waits (each would remove the other's files).
        try:
            fcntl.flock(top, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            echo(f"waiting: another export-web is writing {folder}")
            fcntl.flock(top, fcntl.LOCK_EX)
        entries = os.listdir(top)
        if entries and MARKER not in entries:
            raise UsageError(f"{folder} holds files ladders did not write; choose an empty or new folder")
        io.refuse_links(io.special_files_at(top, folder), WHERE)
        last, before = _record(page)
        page.remove(_killed_writes(page, set(files) | last | before))
        # First the marker, claiming this export's files too: a run killed midway leaves a folder that
        # is still ladders' own, its record naming every file it may have written.
        page.write(MARKER, _json({"note": MARKER_NOTE, "written": sorted(last | set(files)), "before": sorted(before)}))
        for name, data in files.items():
            page.write(name, data)
        page.write(MARKER, _json({"note": MARKER_NOTE, "written": sorted(files), "before": sorted(last)}))
        # Then the files of the export before the last one that neither the last nor this one has. Not
        # before, and not the last one's: a page still open since the last export (or loading meanwhile)
        # finds every file it asks for. Files ladders did not write (a user's notes.txt) are never removed.
        page.remove(before - last - set(files))
    finally:
        page.close()
    return sum(map(len, files.values()))
