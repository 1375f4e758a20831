"""`ladders export-web DIR`'s folder: the page's files (webexport.py's `web_files`) written into a folder
the user names, new, empty or written by export-web before.

Every file is written atomically by pipeline/io.py's `write_atomic_at` (a temporary file in its folder, renamed over
the name), so a web server never serves half a file and a link planted at a
file's name is replaced, never followed. A folder holding a link anywhere
(a file, data/, data/defs/) is refused, naming the link: ladders neither writes
through it nor removes it. The subfolders are opened without following links
and written through their descriptors, so a link planted while the data is
being made (after that check) makes the write fail rather than be followed.
ladders owns only the files it wrote, listed in the folder's marker (`.ladders-web`, JSON): a re-export
removes the files of the export before the previous one that neither of the two has, and the temporary
files (`.NAME.<16 hex>.tmp`) a killed export-web left beside ours; nothing else (a user's data/notes.txt
stays), so a page left open since the previous export still finds its files; a file at one of the new
export's names that neither record lists is the user's, and refused (exit 2), not written over.
Two export-web runs into one folder take turns (a lock on the folder), the second one saying it waits.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from ladders.artifact import webexport
from pipeline import progress, io
from pipeline.errors import UsageError


_json = webexport._json  # the marker is encoded as the page's data files are


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
            io.write_atomic_at(fd, base, data)

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
    files = webexport.web_files(export)  # by the module: tests replace it
    folder.mkdir(parents=True, exist_ok=True)
    # The folder is opened once and every check and write goes through that descriptor: a folder swapped
    # for a link after the check (a race) is not the one written into.
    page = _Folder(folder)
    try:
        top = page.dir_fd("")
        # One export-web at a time per folder: a second one waits (each would remove the other's files).
        io.take_turns(top, echo, f"waiting: another export-web is writing {folder}")
        entries = os.listdir(top)
        if entries and MARKER not in entries:
            raise UsageError(f"{folder} holds files ladders did not write; choose an empty or new folder")
        io.refuse_links(io.special_files_at(top, folder), WHERE)
        last, before = _record(page)
        # A file at one of this export's names that no record says ladders wrote is the user's (the
        # marker only says the folder is ours): refused, not written over.
        theirs = sorted(n for n in files if n not in last | before and os.path.lexists(folder / n))
        if theirs:
            raise UsageError(
                f"{folder / theirs[0]} is not a file ladders wrote"
                + (f" ({len(theirs) - 1} more)" if len(theirs) > 1 else "")
                + f"; export-web would write over it: move it out of {folder} first"
            )
        page.remove(_killed_writes(page, set(files) | last | before))
        # First the marker, claiming this export's files too: a run killed midway leaves a folder that
        # is still ladders' own, its record naming every file it may have written.
        page.write(MARKER, _json({"note": MARKER_NOTE, "written": sorted(last | set(files)), "before": sorted(before)}))
        for name, data in progress.track(list(files.items()), "export-web: writing the page"):
            page.write(name, data)
        page.write(MARKER, _json({"note": MARKER_NOTE, "written": sorted(files), "before": sorted(last)}))
        # Then the files of the export before the last one that neither the last nor this one has. Not
        # before, and not the last one's: a page still open since the last export (or loading meanwhile)
        # finds every file it asks for. Files ladders did not write (a user's notes.txt) are never removed.
        page.remove(before - last - set(files))
    finally:
        page.close()
    return sum(map(len, files.values()))
