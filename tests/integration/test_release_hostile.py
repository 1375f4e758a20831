"""Issue 42 items 9-11: what a previous release or an input's path holds reaches CHANGES.md and NOTICE only as
inert text (CHANGES.md rendered by markdown-it, an independent CommonMark renderer with GFM tables, holds no
link, image, HTML, heading or table row of the values' making); a previous release's archive is unpacked only
within its bounds, and a damaged previous release (its manifest a JSON list, link ids past its words) is
refused with exit 3 naming the damage, where it was compared silently before."""

from __future__ import annotations

import hashlib
import html
import io
import json
import re
import tarfile
import zipfile
from pathlib import Path

import polars as pl
import pytest

from conftest import invoke
from pipeline.columns import SCHEMA_VERSION
from ladders.artifact.diff import md
from ladders.artifact.release import RELEASE_FILES, SUMS, UNPACK_BYTES, UNPACK_MEMBERS

# The hostile values of issue 42 item 9, as words, a definition, a lexicon (column) name and a label.
WORDS = [
    "<img src=x onerror=alert(1)>",
    "![px](https://evil.example/t.png)",
    "[click me](https://evil.example/x)",
    "AB\x1b]0;pwned\x07C\x1b[31mRED",
]
DEFINITION = "see https://evil.example/d or www.evil.example or mail me@evil.example <b>bold</b> *em* `code`"
LEXICON = "o|w\n# Pwned | 1 | 2 | 3 |"
LABEL = "<script>alert(2)</script>"


def release(tiny: Path, folder: Path, *extra: str):
    return invoke("release", "--quiet", "--config", str(tiny / "config.toml"), str(folder), *extra)


@pytest.fixture
def released(tiny, tmp_path) -> Path:
    result = release(tiny, tmp_path / "r1")
    assert result.exit_code == 0, result.output
    return tmp_path / "r1"


def _reseal(folder: Path, manifest: dict | list) -> None:
    """Write `manifest` with the files' sha256 as they now are, and SHA256SUMS over every file: a release
    whose checksums hold, whatever it says."""
    if isinstance(manifest, dict) and isinstance(manifest.get("files"), dict):
        for name, entry in manifest["files"].items():
            entry["sha256"] = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest))
    sums = {n: hashlib.sha256((folder / n).read_bytes()).hexdigest() for n in RELEASE_FILES}
    (folder / SUMS).write_text("".join(f"{d}  {n}\n" for n, d in sums.items()))


def _make_hostile(folder: Path) -> None:
    """The previous release's words renamed to the hostile values, a definition of a word both releases hold
    set to DEFINITION, its lexicon owl renamed LEXICON (columns and manifest), a label named LABEL."""
    words = pl.read_parquet(folder / "words.parquet")
    names = words["word"].to_list()
    names[: len(WORDS)] = WORDS
    kept = names[-1]  # the last word keeps its name: its definition differs
    words = words.with_columns(
        pl.Series("word", names),
        pl.when(pl.col("word") == kept).then(pl.lit(DEFINITION)).otherwise(pl.col("definition")).alias("definition"),
    )
    words = words.rename({c: c.replace("owl", LEXICON) for c in ("in_owl", "group_owl", "group_owl_edit")})
    words.write_parquet(folder / "words.parquet")
    manifest = json.loads((folder / "manifest.json").read_text())
    for entry in manifest["lexicons"]:
        entry["name"] = LEXICON if entry["name"] == "owl" else entry["name"]
    manifest["columns"]["words.parquet"] = words.columns
    labels = manifest["config"]["rareness_labels"]
    manifest["config"]["rareness_labels"] = {(LABEL if k == "common" else k): v for k, v in labels.items()}
    _reseal(folder, manifest)


def _rendered(markdown: str) -> str:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").render(markdown)


def test_md_renders_each_hostile_value_as_its_own_text():
    """The one escaping function: markdown-it renders md(value) as one paragraph of exactly the value's text
    (controls as visible escapes), whatever Markdown or HTML it holds; no URL is left for a linkifier."""
    for value in [*WORDS, DEFINITION, LEXICON, LABEL, "_x_ ~~y~~ &amp; \\* # 1. - | ---", "x\u202eevil\u200b"]:
        escaped = md(value)
        assert "\n" not in escaped and "\x1b" not in escaped and "\u202e" not in escaped
        assert not re.search(r"\w://|www\.|\w@", escaped)  # what a linkifier would take for a link
        text = re.fullmatch(r"<p>(.*)</p>\n", _rendered(escaped), re.S)
        assert text and "<" not in text[1], (value, _rendered(escaped))
        visible = value.replace("\n", "\\u000a").replace("\x1b", "\\u001b").replace("\x07", "\\u0007")
        visible = visible.replace("\u202e", "\\u202e").replace("\u200b", "\\u200b")
        assert html.unescape(text[1]) == visible, value


