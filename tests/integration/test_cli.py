"""The command line: exit codes and one-line messages, through typer's CliRunner."""

from __future__ import annotations

import json

import polars as pl

import pytest
from typer.testing import CliRunner

from ladders.cli import app
from pipeline.config import load_config

cli = CliRunner()


def invoke(*args: str):
    return cli.invoke(app, list(args))


def test_build_status_run(tiny):
    config = str(tiny / "config.toml")
    result = invoke("build", "--config", config, "--quiet")
    assert result.exit_code == 0, result.output
    lines = sorted(result.stderr.splitlines())  # a line per stage as it ends: 2 can end after 6
    assert [line.split()[:2] for line in lines] == [
        ["0", "dictionaries"],
        ["1", "lexicon"],
        ["2", "definitions"],
        ["3", "rareness"],
        ["4", "links"],
        ["5", "groups"],
        ["6", "analysis"],
        ["7", "export"],
    ]
    assert all(line.endswith("ran") for line in lines)
    assert "17 rows" in lines[1]

    status = invoke("status", "--config", config)
    assert status.exit_code == 0
    assert status.stdout.splitlines()[4].split() == ["4", "links", "fresh"]

    rerun = invoke("run", "links", "--force", "--config", config)
    assert rerun.exit_code == 0
    assert rerun.stderr.splitlines()[0].split()[:2] == ["4", "links"]
    assert "sub links" in rerun.stderr  # the stage's note, shown without --quiet


def test_status_exits_1_when_not_fresh(tiny):
    result = invoke("status", "--config", str(tiny / "config.toml"))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[1] == "1 lexicon      missing: 01_lexicon.parquet does not exist"


def test_build_dir_option(tiny, tmp_path):
    result = invoke("build", "--config", str(tiny / "config.toml"), "--build-dir", str(tmp_path / "other"), "-q")
    assert result.exit_code == 0
    assert (tmp_path / "other/export/words.parquet").is_file()
    assert not (tiny / "build").exists()


def test_unknown_stage(tiny):
    result = invoke("run", "nosuch", "--config", str(tiny / "config.toml"))
    assert result.exit_code == 2
    assert result.stderr == (
        "error: no stage 'nosuch'; stages are: 0 dictionaries, 1 lexicon, 2 definitions, "
        "3 rareness, 4 links, 5 groups, 6 analysis, 7 export\n"
    )


def test_run_before_inputs_exist(tiny):
    result = invoke("run", "links", "--config", str(tiny / "config.toml"))
    assert result.exit_code == 2  # what it reads from is not there: run that first (issue 42, item 18)
    assert result.stderr.startswith("error: stage 1 lexicon is missing (01_lexicon.parquet does not exist)")
    assert "run `ladders build`, or `ladders run 1` first" in result.stderr
    forced = invoke("run", "links", "--force", "--config", str(tiny / "config.toml"))
    assert forced.exit_code == 3 and "01_lexicon.parquet does not exist" in forced.stderr
    assert len(result.stderr.splitlines()) == 1


def test_bad_input_word_is_one_line(tiny):
    (tiny / "csw.txt").write_text("CAT\nC4T\n")
    result = invoke("build", "--config", str(tiny / "config.toml"))
    assert result.exit_code == 2
    assert (
        result.stderr.splitlines()[-1] == "error: csw.txt, line 2: 'C4T' is not a word of letters A-Z ('4', column 2)"
        " (--lenient skips such lines and lists them)"
    )


@pytest.mark.parametrize(
    "line, message",
    [
        ('csw_fromat = "plain"', "unknown key 'csw_fromat'"),
        ("csw_format = 3", "key 'csw_format': must be one of auto, plain, naspa, collins, scores, not 3"),
        ('csw = "nowhere.txt"', "key 'csw': {tiny}/nowhere.txt does not exist"),
        ('scowl = "csw.txt"', "key 'scowl': {tiny}/csw.txt is not a directory"),
        ('definition_sources = ["csw", "web"]', "key 'definition_sources': 'web' is neither a source"),
        ('definition_sources = ["csw", "Web"]', "key 'definition_sources': must be a non-empty list"),
        (
            "[rareness_by_level]\n10 = 1\n20 = 1\n35 = 4\n40 = 20\n50 = 200\n55 = 2000\n60 = 20000\n70 = 200000\n"
            "80 = 2000000\n95 = 5\nabsent = 6",
            "key 'rareness_by_level': must not decrease with level: 95 = 5 is below 80 = 2000000",
        ),
        ("[rareness_by_level]\n45 = 1", "key 'rareness_by_level': must have exactly the keys 10, 20"),
        ("[rareness_labels]\nrare = 45", "key 'rareness_labels': rare must be a SCOWL level"),
    ],
)
def test_config_errors_name_the_key(tiny, line, message):
    key = line.split("=")[0].strip()
    kept = [kept for kept in (tiny / "config.toml").read_text().splitlines() if not kept.startswith(key + " ")]
    (tiny / "config.toml").write_text("\n".join(kept + [line]) + "\n")
    result = invoke("status", "--config", str(tiny / "config.toml"))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {tiny / 'config.toml'}: ")
    assert message.format(tiny=tiny) in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_missing_config_file(tmp_path):
    result = invoke("status", "--config", str(tmp_path / "none.toml"))
    assert result.exit_code == 2
    assert result.stderr == f"error: {tmp_path / 'none.toml'}: config file does not exist\n"


