"""The session's one build of raw/ (tests/conftest.py, raw_build: through the CLI, into a temporary folder),
checked against facts of the real lists. Its definitions: test_end_to_end_definitions.py; the README's
commands run against it: test_end_to_end_readme.py."""

from __future__ import annotations

import json
import subprocess
import sys

import polars as pl
import pytest
from support.paths import DATA, ROOT
from pipeline.columns import SCHEMA_VERSION


def test_word_counts(raw_words):
    assert raw_words["in_csw"].sum() == 267_751
    assert raw_words["in_owl"].sum() == 178_691
    assert raw_words.filter(pl.col("in_owl") & ~pl.col("in_csw")).height == 0
    assert raw_words["id"].to_list() == list(range(raw_words.height))
    assert raw_words["word"].is_sorted()


def test_solver_links(raw_words):
    solver = raw_words.filter(pl.col("word") == "SOLVER")
    neighbours = raw_words[solver["links"][0].to_list()]["word"].to_list()
    assert neighbours == ["SALVER", "SILVER", "SOEVER", "SOLDER", "SOLLER", "SOLVED", "SOLVES", "WOLVER"]


def test_published_rareness(raw_words):
    got = dict(
        raw_words.filter(
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


def test_links_symmetric_and_groups_numbered_by_first_word(raw_words):
    pairs = raw_words.select("id", "links").explode("links").drop_nulls()
    reverse = pairs.select(pl.col("links").alias("id"), pl.col("id").alias("links"))
    assert pairs.sort("id", "links").equals(reverse.sort("id", "links"))
    for column in ("group_csw", "group_owl", "group_csw_edit", "group_owl_edit"):
        first_seen = raw_words[column].drop_nulls().unique(maintain_order=True)
        assert first_seen.to_list() == list(range(len(first_seen))), column


def test_manifest_matches_files(raw_export, raw_words):
    import hashlib

    manifest = json.loads((raw_export / "manifest.json").read_text())
    assert manifest["schema_version"] == SCHEMA_VERSION
    for name, entry in manifest["files"].items():
        assert hashlib.sha256((raw_export / name).read_bytes()).hexdigest() == entry["sha256"]
    assert manifest["counts"]["words"] == raw_words.height
    assert manifest["inputs"]["raw/lexicons/sowpods.txt"]["size"] == (ROOT / "raw/lexicons/sowpods.txt").stat().st_size
    groups = pl.read_parquet(raw_export / "groups.parquet")
    assert groups.filter((pl.col("lexicon") == "csw") & (pl.col("mode") == "sub"))["size"].sum() == raw_words.height


def test_export_verifies(raw_export):
    from ladders.artifact.verify import verify

    assert verify(raw_export) == []


@pytest.mark.parametrize("lexicon, edit", [("csw", False), ("owl", True)])
def test_solver_on_random_pairs_of_the_largest_group(raw_export, raw_words, lexicon, edit):
    import random

    from support import brute
    from ladders.solve.solver import Ladders, group_column

    column = group_column(lexicon, edit)
    largest = raw_words[column].drop_nulls().value_counts().sort("count", descending=True)[column][0]
    group = raw_words.filter(pl.col(column) == largest)
    ids = set(group["id"].to_list())
    names = dict(zip(group["id"], group["word"]))
    lists = ["links", "edit_links"] if edit else ["links"]
    adjacent = {
        names[i]: {names[j] for c in lists for j in row[c] if j in ids}
        for i, row in zip(group["id"], group.select(lists).iter_rows(named=True))
    }
    weight = dict(zip(group["word"], group["rareness"]))
    # The common ladder's cost as the README states it: 1 for an everyday word (level up to 35), 5 for an
    # uncommon one (up to 50), else the rareness.
    cost = {
        w: 1 if lv is not None and lv <= 35 else 5 if lv is not None and lv <= 50 else r
        for w, lv, r in group.select("word", "scowl_level", "rareness").rows()
    }
    ladders = Ladders.open(raw_export)
    rng = random.Random(2)
    for _ in range(5):
        a, b = rng.sample(sorted(adjacent), 2)
        shortest, common = ladders.shortest(a, b, lexicon, edit, seed=1), ladders.common(a, b, lexicon, edit, seed=1)
        assert (shortest.steps, shortest.rareness) == brute.least_rare_shortest(adjacent, weight, a, b)[:2]
        triple = (common.cost, common.steps, common.rareness)
        assert triple == brute.dijkstra_triple(adjacent, cost, weight, a)[b]
        for ladder in (shortest, common):
            assert all(v in adjacent[u] for u, v in zip(ladder.words, ladder.words[1:]))


def test_sqlite_solves_like_parquet(raw_export):
    from ladders.solve.solver import Ladders
    from support.brute import sql_shortest

    assert (
        sql_shortest(raw_export / "ladder.sqlite", "COLD", "WARM")
        == Ladders.open(raw_export).shortest("COLD", "WARM").steps
        == 4
    )


def _csw_adjacency(words: pl.DataFrame, length: int) -> dict[str, set[str]]:
    """CSW substitution links among words of one length, read from the word column alone (brute force)."""
    from support import brute

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
def test_longest_ladders_of_short_words_equal_bfs_from_every_word(raw_export, raw_words, length):
    from support import brute

    adjacent = _csw_adjacency(raw_words, length)
    far = {w: brute.distances(adjacent, w) for w in adjacent}
    diameter = max(max(d.values()) for d in far.values())
    first = min((a, b) for a, d in far.items() for b, steps in d.items() if a < b and steps == diameter)
    longest = (
        pl.read_parquet(raw_export / "longest.parquet")
        .filter((pl.col("lexicon") == "csw") & (pl.col("mode") == "sub") & (pl.col("length") == length))
        .sort("diameter", "group_id", descending=[True, False])
    )
    assert (longest["diameter"][0], longest["start"][0], longest["end"][0]) == (diameter, *first)


@pytest.mark.parametrize("a, b", [("CAT", "DOG"), ("COLD", "WARM")])
def test_shortest_ladder_counts_of_classic_pairs_equal_bfs(raw_export, raw_words, a, b):
    from support import brute

    expected = brute.count_shortest(_csw_adjacency(raw_words, len(a)), a, b)
    counted = subprocess.run(
        [sys.executable, "-m", "pipeline", "solve", a, b, "--count-only", "--export", str(raw_export)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert counted.returncode == 0 and int(counted.stdout) == expected


def test_puzzles_on_raw_are_exactly_n_steps(raw_export, raw_words):
    import json

    from support import brute

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
            str(raw_export),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert drawn.returncode == 0, drawn.stderr
    # Puzzles are for families by default: brute force on the words flagged at neither level. With
    # --common both ends are everyday (a main-list SCOWL level of 35 or below), and so is a par ladder.
    adjacent = _csw_adjacency(raw_words.filter(~pl.col("offensive") & ~pl.col("vulgar_sense")), 5)
    level = dict(raw_words.select("word", "scowl_level").rows())
    for p in json.loads(drawn.stdout)["puzzles"]:
        assert brute.distances(adjacent, p["start"])[p["end"]] == 7
        assert p["ladders"] == brute.count_shortest(adjacent, p["start"], p["end"]) and p["all_common"]
        assert level[p["start"]] is not None and level[p["start"]] <= 35 and level[p["end"]] <= 35
        everyday = {w: {u for u in ns if level[u] is not None and level[u] <= 35} for w, ns in adjacent.items()}
        assert brute.distances(everyday, p["start"])[p["end"]] == 7


def test_reference_recall_on_raw(raw_words):
    """tests/data/offensive_reference.tsv, judged by hand: at least 95% of its slurs and obscenities present
    in raw/ are offensive (and of those drawn from NASPA's decisions), none of its dual-use words is
    offensive, and none of the words it judges clean is flagged at either level."""
    reference = pl.read_csv(DATA / "offensive_reference.tsv", separator="\t", comment_prefix="#")
    got = reference.join(raw_words.select("word", "offensive", "vulgar_sense"), on="word")
    slurs, dual, clean = (got.filter(pl.col("level") == level) for level in ("offensive", "vulgar_sense", "clean"))
    assert slurs.height == reference.filter(pl.col("level") == "offensive").height  # all in raw/'s CSW
    assert slurs["offensive"].mean() >= 0.95, slurs.filter(~pl.col("offensive"))["word"].to_list()
    naspa = slurs.filter(pl.col("origin").str.contains("naspa: "))
    assert naspa.height >= 300 and naspa["offensive"].mean() >= 0.95
    assert not dual["offensive"].any(), dual.filter(pl.col("offensive"))["word"].to_list()
    assert not (clean["offensive"] | clean["vulgar_sense"]).any(), clean.filter("offensive")["word"].to_list()
    assert not (raw_words["offensive"] & raw_words["vulgar_sense"]).any()


def test_family_play_follows_naspa_on_raw(raw_words):
    """At most 5 words NASPA's school list keeps (a slice of NSWL2023, tests/data/naspa_school_kept.txt) are
    offensive; the dual-use words NASPA kept are vulgar_sense; words whose everyday sense is the only one a
    player meets are not offensive (DYKING "enclose with a dike", CHINKY "full of chinks", BLUEGUMS)."""
    lines = (DATA / "naspa_school_kept.txt").read_text().splitlines()
    kept = [w for w in lines if w and not w.startswith("#")]
    flagged = raw_words.filter(pl.col("word").is_in(kept) & pl.col("offensive"))["word"].to_list()
    assert len(flagged) <= 5, flagged
    level = {
        w: "offensive" if o else "vulgar_sense" if v else "clean"
        for w, o, v in raw_words.select("word", "offensive", "vulgar_sense").rows()
    }
    assert {level[w] for w in ("KAFFIR", "SAMBO", "GOOK", "KRAUT", "DYKE", "BITCH", "CHINKY", "TITTIE", "REDLEG")} == {
        "vulgar_sense"
    }
    assert {level[w] for w in ("DYKING", "DYKED", "MUNTING", "BLUEGUM", "BLUEGUMS")} == {"clean"}


@pytest.mark.parametrize("flags", [["--no-clean"], ["--clean"], ["--strict"], []])
def test_clean_levels_route_around_a_flagged_middle_word_on_raw(raw_export, flags):
    """FACT FART FARM is the only two-step ladder (FART offensive); LOCK COCK CORK the only two-step one
    through COCK (vulgar_sense): --clean takes the first detour only, --strict and the default both."""
    import json

    def shortest(a: str, b: str) -> list[str]:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pipeline",
                "solve",
                a,
                b,
                "--json",
                "--seed",
                "1",
                "--export",
                str(raw_export),
                *flags,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        return [w["word"] for w in json.loads(done.stdout)["shortest"]["words"]]

    fact, lock = shortest("fact", "farm"), shortest("lock", "cork")
    every, clean = flags == ["--no-clean"], flags == ["--clean"]
    assert fact == ["FACT", "FART", "FARM"] if every else ("FART" not in fact and len(fact) == 4)
    assert lock == ["LOCK", "COCK", "CORK"] if every or clean else ("COCK" not in lock and len(lock) == 4)


def test_one_stage_at_a_time_builds_the_same_bytes(raw_export, tmp_path):
    """The build above ran stages side by side (-j 2); one after another they write the same files."""
    from conftest import snapshot

    cmd = [sys.executable, "-m", "pipeline", "build", "--quiet", "-j", "1", "--build-dir", str(tmp_path)]
    assert subprocess.run(cmd, cwd=ROOT, capture_output=True).returncode == 0
    ours = {k: v for k, v in snapshot(tmp_path).items() if k.startswith(("0", "export/"))}
    theirs = {k: v for k, v in snapshot(raw_export.parent).items() if k.startswith(("0", "export/"))}
    assert len(ours) > 10 and ours == theirs


def test_changes_md_of_a_changed_rareness_table(raw_export, raw_words, tmp_path):
    """CHANGES.md between the raw/ build and the same inputs with SCOWL level 35 worth 3 instead of 4 (a copy
    of the build folder, so only stages 3, 5 and the export run again): exactly the level-35 words change
    rareness, 4 -> 3; nothing else changes, labels included (they follow levels, not rareness)."""
    import shutil

    from ladders.artifact.diff import changes_markdown

    copy = tmp_path / "build"
    shutil.copytree(raw_export.parent, copy, symlinks=True)
    (tmp_path / "rareness.toml").write_text("[rareness_by_level]\n35 = 3\n")
    cmd = [sys.executable, "-m", "pipeline", "build", "--quiet", "--config", str(tmp_path / "rareness.toml")]
    done = subprocess.run([*cmd, "--build-dir", str(copy)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    ran = {line.split()[1] for line in done.stderr.splitlines() if line.rstrip().endswith(" ran")}
    # groups reads rareness (a lexicon's SCOWL filter) and runs again; its table is the same, so analysis does not
    assert ran == {"rareness", "groups", "export"}, done.stderr
    changes = changes_markdown(raw_export, copy / "export")
    lines = changes.splitlines()
    level35 = raw_words.filter(pl.col("scowl_level") == 35).sort("word")["word"].to_list()
    assert len(level35) > 1000 and set(raw_words.filter(pl.col("scowl_level") == 35)["rareness"]) == {4}
    shown = ", ".join(f"{w} 4 -> 3" for w in level35[:5])
    assert f"- rareness changed: {len(level35):,}: {shown}; {len(level35) - 5:,} more" in lines, changes
    for line in ("- labels changed: 0", "- flags changed: 0", "- definitions changed: 0", "- added: 0", "- removed: 0"):
        assert line in lines, changes
    assert all(row.endswith("| +0 |") for row in lines if row.startswith("| ") and not row.startswith("| |"))
    assert [line for line in lines if line.startswith("- csw ") or line.startswith("- owl ")] == [
        f"- {lexicon} {kind}: 0" for lexicon in ("csw", "owl") for kind in ("added", "removed")
    ]
    print(changes)  # quoted in the closing note (pytest -s shows it)


# The common-word rule on raw/ (issue 44): everyday takes wordfreq too, and an uncommon word costs 5 steps.
COMMON_ON_RAW = [
    ("bread", "toast", "BREAD BREAK BLEAK BLEAT BLEST BLAST BOAST TOAST"),  # not 16 everyday steps
    ("moon", "star", "MOON MOAN MEAN MEAT SEAT SEAR STAR"),  # not through SOOK (Australian slang)
    ("tide", "wave", "TIDE WIDE WADE WAVE"),  # not through WIVE (wordfreq rarely sees it)
    ("sheep", "goats", "SHEEP SLEEP SLEET FLEET FLEES FLIES FLIPS CLIPS CHIPS CHAPS CHATS COATS GOATS"),  # no FRATS
]


@pytest.mark.parametrize("start, end, ladder", COMMON_ON_RAW, ids=[f"{a}-{b}" for a, b, _ in COMMON_ON_RAW])
def test_the_common_word_ladder_on_raw_is_the_one_the_panel_accepted(raw_export, start, end, ladder):
    from ladders.solve.solver import Ladders

    assert " ".join(Ladders.open(raw_export).common(start, end, seed=0, clean="strict").words) == ladder