def test_changes_md_holds_a_hostile_previous_release_inert(tiny, released, tmp_path):
    """Issue 42 item 9: words with HTML, an image, a link and ESC bytes; a definition with bare URLs; a
    lexicon (column) name with `|` and newlines; a label with HTML. Before: each went into CHANGES.md as it
    was (the column name started a heading and new table rows). Failed before."""
    _make_hostile(released)
    result = release(tiny, tmp_path / "r2", "--previous", str(released))
    assert result.exit_code == 0, result.output
    changes = (tmp_path / "r2/CHANGES.md").read_text()
    assert "\x1b" not in changes and "\x07" not in changes
    assert not re.search(r"\w://|www\.|\w@", changes)
    page = _rendered(changes)
    assert not re.search(r"<(a|img|script|b|em|code)\b", page), page
    assert re.findall(r"<h(\d)>(.*?)</h\d>", page) == [
        ("1", "Changes"),
        ("2", "Words"),
        ("2", "Links"),
        ("2", "Groups"),
        ("2", "Words in both releases"),
    ]
    table = [line for line in changes.splitlines() if line.startswith("|")]
    assert page.count("<tr>") == len(table) - 1  # the delimiter row is no row
    assert all(row.count("<td") == 4 for row in re.findall(r"<tr>(.*?)</tr>", page, re.S)[1:])
    text = html.unescape(page)
    for value in WORDS:  # each removed word shown as itself, its controls visible
        assert value.replace("\x1b", "\\u001b").replace("\x07", "\\u0007") in text, value
    assert DEFINITION[:69] in text and f"words {LEXICON}".replace("\n", "\\u000a") in text
    assert LABEL in text


def test_changes_md_names_a_hostile_schema_version_inert(tiny, released, tmp_path):
    """A schema_version string is another ladders' export, named, not compared: as inert text. Failed before
    (it went in as Python's repr, HTML and all)."""
    manifest = json.loads((released / "manifest.json").read_text())
    manifest["schema_version"] = "<img src=x onerror=alert(1)>\n# 7"
    _reseal(released, manifest)
    result = release(tiny, tmp_path / "r2", "--previous", str(released))
    assert result.exit_code == 0, result.output
    changes = (tmp_path / "r2/CHANGES.md").read_text()
    page = _rendered(changes)
    assert "<img" not in page and re.findall(r"<h\d>", page) == ["<h1>"]
    assert "which has schema_version <img src=x onerror=alert(1)>\\u000a# 7 (this" in html.unescape(page)


def test_notice_holds_a_hostile_add_list_path_inert(tiny, tmp_path):
    """Issue 42 item 10: an add-list whose file name holds an OSC sequence (sets a terminal's title) and a
    newline that started a `# Heading` line of NOTICE. Failed before."""
    name = "ad\x1b]0;pwned\x07d\n# Heading <img src=x onerror=alert(1)> [c](https:evil).txt"
    (tiny / name).write_text("ZYZZYVA\n")
    with (tiny / "config.toml").open("a") as f:
        f.write(f"[lexicons.big]\nfrom = {json.dumps('csw')}\nadd = {json.dumps(name)}\n")
    result = release(tiny, tmp_path / "r")
    assert result.exit_code == 0, result.output
    notice = (tmp_path / "r/NOTICE").read_text()
    assert "\x1b" not in notice and "\x07" not in notice
    assert not any(line.startswith("# ") for line in notice.splitlines())
    heading = next(line for line in notice.splitlines() if line.startswith("## ad"))
    assert heading.startswith("## ad\\\\u001b\\]0;pwned\\\\u0007d\\\\u000a\\# Heading \\<img"), heading
    # Rendered as Markdown (an independent renderer), the name is text: no image, no link, no new heading.
    rendered = _rendered(notice)
    assert "<img" not in rendered and "<a " not in rendered and "<h1>" not in rendered


