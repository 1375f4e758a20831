"""`ladders release`: the folder's files and checksums, CHANGES.md against a release with known differences
(a word added, one removed, a definition changed, a rareness changed), two runs byte-identical, and the
refusals: a folder that is not a release, a damaged previous release, an export that fails verify."""

from __future__ import annotations

import gzip
import hashlib
import os
import io
import shutil
import subprocess
import tarfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import copy_tiny, invoke, snapshot, tiny_config
from support.paths import DATA, FIXTURES, ROOT
from pipeline.columns import FILES
from ladders.artifact.release import RELEASE_FILES, SUMS, VerifyFailed, is_release, write_release
from ladders.artifact.sqldump import mysql_dump

EXPECTED = {*FILES, "ladder-mysql.sql.gz", "web.tar.gz", "NOTICE", "CHANGES.md", "SHA256SUMS"}


def release(tiny: Path, folder: Path, *extra: str):
    return invoke("release", "--quiet", "--config", str(tiny / "config.toml"), str(folder), *extra)


@pytest.fixture
def released(tiny, tmp_path) -> Path:
    result = release(tiny, tmp_path / "r1")
    assert result.exit_code == 0, result.output
    return tmp_path / "r1"


def test_release_holds_every_artifact_with_its_checksum(tiny, released, tmp_path):
    assert {p.name for p in released.iterdir()} == EXPECTED == {*RELEASE_FILES, SUMS}
    sums = dict(line.split("  ")[::-1] for line in (released / SUMS).read_text().splitlines())
    assert sums == {n: hashlib.sha256((released / n).read_bytes()).hexdigest() for n in RELEASE_FILES}
    assert subprocess.run(["sha256sum", "--check", "--strict", "--quiet", SUMS], cwd=released).returncode == 0
    export = tiny / "build/export"
    for name in FILES:  # the export as it is
        assert (released / name).read_bytes() == (export / name).read_bytes(), name
    assert gzip.decompress((released / "ladder-mysql.sql.gz").read_bytes()).decode() == "".join(mysql_dump(export))
    # web.tar.gz holds what export-web writes, with fixed times, owners and modes
    assert invoke("export-web", "--export", str(export), str(tmp_path / "web")).exit_code == 0
    with tarfile.open(released / "web.tar.gz") as tar:
        members = tar.getmembers()
        files = {m.name: tar.extractfile(m).read() for m in members if m.isfile()}
    assert {m.mtime for m in members} == {946_684_800} and {(m.uid, m.gid, m.uname) for m in members} == {(0, 0, "")}
    assert files == {k: (tmp_path / "web" / k).read_bytes() for k in snapshot(tmp_path / "web")}
    assert "index.html" in files and any(k.startswith("data/b/") for k in files)


def test_notice_names_each_input_its_licence_and_columns(released):
    notice = (released / "NOTICE").read_text()
    sections = [line[3:] for line in notice.splitlines() if line.startswith("## ")]
    assert sections == [
        "csw",
        "cuss",
        "gcide",
        "main_senses",
        "offensive",
        "owl",
        "scowl",
        "supplement",
        "wordfreq",
        "wordnet",
    ]
    wordfreq = notice.split("## wordfreq")[1].split("## ")[0]
    assert "`scowl_level` and `rareness`" in wordfreq and "CC BY-SA 4.0" in wordfreq and "Apache" in wordfreq
    gcide = notice.split("## gcide")[1].split("## ")[0]
    assert "Definitions from it: 3 (gcide), 1 (gcide-inflection)." in gcide and "GPL" in gcide
    assert "`definition` where `definition_source` is `gcide` or begins `gcide-`" in gcide
    assert "Permission to use, copy, modify, distribute and sell these word lists" in notice  # SCOWL
    # the tiny lists are listed in no SOURCES.md: a list of one's own, whose licence is the user's
    assert "a list of your own, whose licence is yours to honour" in notice.split("## csw")[1].split("## ")[0]
    # WordNet's licence comes from its own data files (the tiny copy holds the first two lines of it)
    assert "    This software and database is being provided to you, the LICENSEE, by" in notice