def test_definition_lists_dropped_in_through_the_config(tiny):
    import shutil

    import polars as pl

    from conftest import no_everyday

    from support.paths import DATA

    shutil.copy(DATA / "naspa.txt", tiny / "csw.txt")
    shutil.copy(DATA / "collins.txt", tiny / "owl.txt")
    no_everyday(tiny)
    result = invoke("build", "--config", str(tiny / "config.toml"))
    assert result.exit_code == 0, result.output
    assert "csw.txt: 17 words (naspa, detected)" in result.stderr
    assert "owl.txt: 5 words (collins, detected)" in result.stderr
    words = pl.read_parquet(tiny / "build/export/words.parquet")
    got = {w: (d, s) for w, d, s in words.select("word", "definition", "definition_source").rows()}
    assert got["AM"] == ("BE, to have actuality [v]", "csw-link")
    assert got["ABACI"] == ("ABACUS, (Latin) a counting frame [n]", "owl")
    assert got["AAL"] == ("(Hindi) the Indian mulberry tree, also AL [n -S]", "csw")  # CSW before OWL


def test_lenient_flag(tiny):
    import shutil

    import polars as pl

    from conftest import no_everyday

    from support.paths import DATA

    shutil.copy(DATA / "naspa_bad.txt", tiny / "csw.txt")
    no_everyday(tiny)
    strict = invoke("build", "--config", str(tiny / "config.toml"))
    assert strict.exit_code == 2
    assert strict.stderr.splitlines()[-1].startswith("error: csw.txt, line 15: 'A2' is not a word")
    lenient = invoke("build", "--config", str(tiny / "config.toml"), "--lenient")
    assert lenient.exit_code == 0
    assert pl.read_parquet(tiny / "build/01_skipped.parquet")["line"].to_list() == [15]
    assert pl.read_parquet(tiny / "build/01_warnings.parquet")["line"].to_list() == [7, 9, 11, 13, 17, 19]
    manifest = json.loads((tiny / "build/export/manifest.json").read_text())
    assert manifest["counts"]["list_problems"] == {
        "skipped_lines": 1,
        "definition_warnings": 6,
        "remove_list_strays": 0,
    }
    assert (
        "  1 word-list line skipped (--lenient), 6 definition warnings (words kept)"
        in (tiny / "build/export/summary.txt").read_text().splitlines()
    )
    status = invoke("status", "--config", str(tiny / "config.toml"))
    assert f"6 definition warnings (words kept) in {tiny}/build/01_warnings.parquet" in status.stdout


def test_clean_ladders_route_around_flagged_words(tiny):
    """tests/data/tiny/offensive.txt flags DOT: a --clean ladder from CAT to DOG must go through COG."""
    assert invoke("build", "--config", str(tiny / "config.toml"), "--quiet").exit_code == 0
    export = str(tiny / "build/export")
    words = pl.read_parquet(tiny / "build/export/words.parquet")
    assert words.filter(pl.col("offensive"))["word"].to_list() == ["DOT"]
    for flags in (["--clean"], []):  # the default is family-safe too (issue 42, item 17)
        for seed in range(8):  # with --no-clean, some seeds take CAT COT DOT DOG
            data = json.loads(
                invoke("solve", "cat", "dog", "--export", export, *flags, "--json", "--seed", str(seed)).stdout
            )
            assert [w["word"] for w in data["shortest"]["words"]] == ["CAT", "COT", "COG", "DOG"]
            assert [w["word"] for w in data["common"]["words"]] == ["CAT", "COT", "COG", "DOG"]
            assert (data["clean"], data["strict"]) == (True, not flags)
    plain = {
        tuple(
            w["word"]
            for w in json.loads(
                invoke("solve", "cat", "dog", "--export", export, "--no-clean", "--json", "--seed", str(seed)).stdout
            )["shortest"]["words"]
        )
        for seed in range(8)
    }
    assert ("CAT", "COT", "DOT", "DOG") in plain
    refused = invoke("solve", "dot", "dog", "--export", export, "--clean")
    assert refused.exit_code == 14
    assert refused.stderr == (
        "error: DOT is flagged offensive: a clean ladder neither starts nor ends on such a word "
        "(--no-clean allows every word)\n"
    )
    assert invoke("solve", "dot", "dog", "--export", export).exit_code == 14
    assert invoke("solve", "dot", "dog", "--export", export, "--no-clean").exit_code == 0
    for both in (["--clean", "--no-clean"], ["--strict", "--no-clean"], ["--clean", "--strict"]):
        assert invoke("solve", "cat", "dog", "--export", export, *both).exit_code == 2
    once = invoke("solve", "cat", "cot", "--export", export).stdout  # the two ladders are the same: printed once
    assert once.count("1 step,") == 1 and "1 steps" not in once and "all everyday words too: 1 step," in once