def _tar_gz(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def test_a_previous_release_archive_is_unpacked_only_within_its_bounds(tiny, tmp_path, monkeypatch):
    """Issue 42 item 11: a small .tar.gz that unpacks past UNPACK_BYTES, or holds more than UNPACK_MEMBERS
    members, is refused from its headers, exit 3, one line, before a byte is written (TMPDIR stays empty).
    Before, a 1.2 MB archive unpacked 200 MB into $TMPDIR. Failed before."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # read TMPDIR again
    bomb = tmp_path / "bomb.tar.gz"
    with tarfile.open(bomb, "w:gz") as tar:  # zeros compress ~1000:1: 2 GiB + 1 in about 2 MB
        info = tarfile.TarInfo("r/words.parquet")
        info.size = UNPACK_BYTES + 1
        tar.addfile(info, _Zeros(info.size))
    assert bomb.stat().st_size < 5_000_000
    many = tmp_path / "many.tar.gz"
    many.write_bytes(_tar_gz({f"r/{i}.txt": b"x" for i in range(UNPACK_MEMBERS + 1)}))
    zipped = tmp_path / "many.zip"
    with zipfile.ZipFile(zipped, "w") as z:
        for i in range(UNPACK_MEMBERS + 1):
            z.writestr(f"{i}.txt", "x")
    for archive, said in (
        (bomb, f"would unpack to {UNPACK_BYTES + 1:,} bytes, more than the {UNPACK_BYTES:,}"),
        (many, f"holds more than {UNPACK_MEMBERS} members"),
        (zipped, f"holds more than {UNPACK_MEMBERS} members"),
    ):
        result = release(tiny, tmp_path / "r", "--previous", str(archive))
        last = result.output.strip().splitlines()[-1]
        assert result.exit_code == 3 and last.startswith(f"error: previous release {archive} ") and said in last
        assert not (tmp_path / "r").exists() and list(scratch.iterdir()) == []


class _Zeros(io.RawIOBase):
    """A file of `size` zero bytes, read without holding them."""

    def __init__(self, size: int):
        self.left = size

    def readable(self):
        return True

    def readinto(self, buffer):
        n = min(len(buffer), self.left)
        buffer[:n] = bytes(n)
        self.left -= n
        return n


def test_a_damaged_previous_release_is_refused_naming_the_damage(tiny, released, tmp_path):
    """Issue 42 item 11: a previous release whose checksums hold but whose export is damaged was compared
    silently ("schema_version None", "links +0"). Now each is exit 3 and one line naming the damage. Failed
    before."""
    good = json.loads((released / "manifest.json").read_text())

    def refused(manifest, said: str) -> None:
        _reseal(released, manifest)
        result = release(tiny, tmp_path / "r2", "--previous", str(released))
        last = result.output.strip().splitlines()[-1]
        assert result.exit_code == 3 and last == f"error: previous release {released} is damaged: {said}", last
        assert not (tmp_path / "r2").exists()

    refused([good], "its manifest.json is not an export manifest: a JSON list, not an object")
    refused(
        {k: v for k, v in good.items() if k != "schema_version"},
        "its manifest.json is not an export manifest: its schema_version is null, not a number",
    )
    refused(
        {**good, "files": []},
        "its manifest.json is not an export manifest: its files are not an object of {name: {sha256, ...}}",
    )
    words = pl.read_parquet(released / "words.parquet")
    far = words.height + 1000
    words.with_columns(
        pl.when(pl.col("id") == 0).then(pl.lit([far], pl.List(pl.UInt32))).otherwise("links").alias("links")
    ).write_parquet(released / "words.parquet")
    refused(
        good,
        f"ids are not 0..N-1 in row order, or a neighbour list holds an id that is no row: links holds "
        f"id {far:,}, past the last word ({words.height - 1:,})",
    )
    words.drop("rareness").write_parquet(released / "words.parquet")
    refused(
        good, "a table's columns or dtypes differ from the export contract: words.parquet rareness: None (want UInt32)"
    )
    # the checks hold for a good release of this schema_version: compared as before
    words.write_parquet(released / "words.parquet")
    _reseal(released, good)
    assert good["schema_version"] == SCHEMA_VERSION
    assert release(tiny, tmp_path / "r2", "--previous", str(released)).exit_code == 0


def test_a_previous_release_that_cannot_be_unpacked_for_want_of_room_names_the_folder(
    tiny, released, tmp_path, monkeypatch
):
    """A full disk while unpacking said "No space left on device" naming no file: now one line naming the
    archive and the folder, exit 4 (the machine, not the release)."""
    import errno

    archive = tmp_path / "r1.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(released, arcname="r1")

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tarfile, "copyfileobj", full)
    result = release(tiny, tmp_path / "r2", "--previous", str(archive))
    last = result.output.strip().splitlines()[-1]
    assert result.exit_code == 4 and last.startswith(f"error: cannot unpack previous release {archive} into ")
    assert "No space left on device" in last


def test_make_check_release_says_how_many_files_match(released):
    """Issue 42 item 25: `make check-release` was silent on success. Failed before."""
    import subprocess

    from support.paths import ROOT

    done = subprocess.run(
        ["make", "-s", "check-release", f"RELEASE={released}"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.splitlines() == [f"{len(RELEASE_FILES)} files match SHA256SUMS"]
    (released / "NOTICE").write_text("changed")
    assert subprocess.run(
        ["make", "-s", "check-release", f"RELEASE={released}"], cwd=ROOT, capture_output=True
    ).returncode
