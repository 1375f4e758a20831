"""`ladders release DIR`: every artifact of one export, verified, checksummed and explained, in one folder.

Reads an export folder (the contract's files, built and verified first) and writes DIR, flat so that
each file can be a release asset:
- the export's files as they are: words.parquet, groups.parquet, longest.parquet, ladder.sqlite,
  manifest.json (the export's manifest: schema_version, lexicons, columns, inputs, files, config,
  counts, offensive_cleared), summary.txt;
- ladder-mysql.sql.gz: `ladders export-sql`'s dump, gzip;
- web.tar.gz: the folder `ladders export-web` writes (the static page and its data);
- NOTICE: for each input, where it came from, its licence and which columns carry its text;
- CHANGES.md: what changed against a previous release (`ladders diff`'s engine, ladders/artifact/diff.py);
- SHA256SUMS: `sha256sum` lines for every other file, so `sha256sum -c SHA256SUMS` checks a download.
Nothing in it holds a time: archives carry fixed times, owners and modes, gzip no name and no time, so
the same export, the same input folders (NOTICE reads the SOURCES.md in or above each input's folder, and
licence files; see ladders/artifact/notice.py) and the same previous release (CHANGES.md) give the same bytes (with the same zlib:
gzip output may differ across zlib versions).

A folder is a release when it holds SHA256SUMS and exactly the files SHA256SUMS lists besides it. DIR
must be new, empty or a release (which is replaced whole: the new one is written beside it and renamed
into place). The previous release may be a folder or a .tar.gz/.tgz/.zip of one (at its top or in one
folder; unpacked only within UNPACK_MEMBERS members and UNPACK_BYTES); it is checked against its SHA256SUMS,
and its export against its manifest (ladders/artifact/checks/previous.py), before it is read. Releases written in one folder take
turns (a lock on that folder, the second saying it waits); what a killed one left beside DIR (a
half-written `.DIR.new-*`, the old release moved aside into `.DIR.old-*`) is removed or put back by the
next one (_recover). NOTICE's text is ladders/artifact/notice.py's.
"""

from __future__ import annotations

import glob
import gzip
import hashlib
import io as _io
import os
import shutil
import struct
import tarfile
import tempfile
import zipfile
import zlib
from contextlib import contextmanager
from pathlib import Path

from pipeline.columns import FILES, MANIFEST_FILE, WORDS_FILE
from ladders.artifact.notice import notice
from pipeline.errors import DamagedState, EnvironmentProblem, PipelineError, UsageError
from pipeline.io import take_turns

SUMS, NOTICE, CHANGES = "SHA256SUMS", "NOTICE", "CHANGES.md"
MYSQL, WEB = "ladder-mysql.sql.gz", "web.tar.gz"
RELEASE_FILES = tuple(sorted((*FILES, MYSQL, WEB, NOTICE, CHANGES)))  # SHA256SUMS lists these
ARCHIVE_TIME = 946_684_800  # 2000-01-01 UTC: a fixed time for every archive member (0 upsets some tools)


class VerifyFailed(PipelineError):
    """The export failed `ladders verify`: no release is written from it."""

    exit_code = 1


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_sums(folder: Path) -> dict[str, str] | None:
    """SHA256SUMS of a folder as {name: sha256}, or None when it has none or it is not one."""
    try:
        text = (folder / SUMS).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    sums = {}
    for line in text.splitlines():
        digest, sep, name = line.partition("  ")
        if not sep or len(digest) != 64 or "/" in name or name in ("", ".", ".."):
            return None
        sums[name] = digest
    return sums


def is_release(folder: Path) -> bool:
    """A folder holding SHA256SUMS and exactly the files it lists besides it (what write_release makes)."""
    sums = read_sums(folder)
    return sums is not None and {p.name for p in folder.iterdir()} == {*sums, SUMS}