def test_strict_ladders_route_around_vulgar_sense_words_that_clean_ones_may_take(tiny):
    """With DOT flagged vulgar_sense (an everyday word with a rude sense), --clean may step on it;
    --strict must go CAT COT COG DOG and refuses DOT as an end word, naming its level."""
    (tiny / "offensive.txt").write_text("DOT vulgar_sense stand-in for a word like COCK\n")
    assert invoke("build", "--config", str(tiny / "config.toml"), "--quiet").exit_code == 0
    export = str(tiny / "build/export")
    words = pl.read_parquet(tiny / "build/export/words.parquet")
    assert words.filter(pl.col("vulgar_sense"))["word"].to_list() == ["DOT"] and not words["offensive"].any()

    def ladders(*flags: str) -> set[tuple[str, ...]]:
        return {
            tuple(
                w["word"]
                for w in json.loads(
                    invoke("solve", "cat", "dog", "--export", export, "--json", "--seed", str(seed), *flags).stdout
                )[kind]["words"]
            )
            for seed in range(8)
            for kind in ("shortest", "common")
        }

    assert ("CAT", "COT", "DOT", "DOG") in ladders("--clean")
    assert ladders("--strict") == ladders() == {("CAT", "COT", "COG", "DOG")}  # strict: the default
    refused = invoke("solve", "dot", "dog", "--export", export)
    assert refused.exit_code == 14
    assert refused.stderr == (
        "error: DOT is flagged vulgar_sense: a family-safe ladder neither starts nor ends on such a word "
        "(--no-clean allows every word)\n"
    )
    assert invoke("solve", "dot", "dog", "--export", export, "--clean").exit_code == 0


def test_puzzles_are_clean_unless_asked_otherwise(tiny):
    """DOT offensive (the tiny list): no default puzzle starts, ends or steps on it; --no-clean allows it."""
    assert invoke("build", "--config", str(tiny / "config.toml"), "--quiet").exit_code == 0
    export = str(tiny / "build/export")

    def drawn(*flags: str) -> set[str]:
        found = set()
        for seed in range(20):
            result = invoke(
                "puzzle",
                "--length",
                "3",
                "--steps",
                "1",
                "--count",
                "5",
                "--seed",
                str(seed),
                "--export",
                export,
                "--json",
                *flags,
            )
            found |= {p[end] for p in json.loads(result.stdout)["puzzles"] for end in ("start", "end")}
        return found

    assert "DOT" not in drawn() and "DOT" not in drawn("--strict")
    assert "DOT" in drawn("--no-clean")


def test_one_rareness_level_changes_alone_and_config_says_where_each_value_came_from(tiny):
    (tiny / "config.toml").write_text((tiny / "config.toml").read_text() + "\n[rareness_by_level]\n35 = 3\n")
    result = invoke("config", "--config", str(tiny / "config.toml"), "--json")
    assert result.exit_code == 0, result.output
    shown = json.loads(result.stdout)
    assert shown["rareness_by_level"]["value"] == {**load_config()["rareness_by_level"], "35": 3}
    assert shown["rareness_by_level"]["from"] == str(tiny / "config.toml")
    assert shown["rareness_labels"]["from"] == "built-in defaults"
    text = invoke("config", "--config", str(tiny / "config.toml")).stdout
    assert 'csw_format         = "auto"  # built-in defaults' in text.splitlines()


def test_status_and_verify_speak_json_and_version_is_printed(tiny):
    config = str(tiny / "config.toml")
    stale = invoke("status", "--config", config, "--json")
    assert stale.exit_code == 1 and json.loads(stale.stdout)["stages"][0]["state"] == "missing"
    assert invoke("build", "--quiet", "--config", config).exit_code == 0
    fresh = json.loads(invoke("status", "--config", config, "--json").stdout)
    assert fresh["fresh"] and [s["name"] for s in fresh["stages"]][-1] == "export"
    checked = invoke("verify", "--config", config, "--json")
    assert checked.exit_code == 0 and json.loads(checked.stdout)["failed"] == []
    assert invoke("--version").stdout.startswith("ladders ")
