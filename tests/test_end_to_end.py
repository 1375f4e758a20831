"""One full build of raw/ into a temporary folder, through the CLI, checked against facts of the real lists."""

from __future__ import annotations

import json
import subprocess
import sys

import polars as pl
import pytest

from conftest import ROOT
from pipeline.artifact.contract import SCHEMA_VERSION

pytestmark = pytest.mark.slow  # `make test-fast` leaves this file out; make test runs it on one worker


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    build_dir = tmp_path_factory.mktemp("raw_build")
    cmd = [sys.executable, "-m", "pipeline", "build", "--quiet", "-j", "2", "--build-dir", str(build_dir)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    status = subprocess.run(
        [sys.executable, "-m", "pipeline", "status", "--build-dir", str(build_dir)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert status.returncode == 0 and status.stdout.count(" fresh") == 7, status.stdout
    return build_dir / "export"


@pytest.fixture(scope="module")
def words(export):
    return pl.read_parquet(export / "words.parquet")


def test_word_counts(words):
    assert words["in_csw"].sum() == 267_751
    assert words["in_owl"].sum() == 178_691
    assert words.filter(pl.col("in_owl") & ~pl.col("in_csw")).height == 0
    assert words["id"].to_list() == list(range(words.height))
    assert words["word"].is_sorted()


def test_solver_links(words):
    solver = words.filter(pl.col("word") == "SOLVER")
    neighbours = words[solver["links"][0].to_list()]["word"].to_list()
    assert neighbours == ["SALVER", "SILVER", "SOEVER", "SOLDER", "SOLLER", "SOLVED", "SOLVES", "WOLVER"]


def test_published_rareness(words):
    got = dict(
        words.filter(
            pl.col("word").is_in(["SILVER", "SOLVED", "SOLVES", "SOLDER", "SALVER", "SOEVER", "WOLVER", "SOLLER"])
        )
        .select("word", "rareness")
        .rows()
    )
    assert got == {
        "SILVER": 1,
        "SOLVED": 1,
        "SOLVES": 1,
        "SOLDER": 4,
        "SALVER": 200,
        "SOEVER": 20_000,
        "WOLVER": 200_000,
        "SOLLER": 2_000_001,
    }


def test_links_symmetric_and_groups_numbered_by_first_word(words):
    pairs = words.select("id", "links").explode("links").drop_nulls()
    reverse = pairs.select(pl.col("links").alias("id"), pl.col("id").alias("links"))
    assert pairs.sort("id", "links").equals(reverse.sort("id", "links"))
    for column in ("group_csw", "group_owl", "group_csw_edit", "group_owl_edit"):
        first_seen = words[column].drop_nulls().unique(maintain_order=True)
        assert first_seen.to_list() == list(range(len(first_seen))), column


def test_manifest_matches_files(export, words):
    import hashlib

    manifest = json.loads((export / "manifest.json").read_text())
    assert manifest["schema_version"] == SCHEMA_VERSION
    for name, entry in manifest["files"].items():
        assert hashlib.sha256((export / name).read_bytes()).hexdigest() == entry["sha256"]
    assert manifest["counts"]["words"] == words.height
    assert manifest["inputs"]["raw/lexicons/sowpods.txt"]["size"] == (ROOT / "raw/lexicons/sowpods.txt").stat().st_size
    groups = pl.read_parquet(export / "groups.parquet")
    assert groups.filter((pl.col("lexicon") == "csw") & (pl.col("mode") == "sub"))["size"].sum() == words.height


# What a player must never read in a definition (issue cases: GCIDE's markup and notes, a base of one
# letter, an inflection shown with a sense of another part of speech, a guessed compound).
NEVER = {
    "dictd markup or citations": r"[{}\\]|\[1913|--[A-Z]|\[Obs",
    "a part-of-speech list left over": r"^& |^[a-z]\. & ",
    "a plural note": r"^pl\. |: pl\. ",
    "only a pointer elsewhere": r"^(?:See|Same as) ",
    "a sense number": r"(?:^|: |/ )\d{1,2}\. ",
    "a one-letter base": r"\b(?:of|\+) [A-Z](?:: |$| \[| \+)",
    "a guessed compound": r"^compound of ",
}
# An inflection shows its base's sense under that sense's own part of speech, which must be the one the
# inflection implies.
RETAGGED = (
    r"^(?:plural of [A-Z]+: .*\[(?:v|adj|adv)\]$"
    r"|(?:past tense|present participle|present tense) of [A-Z]+: .*\[(?:n|adj|adv)\]$"
    r"|(?:comparative|superlative) of [A-Z]+: .*\[(?:n|v)\]$)"
)


@pytest.mark.parametrize("what", sorted(NEVER))
def test_no_definition_holds(words, what):
    bad = words.filter(pl.col("definition").str.contains(NEVER[what]))
    assert bad.height == 0, bad.select("word", "definition").head(5).rows()


def test_definitions_are_short_balanced_and_never_retagged(words):
    text = pl.col("definition")
    assert words.filter(text.str.len_chars() > 300).height == 0
    unbalanced = words.filter(text.str.count_matches(r"\(") != text.str.count_matches(r"\)"))
    assert unbalanced.height == 0, unbalanced.select("word", "definition").head(5).rows()
    # Only an inflection's own text is checked: an irregular form's second sense (after ` / `) is its own.
    first = words.select("word", text.str.split(" / ").list.first().alias("first"), "definition_source").filter(
        pl.col("definition_source").str.ends_with("-inflection")
    )
    retagged = first.filter(pl.col("first").str.contains(RETAGGED))
    assert retagged.height == 0, retagged.head(5).rows()


def test_definition_coverage_and_kinds(export, words):
    """Coverage after the precision rework (issue targets: 70% of all words, 98.5% of SCOWL <= 50), and the
    manifest's counts by kind agree with the words."""
    defined = words["definition"].is_not_null()
    assert defined.mean() >= 0.70
    common = words.filter(pl.col("scowl_level") <= 50)
    assert common["definition"].is_not_null().mean() >= 0.985
    made = json.loads((export / "manifest.json").read_text())["counts"]["definitions_made"]
    assert sum(made["by_kind"].values()) == sum(made["by_source"].values()) == defined.sum()
    assert set(made["by_kind"]) == {"own list", "headword", "inflection", "derivation"}


def test_export_verifies(export):
    from pipeline.artifact.verify import verify

    assert verify(export) == []


@pytest.mark.parametrize("lexicon, edit", [("csw", False), ("owl", True)])
def test_solver_on_random_pairs_of_the_largest_group(export, words, lexicon, edit):
    import random

    import brute
    from pipeline.solve.solver import Ladders, group_column

    column = group_column(lexicon, edit)
    largest = words[column].drop_nulls().value_counts().sort("count", descending=True)[column][0]
    group = words.filter(pl.col(column) == largest)
    ids = set(group["id"].to_list())
    names = dict(zip(group["id"], group["word"]))
    lists = ["links", "edit_links"] if edit else ["links"]
    adjacent = {
        names[i]: {names[j] for c in lists for j in row[c] if j in ids}
        for i, row in zip(group["id"], group.select(lists).iter_rows(named=True))
    }
    weight = dict(zip(group["word"], group["rareness"]))
    ladders = Ladders.open(export)
    rng = random.Random(2)
    for _ in range(5):
        a, b = rng.sample(sorted(adjacent), 2)
        shortest, common = ladders.shortest(a, b, lexicon, edit, seed=1), ladders.common(a, b, lexicon, edit, seed=1)
        assert shortest.steps == brute.distances(adjacent, a)[b]
        assert (common.cost, common.steps) == brute.dijkstra(adjacent, weight, a)[b]
        for ladder in (shortest, common):
            assert all(v in adjacent[u] for u, v in zip(ladder.words, ladder.words[1:]))


def test_sqlite_solves_like_parquet(export):
    from pipeline.solve.solver import Ladders
    from test_solver import sql_shortest

    assert (
        sql_shortest(export / "ladder.sqlite", "COLD", "WARM")
        == Ladders.open(export).shortest("COLD", "WARM").steps
        == 4
    )


def _csw_adjacency(words: pl.DataFrame, length: int) -> dict[str, set[str]]:
    """CSW substitution links among words of one length, read from the word column alone (brute force)."""
    import brute

    listed = words.filter(pl.col("in_csw") & (pl.col("length") == length))["word"].to_list()
    adjacent: dict[str, set[str]] = {w: set() for w in listed}
    by_pattern: dict[str, list[str]] = {}
    for w in listed:
        for i in range(length):
            by_pattern.setdefault(w[:i] + "*" + w[i + 1 :], []).append(w)
    for group in by_pattern.values():
        for a in group:
            adjacent[a].update(b for b in group if b != a and brute.one_substitution(a, b))
    return adjacent


@pytest.mark.parametrize("length", [2, 3])
def test_longest_ladders_of_short_words_equal_bfs_from_every_word(export, words, length):
    import brute

    adjacent = _csw_adjacency(words, length)
    far = {w: brute.distances(adjacent, w) for w in adjacent}
    diameter = max(max(d.values()) for d in far.values())
    first = min((a, b) for a, d in far.items() for b, steps in d.items() if a < b and steps == diameter)
    longest = (
        pl.read_parquet(export / "longest.parquet")
        .filter((pl.col("lexicon") == "csw") & (pl.col("mode") == "sub") & (pl.col("length") == length))
        .sort("diameter", "group_id", descending=[True, False])
    )
    assert (longest["diameter"][0], longest["start"][0], longest["end"][0]) == (diameter, *first)


@pytest.mark.parametrize("a, b", [("CAT", "DOG"), ("COLD", "WARM")])
def test_shortest_ladder_counts_of_classic_pairs_equal_bfs(export, words, a, b):
    import brute

    expected = brute.count_shortest(_csw_adjacency(words, len(a)), a, b)
    counted = subprocess.run(
        [sys.executable, "-m", "pipeline", "solve", a, b, "--count-only", "--export", str(export)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert counted.returncode == 0 and int(counted.stdout) == expected


def test_puzzles_on_raw_are_exactly_n_steps(export, words):
    import json

    import brute

    drawn = subprocess.run(
        [
            sys.executable,
            "-m",
            "pipeline",
            "puzzle",
            "--length",
            "5",
            "--steps",
            "7",
            "--count",
            "3",
            "--seed",
            "4",
            "--common",
            "--json",
            "--export",
            str(export),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert drawn.returncode == 0, drawn.stderr
    # Puzzles are clean by default: brute force on the words that are not offensive.
    adjacent = _csw_adjacency(words.filter(~pl.col("offensive")), 5)
    for p in json.loads(drawn.stdout)["puzzles"]:
        assert brute.distances(adjacent, p["start"])[p["end"]] == 7
        assert p["ladders"] == brute.count_shortest(adjacent, p["start"], p["end"]) and p["all_common"]


def test_reference_recall_on_raw(words):
    """tests/data/offensive_reference.tsv, written by hand: at least 95% of its slurs and obscenities present
    in raw/ are offensive, and none of its dual-use everyday words is."""
    reference = pl.read_csv(ROOT / "tests/data/offensive_reference.tsv", separator="\t", comment_prefix="#")
    got = reference.join(words.select("word", "offensive", "vulgar_sense"), on="word")
    slurs, dual = (got.filter(pl.col("level") == level) for level in ("offensive", "vulgar_sense"))
    assert slurs.height == reference.filter(pl.col("level") == "offensive").height  # all in raw/'s CSW
    assert slurs["offensive"].mean() >= 0.95, slurs.filter(~pl.col("offensive"))["word"].to_list()
    assert not dual["offensive"].any(), dual.filter(pl.col("offensive"))["word"].to_list()
    assert not (words["offensive"] & words["vulgar_sense"]).any()


@pytest.mark.parametrize("flags", [[], ["--clean"], ["--strict"]])
def test_clean_levels_route_around_a_flagged_middle_word_on_raw(export, flags):
    """CROP CRAP WRAP is the only two-step ladder (CRAP offensive); LOCK COCK CORK the only two-step one
    through COCK (vulgar_sense): --clean takes the first detour only, --strict both."""
    import json

    def shortest(a: str, b: str) -> list[str]:
        done = subprocess.run(
            [sys.executable, "-m", "pipeline", "solve", a, b, "--json", "--seed", "1", "--export", str(export), *flags],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        return [w["word"] for w in json.loads(done.stdout)["shortest"]["words"]]

    crop, lock = shortest("crop", "wrap"), shortest("lock", "cork")
    assert crop == ["CROP", "CRAP", "WRAP"] if not flags else ("CRAP" not in crop and len(crop) == 4)
    assert lock == ["LOCK", "COCK", "CORK"] if flags != ["--strict"] else ("COCK" not in lock and len(lock) == 4)


def readme_commands(section: str) -> list[str]:
    """The `.venv/bin/ladders solve|puzzle` lines of a README section's shell blocks, comments cut."""
    text = (ROOT / "README.md").read_text().split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    blocks = [b.split("```", 1)[0] for b in text.split("```sh\n")[1:]]
    return [
        line.split(" #", 1)[0].strip()
        for b in blocks
        for line in b.splitlines()
        if line.startswith((".venv/bin/ladders solve", ".venv/bin/ladders puzzle"))
    ]


def test_each_readme_solve_and_puzzle_example_works_as_written(export):
    import shlex

    examples = readme_commands("Solving a ladder")
    assert len(examples) >= 8
    for line in examples:
        args = shlex.split(line)[1:] + ["--build-dir", str(export.parent)]  # the test's build of raw/
        done = subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout and not done.stderr, (line, done.stderr)
        if "--count-only" in args:
            assert done.stdout.strip() == "7"  # as its comment says


def test_every_definition_source_is_one_stage_2s_docstring_names(words):
    import re

    import stages.s02_definitions

    doc = " ".join(stages.s02_definitions.__doc__.split())
    sources = set(words["definition_source"].drop_nulls().unique())
    assert sources and all(
        re.fullmatch(r"(csw|owl|supplement|wordnet|gcide)(-link|-inflection|-derived)?", s) for s in sources
    ), sources
    for s in sources:
        base, _, how = s.partition("-")
        assert f"`{base}`" in doc and (not how or f"`-{how}`" in doc or f"`<source>-{how}`" in doc), s


def test_one_stage_at_a_time_builds_the_same_bytes(export, tmp_path):
    """The build above ran stages side by side (-j 2); one after another they write the same files."""
    from conftest import snapshot

    cmd = [sys.executable, "-m", "pipeline", "build", "--quiet", "-j", "1", "--build-dir", str(tmp_path)]
    assert subprocess.run(cmd, cwd=ROOT, capture_output=True).returncode == 0
    ours = {k: v for k, v in snapshot(tmp_path).items() if k.startswith(("0", "export/"))}
    theirs = {k: v for k, v in snapshot(export.parent).items() if k.startswith(("0", "export/"))}
    assert len(ours) > 10 and ours == theirs


# ---- issue 38: the README's command blocks, run as a newcomer would, against this build ----------------

# README lines not run here, each with why: they rebuild raw/ (minutes), delete it, need a licensed list,
# a database server or stay up serving (tests/test_sql.py and tests/test_web.py run those parts).
NOT_RUN = {
    "make build": "the build above is the same command with a temporary --build-dir",
    "make test": "this is it",
    "mysql -e 'CREATE DATABASE ladders CHARACTER SET utf8mb4' && mysql ladders < build/ladder-mysql.sql": "make test-sql",
    "php solvers/php/ladder.php --socket=/run/mysqld/mysqld.sock --db=ladders cold warm": "make test-sql",
    "python3 -m http.server -d site --bind 127.0.0.1 8000": "make test-web serves the page the same way",
    ".venv/bin/ladders build --force": "a second cold build of raw/: minutes",
    "make clean": "would delete the build the other tests of this file read",
    ".venv/bin/ladders build --config my-lists.toml --build-dir build-csw21": "needs licensed lists",
    ".venv/bin/ladders build --config my-lists.toml --build-dir build-csw21 --lenient": "needs licensed lists",
    "_RJEM_MALLOC_CONF=dirty_decay_ms:0,muzzy_decay_ms:0 .venv/bin/ladders build -j 1": "make bench measures it",
}


def readme_command_lines() -> list[str]:
    """Every command line of the README's ```sh blocks (and its indented one), comments cut."""
    import re

    text = (ROOT / "README.md").read_text()
    lines = [line for block in re.findall(r"```sh\n(.*?)```", text, re.S) for line in block.splitlines()]
    lines += re.findall(r"^    (_RJEM\S+ .+)$", text, re.M)
    return [re.sub(r"\s+#.*$", "", line).strip() for line in lines if line.strip()]


def test_every_readme_command_runs_and_its_numbers_hold(export, tmp_path):
    import shlex
    import shutil

    build_dir, site, old = export.parent, tmp_path / "site", tmp_path / "old-export"
    places = {"build/export": str(export), "old-export": str(old), "site": str(site)}
    ran = {}
    lines = readme_command_lines()
    assert set(NOT_RUN) <= set(lines)  # each line left out is still in the README
    for line in lines:
        if line in NOT_RUN:
            continue
        if line.startswith("cp -r build/export old-export"):
            shutil.copytree(export, old)
            continue
        words = shlex.split(line)
        if words[0] == "make":  # make verify, make links: thin wrappers, as the Makefile spells them
            words = {"verify": ["verify"], "links": ["run", "links", "--force"]}[words[1]]
        else:
            assert words[0] == ".venv/bin/ladders", f"a README command this test does not know: {line}"
            words = [places.get(w, w) for w in words[1:]]
        if words[0] != "diff":
            words += ["--build-dir", str(build_dir)]
        done = subprocess.run([sys.executable, "-m", "pipeline", *words], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0, f"{line}: {done.stderr}"
        ran[line] = done.stdout
    assert ran[".venv/bin/ladders solve cold warm --count-only"] == "7\n"  # "(7)"
    assert ran[".venv/bin/ladders solve --all cold warm --limit 20"].startswith("7 shortest ladders of 4 steps:")
    assert "COCK" not in ran[".venv/bin/ladders solve lock cork --strict"]
    assert len(ran[".venv/bin/ladders puzzle --length 5 --steps 7 --common --count 3 --seed 1"].splitlines()) == 3
    # The page's numbers: 122 buckets, a manifest of about 20 KB, 37 MB of files and 12 MB of gzip copies.
    assert len(list((site / "data/b").glob("*.json"))) == 122
    assert 15_000 < (site / "data/manifest.json").stat().st_size < 25_000
    files = [p for p in site.rglob("*") if p.is_file() and p.name != ".ladders-web"]
    assert round(sum(p.stat().st_size for p in files if p.suffix != ".gz") / 1e6) == 37
    assert round(sum(p.stat().st_size for p in files if p.suffix == ".gz") / 1e6) == 12
    assert (build_dir / "ladder-mysql.sql").is_file()