def check_release(folder: Path, what: str) -> None:
    """Every file SHA256SUMS lists is there with its sha256, and the export files are among them; else
    DamagedState naming the first file that is not (`what` names the release in the message)."""
    sums = read_sums(folder)
    if sums is None:
        raise DamagedState(f"{what} has no readable {SUMS}: not a release ladders wrote")
    missing = [n for n in (WORDS_FILE, MANIFEST_FILE) if n not in sums]
    if missing:
        raise DamagedState(f"{what}: {SUMS} does not list {missing[0]}: not a ladders release")
    for name, digest in sorted(sums.items()):
        path = folder / name
        if not path.is_file() or path.is_symlink():
            raise DamagedState(f"{what} is damaged: {name} is missing")
        if sha256_of(path) != digest:
            raise DamagedState(f"{what} is damaged: {name} does not match its sha256 in {SUMS}")


# Bounds of a previous release's archive, checked from its headers before a byte is unpacked: a release is
# RELEASE_FILES and SHA256SUMS (11 files, in at most one folder), raw/'s about 0.2 GB. A 1.2 MB .tar.gz that
# unpacked 200 MB of other files into $TMPDIR is refused unread.
UNPACK_MEMBERS = 64
UNPACK_BYTES = 2 << 30  # 2 GiB in all


def _bounded(archive: Path, sizes: list[int]) -> None:
    """DamagedState when an archive's members (their unpacked sizes, as its headers say) pass the bounds."""
    if len(sizes) > UNPACK_MEMBERS:
        raise DamagedState(
            f"previous release {archive} holds more than {UNPACK_MEMBERS} members (a release has "
            f"{len(RELEASE_FILES) + 1} files): not unpacked"
        )
    if sum(sizes) > UNPACK_BYTES:
        raise DamagedState(
            f"previous release {archive} would unpack to {sum(sizes):,} bytes, more than the {UNPACK_BYTES:,} "
            "a release may hold: not unpacked"
        )


def _unpack(archive: Path, into: Path) -> Path:
    """Unpack a .tar.gz/.tgz/.zip (no links, nothing outside `into`, within UNPACK_MEMBERS and UNPACK_BYTES)
    and return the release folder in it."""
    name = archive.name.lower()
    try:
        if name.endswith((".tar.gz", ".tgz")):
            with tarfile.open(archive, "r:gz") as tar:
                members = []
                for member in tar:  # headers only, and no further than one member past the bound
                    members.append(member)
                    _bounded(archive, [m.size for m in members])
                tar.extractall(into, members=members, filter="data")
        elif name.endswith(".zip"):
            with zipfile.ZipFile(archive) as z:
                infos = z.infolist()
                _bounded(archive, [info.file_size for info in infos])  # zipfile reads no more than these
                for member in z.namelist():
                    if member.startswith("/") or ".." in Path(member).parts:
                        raise DamagedState(f"previous release {archive} holds a path outside it: {member}")
                z.extractall(into)
        else:
            raise UsageError(f"--previous {archive}: give a release folder or a .tar.gz, .tgz or .zip of one")
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, gzip.BadGzipFile, zlib.error) as err:
        raise DamagedState(f"previous release {archive} is damaged: {err}") from None
    except OSError as err:  # a full disk: name where, which the system's message does not
        raise EnvironmentProblem(
            f"cannot unpack previous release {archive} into {into}: {err.strerror or err}; "
            "free space there or set TMPDIR to a folder with room"
        ) from None
    entries = list(into.iterdir())
    return entries[0] if len(entries) == 1 and entries[0].is_dir() else into


@contextmanager
def previous_release(path: Path | None):
    """The previous release as a checked folder (an archive unpacked into a temporary one), or None: its
    files against its SHA256SUMS, then its export against its manifest (checks/previous.py)."""
    from ladders.artifact.checks.previous import check_previous_export

    if path is None:
        yield None
        return
    path = Path(path)
    if not path.exists():
        raise UsageError(f"--previous {path} does not exist")
    if path.is_dir():
        check_release(path, f"previous release {path}")
        check_previous_export(path, f"previous release {path}")
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="ladders-previous-") as scratch:
        folder = _unpack(path, Path(scratch))
        check_release(folder, f"previous release {path}")
        check_previous_export(folder, f"previous release {path}")
        yield folder