def test_notice_takes_licences_from_sources_md_by_checksum(tiny, tmp_path):
    """An input whose files are rows of a SOURCES.md above it gets that row's origin and licence."""
    digest = hashlib.sha256((tiny / "cuss.js").read_bytes()).hexdigest()
    listed = hashlib.sha256((tiny / "csw.txt").read_bytes()).hexdigest()
    (tiny / "SOURCES.md").write_text(
        "| path | package | version | path in package | sha256 | licence |\n|---|---|---|---|---|---|\n"
        f"| `cuss.js` | npm `cuss` | 2.2.0 | `package/index.js` | `{digest}` | MIT (Titus Wormer) |\n"
        f"| `csw.txt` | PyPI `a-list` | 1.0 | `csw.txt` | `{listed}` | BSD |\n"
    )
    (tiny / "license").write_text("(The MIT License)\n\nCopyright (c) Titus Wormer\n")
    assert release(tiny, tmp_path / "r").exit_code == 0
    cuss = (tmp_path / "r/NOTICE").read_text().split("## cuss")[1].split("## ")[0]
    assert "From: npm cuss 2.2.0. Licence: MIT (Titus Wormer)." in cuss and "    Copyright (c) Titus Wormer" in cuss
    # A word list is found through the config too, not the current folder (this test runs in the project's:
    # the list's path as written, `csw.txt`, named nothing there and NOTICE said it was listed nowhere).
    csw = (tmp_path / "r/NOTICE").read_text().split("## csw")[1].split("## ")[0]
    assert "From: PyPI a-list 1.0. Licence: BSD." in csw


def test_two_runs_give_byte_identical_folders(tmp_path):
    first, second = copy_tiny(tmp_path / "a"), copy_tiny(tmp_path / "b")  # two builds from nothing
    assert release(first, tmp_path / "r1").exit_code == 0
    assert release(second, tmp_path / "r2").exit_code == 0
    assert snapshot(tmp_path / "r1") == snapshot(tmp_path / "r2")
    assert release(second, tmp_path / "r2").exit_code == 0  # a release is replaced by the same bytes
    assert snapshot(tmp_path / "r1") == snapshot(tmp_path / "r2")


def _change_inputs(tiny: Path) -> None:
    """DOTE added and MICE removed (both lists), CAT's definition changed, CORD moved from SCOWL 35 to 55,
    COG flagged vulgar_sense by the reviewed list."""
    for name in ("csw.txt", "owl.txt"):
        lines = (tiny / name).read_text().splitlines()
        (tiny / name).write_text("\n".join([*(w for w in lines if w.upper() != "MICE"), "DOTE"]) + "\n")
    supplement = tiny / "supplement.txt"
    supplement.write_text(supplement.read_text().replace("CAT a definition from the supplement", "CAT a small cat"))
    scowl = tiny / "scowl/english-words.35"
    scowl.write_text(scowl.read_text().replace("cord\n", ""))
    (tiny / "scowl/english-words.55").write_text("cord\n")
    with open(tiny / "offensive.txt", "a") as f:
        f.write("COG    vulgar_sense  a stand-in for a word with a vulgar sense\n")


def test_changes_md_against_a_release_with_known_differences(tiny, released, tmp_path):
    _change_inputs(tiny)
    result = release(tiny, tmp_path / "r2", "--previous", str(released))
    assert result.exit_code == 0, result.output
    changes = (tmp_path / "r2/CHANGES.md").read_text()
    lines = changes.splitlines()
    old_sums = hashlib.sha256((released / SUMS).read_bytes()).hexdigest()
    assert lines[:3] == ["# Changes", "", f"Against the release whose SHA256SUMS has sha256 {old_sums}."]
    for line in (
        "| words csw | 17 | 17 | +0 |",  # one in, one out
        "| links indel | 4 | 5 | +1 |",
        "- csw added: 1: DOTE",
        "- csw removed: 1: MICE",
        "- owl added: 1: DOTE",
        "- owl removed: 1: MICE",
        "- added: 1: DOT-DOTE (indel)",
        "- removed: 0",
        "- rareness changed: 1: CORD 4 -> 2,000",
        "- labels changed: 1: CORD common -> rare",  # SCOWL 55 is rare (labels: common <= 35, uncommon <= 50)
        "- flags changed: 1: COG vulgar_sense set",
        "| vulgar_sense words | 0 | 1 | +1 |",
        "- definitions changed: 1",
        "  - CAT: a definition from the supplement \\[n\\] -> a small cat \\[n\\]",
    ):
        assert line in lines, (line, changes)
    # the groups: DOTE joins DOT's edit group, MICE's one-word groups vanish
    assert "- csw/sub: 0 merged, 0 split, 1 appeared, 1 vanished" in lines
    assert "  - appeared: DOTE (1)" in lines and "  - vanished: MICE (1)" in lines
    # the same CHANGES.md from the previous release as an archive, at its top or in one folder
    archives = tmp_path / "archives"
    archives.mkdir()
    with tarfile.open(archives / "r1.tar.gz", "w:gz") as tar:
        tar.add(released, arcname="ladders-r1")
    with zipfile.ZipFile(archives / "r1.zip", "w") as z:
        for path in released.iterdir():
            z.write(path, path.name)
    for archive in ("r1.tar.gz", "r1.zip"):
        assert release(tiny, tmp_path / "r3", "--previous", str(archives / archive)).exit_code == 0
        assert (tmp_path / "r3/CHANGES.md").read_text() == changes, archive


