"""What `build`, `run`, `status` and `warnings` say (issue 42, items 18, 19, 20, 25): `run N` on stale inputs
refused with what to run, a build's warnings listed, `--quiet` quiet, counts said in good English."""

from __future__ import annotations

import json

from conftest import invoke


def _config(tiny) -> str:
    return str(tiny / "config.toml")


def test_run_on_stale_inputs_says_what_is_stale_and_what_to_run(tiny):
    """With stage 3 stale, `run 5` printed "skipped" and exited 0, and `run 7` said "ran" while status still
    called 3, 5, 6 and 7 stale."""
    assert invoke("build", "--quiet", "--config", _config(tiny)).exit_code == 0
    with (tiny / "scowl/english-words.35").open("a") as f:
        f.write("mice\n")  # everyday now (wordfreq sees it often): the everyday groups change
    for stage in ("5", "groups", "7"):
        result = invoke("run", stage, "--config", _config(tiny))
        assert result.exit_code == 2, result.stderr
        assert result.stderr.splitlines() == [
            "error: stage 3 rareness is stale (input scowl/english-words.35 changed), and stage "
            f"{'5 groups' if stage != '7' else '7 export'} reads what it writes: run `ladders build`, or "
            f"`ladders run 3` first (--force runs stage {'5' if stage != '7' else '7'} now on the inputs on "
            "disk, stale or not)"
        ]
    assert invoke("run", "3", "--config", _config(tiny)).exit_code == 0
    assert invoke("run", "5", "--config", _config(tiny)).exit_code == 0
    refused = invoke("run", "7", "--config", _config(tiny))
    assert (
        refused.exit_code == 2
        and "error: stage 6 analysis is stale (input 05_groups.parquet changed)" in refused.stderr
    )
    forced = invoke("run", "7", "--force", "--config", _config(tiny))
    assert forced.exit_code == 0 and forced.stderr.split()[:2] == ["7", "export"]
    assert invoke("build", "--config", _config(tiny)).exit_code == 0
    assert invoke("status", "--config", _config(tiny)).exit_code == 0


def test_a_remove_list_word_no_list_holds_is_named_so_and_warnings_lists_it(tiny):
    """It was "1 definition warnings (words kept)", and no command listed a build's warnings."""
    (tiny / "gone.txt").write_text("ZZXQ\nCAT\n")
    with (tiny / "config.toml").open("a") as f:
        f.write('[lexicons.less]\nfrom = "csw"\nremove = "gone.txt"\n')
    built = invoke("build", "--config", _config(tiny))
    assert built.exit_code == 0, built.stderr
    assert "1 remove-list word that no list holds, listed in 01_warnings.parquet" in built.stderr
    status = invoke("status", "--config", _config(tiny))
    assert "1 remove-list word that no list holds in " in status.stdout and "definition warning" not in status.stdout
    assert json.loads(invoke("status", "--json", "--config", _config(tiny)).stdout)["remove_list_strays"] == 1
    listed = invoke("warnings", "--config", _config(tiny))
    assert listed.exit_code == 0
    assert listed.stdout.splitlines() == ["warning: gone.txt, line 1: remove-list word that no list holds: ZZXQ"]
    assert listed.stderr == "1 remove-list word that no list holds; 0 word-list lines skipped\n"
    as_json = json.loads(invoke("warnings", "--json", "--config", _config(tiny)).stdout)
    assert as_json["skipped"] == [] and as_json["warnings"] == [
        {"list": "less", "file": "gone.txt", "line": 1, "text": "ZZXQ", "reason": "remove-list word that no list holds"}
    ]


def test_warnings_lists_skipped_lines_as_inert_text_and_refuses_a_folder_without_a_build(tiny, tmp_path):
    from conftest import no_everyday

    no_everyday(tiny)
    with (tiny / "csw.txt").open("a") as f:
        f.write("BAD\x1b]0;pwned\x07WORD\n")
    assert invoke("build", "--lenient", "--quiet", "--config", _config(tiny)).exit_code == 0
    listed = invoke("warnings", "--config", _config(tiny))
    assert listed.exit_code == 0 and "\x1b" not in listed.stdout and "\x07" not in listed.stdout
    assert [line for line in listed.stdout.splitlines() if line.startswith("skipped: csw.txt, line ")]
    empty = invoke("warnings", "--build-dir", str(tmp_path / "nothing"), "--config", _config(tiny))
    assert empty.exit_code == 3 and empty.stderr.startswith("error: no word-list tables in ")


def test_quiet_says_no_skipped_lines_and_counts_are_said_in_english(tiny):
    """--quiet printed a "skipped" line per fresh stage; the dump's line said "8 sql 0 rows"; notes said
    "1 groups", "1 lines skipped", "headwords: 0 words, "."""
    assert invoke("build", "--quiet", "--config", _config(tiny)).exit_code == 0
    again = invoke("build", "--quiet", "--config", _config(tiny))
    assert (again.exit_code, again.stderr) == (0, "")
    assert "skipped" in invoke("build", "--config", _config(tiny)).stderr  # without --quiet: said
    with_sql = invoke("build", "--with", "sql", "--config", _config(tiny))
    line = next(line for line in with_sql.stderr.splitlines() if line.startswith("8 sql"))
    size = (tiny / "build/ladder-mysql.sql").stat().st_size
    assert "1 file, " in line and "rows" not in line and f"{size / 1000:.1f} kB" in line


def test_no_note_of_a_stage_says_one_thing_in_the_plural(tiny):
    """Every note of a build of the tiny lists (and of a list with one word in a group of two): no "1 groups",
    "1 lines", no "headwords: 0 words, " with nothing after."""
    import re

    from conftest import no_everyday

    no_everyday(tiny)
    with (tiny / "csw.txt").open("a") as f:
        f.write("9BAD\n")
    built = invoke("build", "--lenient", "--config", _config(tiny))
    assert built.exit_code == 0, built.stderr
    assert not re.search(r"(?<![\d,])1 [a-zA-Z-]+s\b", built.stderr), built.stderr
    assert not re.search(r", *$", built.stderr, re.M)


def _made_up_words(tiny) -> None:
    """Lists of words SCOWL has none of (another language's, made up): everyday, csw's SCOWL words, is empty."""
    import random

    rng = random.Random(3)
    words = sorted({"".join(rng.choice("QXZJV") for _ in range(4)) for _ in range(60)})
    for name in ("csw.txt", "owl.txt"):
        (tiny / name).write_text("\n".join(words) + "\n")


def test_a_default_lexicon_that_ends_empty_is_a_warning_and_the_build_goes_on(tiny):
    """Lists that hold no word of SCOWL's main lists stopped the build: "lexicon 'everyday' holds no word
    once made ... drop it with everyday = false", for a lexicon the user never wrote."""
    _made_up_words(tiny)
    built = invoke("build", "--config", _config(tiny))
    assert built.exit_code == 0, built.stderr
    assert "    warning: lexicon 'everyday' holds no word of this build: left out (it is a default; " in built.stderr
    assert "definitions for 0 of " in built.stderr and "(0.0%):" not in built.stderr  # nothing after a colon
    assert invoke("verify", "--config", _config(tiny)).exit_code == 0


def test_an_empty_lexicon_the_config_wrote_stays_an_error(tiny):
    _made_up_words(tiny)
    with (tiny / "config.toml").open("a") as f:
        f.write('[lexicons.everyday]\nfrom = "csw"\nmax_scowl_level = 35\n')
    built = invoke("build", "--config", _config(tiny))
    assert built.exit_code == 2
    assert built.stderr.splitlines()[-1].startswith("error: lexicon 'everyday' holds no word once made")