def _tar_gz(folder: Path, step=lambda what: None) -> bytes:
    """A .tar.gz of a folder's files whose bytes depend on their names and contents alone; `step` is told of
    each file (progress every few seconds without a terminal)."""
    buffer = _io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buffer, compresslevel=6, mtime=0) as gz:
        with tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar:
            for path in sorted(folder.rglob("*")):
                info = tarfile.TarInfo(path.relative_to(folder).as_posix())
                info.mtime, info.uid, info.gid, info.uname, info.gname = ARCHIVE_TIME, 0, 0, "", ""
                if path.is_dir():
                    info.type, info.mode = tarfile.DIRTYPE, 0o755
                    tar.addfile(info)
                else:
                    step(f"web.tar.gz: {path.relative_to(folder).as_posix()}")
                    data = path.read_bytes()
                    info.size, info.mode = len(data), 0o644
                    tar.addfile(info, _io.BytesIO(data))
    return buffer.getvalue()


def _give_back() -> None:
    """Return the memory verify freed to the system before the dump and the page are made (glibc keeps
    freed pages for the process otherwise: the pieces' peaks added up, 825 MB on raw/)."""
    import ctypes
    import gc

    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc: nothing to ask
        pass


def _gzip_to(path: Path, pieces) -> None:
    """gzip.compress(b"".join(pieces), 6, mtime=0) written to `path`, byte for byte (its header, one deflate
    stream, its trailer), without the whole text in memory: raw/'s dump is 68 MiB of text, which with its
    bytes and their compression was 160 MB at once. Level 6: 2.6 s against 7.8 s at level 9, both 13 MiB."""
    deflate, crc, size = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS), 0, 0
    with open(path, "wb") as out:
        out.write(gzip.compress(b"", compresslevel=6, mtime=0)[:10])  # the header gzip.compress writes
        for piece in pieces:
            crc, size = zlib.crc32(piece, crc), size + len(piece)
            out.write(deflate.compress(piece))
        out.write(deflate.flush() + struct.pack("<LL", crc, size & 0xFFFFFFFF))


def check_target(folder: Path) -> None:
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise UsageError(f"{folder} is not a folder; give a new folder for the release")
    if folder.is_dir() and any(folder.iterdir()) and not is_release(folder):
        raise UsageError(
            f"{folder} exists and is not a release (a release holds {SUMS} and only the files it lists); "
            "give a new or empty folder"
        )


def write_release(
    export: Path, folder: Path, previous: Path | None, inputs: dict[str, Path], echo=lambda line: None
) -> dict[str, str]:
    """Write the release of `export` (verified first) into `folder`, with CHANGES.md against `previous`
    (a release folder or archive, or None); `inputs` are the config's input paths by key, for NOTICE.
    Returns {file: sha256}. The checks, the dump and the page are `verify`'s, `export-sql`'s and
    `export-web`'s own functions. Releases into one parent folder take turns (a lock on that folder)."""
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    with _taking_turns(folder.parent, echo):
        return _write(export, folder, previous, inputs)


def _write(export: Path, folder: Path, previous: Path | None, inputs: dict[str, Path]) -> dict[str, str]:
    from pipeline import progress

    _recover(folder)
    check_target(folder)
    with progress.working("release") as step:
        return _written(export, folder, previous, inputs, step)