def test_a_folder_that_is_not_a_release_is_refused_untouched(tiny, tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    result = release(tiny, folder)
    assert result.exit_code == 2 and "is not a release" in result.output
    assert len(result.output.strip().splitlines()[-1:]) == 1 and result.output.strip().splitlines()[-1].startswith(
        "error: "
    )
    assert snapshot(folder) == {"notes.txt": hashlib.sha256(b"mine").hexdigest()}
    # refused before any work: not a stage line printed (without --quiet), no build folder made
    loud = invoke("release", "--config", str(tiny / "config.toml"), str(folder))
    assert loud.exit_code == 2 and len(loud.output.splitlines()) == 1 and not (tiny / "build").exists()
    # a release with a file added is not one either
    assert release(tiny, tmp_path / "r").exit_code == 0
    (tmp_path / "r/extra.txt").write_text("added by hand")
    assert release(tiny, tmp_path / "r").exit_code == 2 and (tmp_path / "r/extra.txt").exists()


def test_a_damaged_previous_release_is_refused(tiny, released, tmp_path):
    words = released / "words.parquet"
    words.write_bytes(words.read_bytes()[:-1] + b"\0")
    result = release(tiny, tmp_path / "r2", "--previous", str(released))
    assert result.exit_code == 3
    assert result.output.strip().splitlines()[-1] == (
        f"error: previous release {released} is damaged: words.parquet does not match its sha256 in SHA256SUMS"
    )
    assert not (tmp_path / "r2").exists()
    with tarfile.open(tmp_path / "damaged.tar.gz", "w:gz") as tar:  # the same damage, in an archive
        tar.add(released, arcname="r1")
    result = release(tiny, tmp_path / "r2", "--previous", str(tmp_path / "damaged.tar.gz"))
    assert result.exit_code == 3 and result.output.strip().splitlines()[-1] == (
        f"error: previous release {tmp_path / 'damaged.tar.gz'} is damaged: words.parquet does not match its "
        "sha256 in SHA256SUMS"
    )
    (tmp_path / "broken.tar.gz").write_bytes(b"not a gzip file")
    result = release(tiny, tmp_path / "r2", "--previous", str(tmp_path / "broken.tar.gz"))
    assert result.exit_code == 3 and "is damaged" in result.output and not (tmp_path / "r2").exists()
    result = release(tiny, tmp_path / "r2", "--previous", str(tiny))  # a folder, but no release
    assert result.exit_code == 3 and "no readable SHA256SUMS" in result.output


def test_an_export_that_fails_verify_is_not_released(tmp_path):
    """A damaged export of tests/fixtures/verify (its links not symmetric) is refused with verify's first
    failure, exit 1, and nothing is written."""
    damaged = FIXTURES / "verify/E101"
    with pytest.raises(VerifyFailed) as caught:
        write_release(damaged, tmp_path / "r", None, {})
    assert caught.value.exit_code == 1 and str(caught.value).startswith("the export fails verify: E101 ")
    assert "\n" not in str(caught.value) and not (tmp_path / "r").exists()


def test_make_release_and_check_release_are_thin_wrappers():
    makefile = (ROOT / "Makefile").read_text()
    assert "\trelease $(RELEASE) $(if $(PREVIOUS),--previous $(PREVIOUS))" in makefile.replace("$(LADDERS) ", "\t")
    assert "sha256sum --check --strict --quiet SHA256SUMS" in makefile


def _tar_names(data: bytes) -> list[str]:
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        return tar.getnames()


def test_the_web_archive_lists_its_files_in_order(released):
    names = _tar_names((released / "web.tar.gz").read_bytes())
    assert names == sorted(names) and not any(n.startswith(("/", "..")) for n in names)
    assert shutil.which("sha256sum")


def _nwl_lines(year: str) -> str:
    """NWL<year>'s words of up to four letters (tests/data/naspa/, shared with tests/integration/test_lexicons.py)."""
    return gzip.decompress((DATA / f"naspa/NWL{year}-4.txt.gz").read_bytes()).decode()


def _nwl_words(year: str) -> set[str]:
    return {line.split()[1] for line in _nwl_lines(year).splitlines() if line.strip()}


def _brute_links(words: set[str]) -> set[tuple[str, str, str]]:
    """Every link among `words`, by brute force: (a, b, kind) with a < b."""
    links = set()
    for w in words:
        for i in range(len(w)):
            for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
                v = w[:i] + c + w[i + 1 :]
                if v != w and v in words:
                    links.add((min(w, v), max(w, v), "sub"))
            shorter = w[:i] + w[i + 1 :]
            if shorter in words:
                links.add((shorter, w, "indel") if shorter < w else (w, shorter, "indel"))
    return links


def test_changes_md_between_nwl2018_and_nwl2020(tmp_path):
    """The real lists' 2020 removals (NWL2018 and NWL2020, words of up to four letters): CHANGES.md's words,
    counts and links against set differences and brute-force links of the two files."""
    releases = {}
    for year in ("2018", "2020"):
        folder = tmp_path / year
        folder.mkdir()
        lists = folder / f"NWL{year}-4.txt"
        lists.write_text(_nwl_lines(year))
        config = (
            tiny_config(DATA / "tiny", csw=str(lists), owl=str(lists))
            + f'csw_format = "scores"\nbuild_dir = "{folder / "build"}"\n'
        )
        (folder / "config.toml").write_text(config)
        previous = ["--previous", str(releases["2018"])] if releases else []
        result = release(folder, folder / "release", *previous)
        assert result.exit_code == 0, result.output
        releases[year] = folder / "release"
    old, new = _nwl_words("2018"), _nwl_words("2020")
    removed, added = sorted(old - new), sorted(new - old)
    assert (len(removed), added) == (26, ["ZZZ"])  # the 2020 removals; ZZZ is missing from the 2018 file
    lines = (releases["2020"] / "CHANGES.md").read_text().splitlines()
    old_links, new_links = _brute_links(old), _brute_links(new)
    gone, came = old_links - new_links, new_links - old_links
    for line in (
        f"| words csw | {len(old):,} | {len(new):,} | {len(new) - len(old):+,} |",
        f"| links sub | {sum(k == 'sub' for *_, k in old_links):,} | {sum(k == 'sub' for *_, k in new_links):,} "
        f"| {sum(k == 'sub' for *_, k in new_links) - sum(k == 'sub' for *_, k in old_links):+,} |",
        "- csw added: 1: ZZZ",
        f"- csw removed: 26: {', '.join(removed[:5])}; 21 more",
        f"- owl removed: 26: {', '.join(removed[:5])}; 21 more",
        f"- added: {len(came):,}: "
        + ", ".join(f"{a}-{b} ({k})" for a, b, k in sorted(came)[:5])
        + (f"; {len(came) - 5:,} more" if len(came) > 5 else ""),
        f"- removed: {len(gone):,}: "
        + ", ".join(f"{a}-{b} ({k})" for a, b, k in sorted(gone)[:5])
        + f"; {len(gone) - 5:,} more",
        "- rareness changed: 0",
        "- definitions changed: 0",
    ):
        assert line in lines, (line, "\n".join(lines))


def test_the_cli_refuses_a_failed_verify_with_exit_1_and_one_line(tiny, tmp_path, monkeypatch):
    """The command's side of the refusal above: exit 1 (a check failed) and one line on stderr. The
    export is good here, so verify's answer is replaced by the one E101's damaged export gives."""
    import ladders.artifact.verify as verify_module

    failure = verify_module.verify(FIXTURES / "verify/E101")
    assert failure and failure[0][0] == "E101"
    monkeypatch.setattr(verify_module, "verify", lambda folder: failure)
    result = release(tiny, tmp_path / "r")
    assert result.exit_code == 1 and not (tmp_path / "r").exists()
    assert result.stderr.splitlines()[-1].startswith("error: the export fails verify: E101 ")


def test_a_previous_release_of_another_schema_version_is_named_not_compared(tiny, released, tmp_path):
    """After a change of the export contract the last published release has another shape: the release is
    still made, and CHANGES.md says why it compares nothing (CI must not stop at every schema change)."""
    import json

    from pipeline.columns import SCHEMA_VERSION

    manifest = json.loads((released / "manifest.json").read_text())
    manifest["schema_version"] = SCHEMA_VERSION - 1
    (released / "manifest.json").write_text(json.dumps(manifest))
    sums = {n: hashlib.sha256((released / n).read_bytes()).hexdigest() for n in RELEASE_FILES}
    (released / SUMS).write_text("".join(f"{d}  {n}\n" for n, d in sums.items()))
    result = release(tiny, tmp_path / "r2", "--previous", str(released))
    assert result.exit_code == 0, result.output
    lines = (tmp_path / "r2/CHANGES.md").read_text().splitlines()
    assert lines[2].endswith(
        f"which has schema_version {SCHEMA_VERSION - 1} (this one has {SCHEMA_VERSION}): the export's files "
        "changed shape, so its words are not compared."
    )
    assert "| words csw | 17 |" in lines and not any(line.startswith("## ") for line in lines)


@pytest.mark.parametrize("killed", ["between the renames", "before the old one was removed"])
def test_what_a_killed_release_left_beside_the_folder_is_put_right(tiny, released, tmp_path, killed):
    """A kill inside the swap left the old release in `.r1.old-*/r1` (and, between the two renames, no r1
    at all): 100 MB hidden for ever. The next release puts it back or removes it; a folder of the same
    pattern that is not such a leftover is the user's and stays."""
    half = tmp_path / ".r1.new-killed"  # killed while writing: some of a release's files
    half.mkdir()
    shutil.copyfile(released / SUMS, half / SUMS)
    aside = tmp_path / ".r1.old-killed"
    aside.mkdir()
    if killed == "between the renames":
        released.rename(aside / "r1")
    else:
        shutil.copytree(released, aside / "r1")
    mine, also_mine = tmp_path / ".r1.old-mine", tmp_path / ".r1.new-mine"
    for folder in (mine, also_mine):
        folder.mkdir()
        (folder / "notes.txt").write_text("mine")
    result = release(tiny, released)
    assert result.exit_code == 0, result.output
    assert is_release(released) and not aside.exists() and not half.exists()
    assert (mine / "notes.txt").read_text() == (also_mine / "notes.txt").read_text() == "mine"


def test_a_second_release_beside_the_first_waits_its_turn(tiny, released, tmp_path):
    """Releases into one folder's parent take turns (a lock on the parent): the second says it waits,
    and neither removes the other's half-written folder."""
    import fcntl

    from conftest import child

    fd = os.open(tmp_path, os.O_RDONLY | os.O_DIRECTORY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # as a first release holds it
    second = child("release", "--quiet", "--config", str(tiny / "config.toml"), str(tmp_path / "r2"))
    try:
        lines = iter(second.stderr.readline, "")  # the build's stage lines, then the wait
        line = next((line for line in lines if not line[0].isdigit()), "")
        assert line.startswith("waiting: another ladders release is writing in "), line
        assert second.poll() is None and not (tmp_path / "r2").exists()
    finally:
        os.close(fd)
    out, err = second.communicate(timeout=300)
    assert second.returncode == 0, err
    assert is_release(tmp_path / "r2")


@given(st.lists(st.binary(max_size=3000), max_size=8))
def test_the_streamed_dump_gzip_is_gzip_compress_byte_for_byte(tmp_path_factory, pieces):
    """release writes ladder-mysql.sql.gz a piece at a time (raw/'s 68 MiB dump held whole was most of the
    release's memory); the bytes are those gzip.compress gave the whole text, so releases stay reproducible."""
    from ladders.artifact.release import _gzip_to

    path = tmp_path_factory.mktemp("gz") / "dump.gz"
    _gzip_to(path, iter(pieces))
    assert path.read_bytes() == gzip.compress(b"".join(pieces), compresslevel=6, mtime=0)
