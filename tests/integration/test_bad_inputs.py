"""Each bad input gives its exact one-line message and exit code, and the previous export stays byte-identical."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import snapshot
from ladders.cli import app

cli = CliRunner()


def write(name: str, data: bytes):
    def change(root: Path) -> None:
        (root / name).write_bytes(data)

    return change


def replace_with_folder(root: Path) -> None:
    (root / "csw.txt").unlink()
    (root / "csw.txt").mkdir()


def config_line(line: str):
    """Set one config key (replacing the fixture's own line for it, if any)."""

    def change(root: Path) -> None:
        key = line.split("=")[0].strip("[] \n")
        kept = [k for k in (root / "config.toml").read_text().splitlines() if not k.startswith(key + " ")]
        (root / "config.toml").write_text("\n".join(kept + [line]) + "\n")

    return change


FAILURES = [
    ("missing file", lambda r: (r / "csw.txt").unlink(), "error: {cfg}: key 'csw': {root}/csw.txt does not exist"),
    ("empty lexicon", write("csw.txt", b""), "error: csw.txt: no words in the file (empty lexicon)"),
    ("folder for a file", replace_with_folder, "error: {cfg}: key 'csw': {root}/csw.txt is not a file"),
    (
        "not UTF-8",
        write("csw.txt", b"cat\n\xff\xfe\n"),
        "error: csw.txt, line 2: not UTF-8 text (byte 0xff at offset 4)",
    ),
    (
        "digit",
        write("csw.txt", b"cat\nc4t\n"),
        "error: csw.txt, line 2: 'c4t' is not a word of letters A-Z ('4', column 2)"
        " (--lenient skips such lines and lists them)",
    ),
    (
        "space inside",
        write("csw.txt", b"cat\nice cream\n"),
        "error: csw.txt, line 2: 'ice cream' is not a word of letters A-Z (' ', column 4)"
        " (--lenient skips such lines and lists them)",
    ),
    (
        "two formats in one file",
        write("csw.txt", b"CAT a feline [n]\nDOG\ta canine [n]\n"),
        "error: csw.txt: cannot tell its format, it mixes two formats (line 1 looks naspa; line 2 looks collins); "
        "set csw_format to plain, naspa, collins or scores",
    ),
    (
        "punctuation",
        write("csw.txt", b"cat\ndon't\n"),
        'error: csw.txt, line 2: "don\'t" is not a word of letters A-Z ("\'", column 4)'
        " (--lenient skips such lines and lists them)",
    ),
    (
        "non-A-Z letter",
        write("csw.txt", "cat\ncafé\n".encode()),
        "error: csw.txt, line 2: 'café' is not a word of letters A-Z ('é', column 4)"
        " (--lenient skips such lines and lists them)",
    ),
    (
        "10 MB line",
        write("csw.txt", b"cat\n" + b"x" * 10_000_000 + b"!\n"),
        "error: csw.txt, line 2: '"
        + "x" * 60
        + "...' is not a word of letters A-Z ('!', column 10,000,001) (--lenient skips such lines and lists them)",
    ),
    (
        "65 letters",
        write("csw.txt", b"cat\n" + b"x" * 65 + b"\n"),
        "error: csw.txt, line 2: '"
        + "x" * 60
        + "...' has 65 letters (at most 64) (--lenient skips such lines and lists them)",
    ),
    (
        "NUL byte",
        write("csw.txt", b"cat\nd\x00g\n"),
        "error: csw.txt, line 2: 'd\\x00g' is not a word of letters A-Z ('\\x00', column 2)"
        " (--lenient skips such lines and lists them)",
    ),
    (
        "unknown key",
        config_line('colour = "red"'),
        "error: {cfg}: unknown key 'colour' (known: lexicons, csw, csw_format, owl, "
        "owl_format, scowl, wordnet, gcide, supplement, offensive, cuss, main_senses, wordfreq, freedict, language, "
        "rareness_source, lenient, "
        "definition_sources, rareness_by_level, rareness_labels, everyday_min_zipf, build_dir)",
    ),
    ("wrong type", config_line("lenient = 3"), "error: {cfg}: key 'lenient': must be true or false, not 3"),
    (
        "rareness not non-decreasing",
        config_line(
            "[rareness_by_level]\n10 = 5\n20 = 1\n35 = 4\n40 = 20\n50 = 200\n55 = 2000\n60 = 20000\n70 = 200000\n"
            "80 = 2000000\n95 = 2000001\nabsent = 2000001"
        ),
        "error: {cfg}: key 'rareness_by_level': must not decrease with level: 20 = 1 is below 10 = 5",
    ),
    (
        "path that does not exist",
        config_line('wordnet = "nowhere"'),
        "error: {cfg}: key 'wordnet': {root}/nowhere does not exist",
    ),
]


@pytest.mark.parametrize("name, change, message", FAILURES, ids=[f[0] for f in FAILURES])
def test_bad_input_fails_with_one_line_and_keeps_the_export(tiny, name, change, message):
    cfg = str(tiny / "config.toml")
    assert cli.invoke(app, ["build", "--config", cfg, "--quiet"]).exit_code == 0
    before = snapshot(tiny / "build/export")
    change(tiny)
    result = cli.invoke(app, ["build", "--config", cfg, "--quiet"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == message.format(cfg=cfg, root=tiny)
    assert snapshot(tiny / "build/export") == before


@pytest.mark.parametrize(
    "csw, owl, note",
    [
        (b"cat\ndog\n", b"cat\ndog\nemu\n", "1 OWL word is not in CSW (kept)"),
        (b"cat\ndog\ncat\nCAT\n", b"cat\n", "csw.txt: 2 words (plain, detected), 2 duplicate lines"),
    ],
)
def test_counted_not_errors(tiny, csw, owl, note):
    (tiny / "csw.txt").write_bytes(csw)
    (tiny / "owl.txt").write_bytes(owl)
    result = cli.invoke(app, ["build", "--config", str(tiny / "config.toml")])
    assert result.exit_code == 0, result.output
    assert f"    {note}" in result.stderr.splitlines()
    assert cli.invoke(app, ["verify", str(tiny / "build/export")]).exit_code == 0


def test_malformed_wordnet_index_line_is_one_line(tiny):
    (tiny / "wordnet/index.noun").write_text("cat n\n")
    result = cli.invoke(app, ["build", "--quiet", "--config", str(tiny / "config.toml")])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == "error: WordNet file index.noun: not an index line: 'cat n'"
    assert "Traceback" not in result.stderr