def _written(export: Path, folder: Path, previous: Path | None, inputs: dict[str, Path], step) -> dict[str, str]:
    """_write's work, saying each piece through `step` (a plain line every few seconds without a terminal)."""
    from ladders.artifact.diff import changes_markdown
    from ladders.artifact.sqldump import mysql_dump
    from ladders.artifact.verify import verify
    from ladders.artifact.webfolder import write_web

    step("verify")
    failed = verify(export)
    if failed:
        code, message, _ = failed[0]
        more = f" (and {len(failed) - 1} more checks)" if len(failed) > 1 else ""
        raise VerifyFailed(f"the export fails verify: {code} {message}{more}; no release written")
    _give_back()
    with previous_release(previous) as before:
        fresh = Path(tempfile.mkdtemp(prefix=f".{folder.name}.new-", dir=folder.parent))
        try:
            for name in FILES:
                shutil.copyfile(export / name, fresh / name)
            step("the MySQL dump")
            _gzip_to(fresh / MYSQL, (piece.encode() for piece in mysql_dump(export)))
            step("the page")
            with tempfile.TemporaryDirectory(prefix="ladders-web-") as web:
                write_web(export, Path(web) / "web")
                (fresh / WEB).write_bytes(_tar_gz(Path(web) / "web", step))
            step("NOTICE and CHANGES.md")
            (fresh / NOTICE).write_text(notice(export, inputs), encoding="utf-8")
            against = None if before is None else f"the release whose {SUMS} has sha256 {sha256_of(before / SUMS)}"
            (fresh / CHANGES).write_text(changes_markdown(before, export, against), encoding="utf-8")
            sums = {name: sha256_of(fresh / name) for name in RELEASE_FILES}
            (fresh / SUMS).write_text("".join(f"{d}  {n}\n" for n, d in sums.items()), encoding="utf-8")
            for path in fresh.iterdir():
                os.chmod(path, 0o644)
            os.chmod(fresh, 0o755)
            _replace(fresh, folder)
        except BaseException:
            shutil.rmtree(fresh, ignore_errors=True)
            raise
    return sums


@contextmanager
def _taking_turns(parent: Path, echo):
    """Hold a lock on the folder the release is written in (flock on the folder itself: no file of ours
    left there), so that no other release is writing beside it while this one writes or cleans up."""
    fd = os.open(parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        take_turns(fd, echo, f"waiting: another ladders release is writing in {parent}")
        yield
    finally:
        os.close(fd)


def _recover(folder: Path) -> None:
    """Put right what a killed release of `folder` left beside it (under _taking_turns' lock, so no release
    is writing there): the old release moved aside into `.NAME.old-*/NAME` with nothing at NAME (it is put
    back, to be replaced as usual), or left there after the new one took its place (removed); and a
    half-written `.NAME.new-*` (removed). Only such folders holding what a release writes are touched."""
    for fresh in folder.parent.glob(f".{glob.escape(folder.name)}.new-*"):
        if not fresh.is_symlink() and fresh.is_dir() and _only_release_files(fresh):
            shutil.rmtree(fresh)
    for aside in sorted(folder.parent.glob(f".{glob.escape(folder.name)}.old-*")):
        inside = aside / folder.name
        if aside.is_symlink() or not aside.is_dir() or [p.name for p in aside.iterdir()] != [folder.name]:
            continue
        if inside.is_symlink() or not inside.is_dir() or not is_release(inside):
            continue
        if os.path.lexists(folder):
            shutil.rmtree(inside)
        else:
            os.rename(inside, folder)
        aside.rmdir()


def _only_release_files(folder: Path) -> bool:
    return all(p.name in (*RELEASE_FILES, SUMS) and p.is_file() and not p.is_symlink() for p in folder.iterdir())


def _replace(fresh: Path, folder: Path) -> None:
    """Put `fresh` at `folder`'s name; an old release (or an empty folder) there is removed after."""
    if not folder.exists():
        os.rename(fresh, folder)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{folder.name}.old-", dir=folder.parent))
    os.rename(folder, old / folder.name)
    os.rename(fresh, folder)
    shutil.rmtree(old)
