"""The solver against brute force, the SQLite file, the CLI's answers and refusals, verify and diff."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import subprocess
import sys

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from support import brute
from support.paths import DATA
from pipeline.columns import SCHEMA_VERSION
from ladders.cli import app
from ladders.solve.question import LengthsDiffer, NoLadder, SameWord, SolveError, UnknownWord
from ladders.solve.solver import Ladders
from ladders.artifact.verify import verify
from support.exports import LABELS, TABLE, write_export

cli = CliRunner()


def adjacency(words: list[str], edit: bool) -> dict[str, set[str]]:
    kinds = {"sub", "indel"} if edit else {"sub"}
    adjacent: dict[str, set[str]] = {w: set() for w in words}
    for a, b, kind in brute.links(words):
        if kind in kinds:
            adjacent[a].add(b)
            adjacent[b].add(a)
    return adjacent


def check_answer(
    ladders: Ladders, words: list[str], weight: dict[str, int], a: str, b: str, lexicon: str, edit: bool, seed: int
) -> None:
    adjacent = adjacency(words, edit)
    shortest = ladders.shortest(a, b, lexicon, edit, seed)
    common = ladders.common(a, b, lexicon, edit, seed)
    for ladder in (shortest, common):
        assert ladder.words[0] == a and ladder.words[-1] == b
        assert all(w in adjacent for w in ladder.words)  # every rung is a word of the lexicon
        assert all(v in adjacent[u] for u, v in zip(ladder.words, ladder.words[1:]))  # each step one link
        assert [r.rareness for r in ladder.rungs] == [weight[w] for w in ladder.words]
    steps, least, ties = brute.least_rare_shortest(adjacent, weight, a, b)
    assert (shortest.steps, shortest.rareness, shortest.count) == (steps, least, ties)
    # The rule as the README states it: an everyday word 1, an uncommon one 5, any other its rareness.
    uncommon = TABLE[str(LABELS["uncommon"])]
    cost = {w: 1 if r <= TABLE[str(LABELS["common"])] else 5 if r <= uncommon else r for w, r in weight.items()}
    triple = brute.least_triple(adjacent, cost, weight, a)[b]
    assert (common.cost, common.steps, common.rareness) == triple
    count, listed = ladders.all_shortest(a, b, lexicon, edit, limit=1000)
    assert count == brute.count_shortest(adjacent, a, b) == len({tuple(x.words) for x in listed})


word = st.text(alphabet="abc", min_size=2, max_size=4)
dictionary = st.lists(
    st.tuples(word, st.booleans(), st.sampled_from([10, 35, 50, 60, 80, 0])),
    min_size=2,
    max_size=30,
    unique_by=lambda t: t[0],
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(dictionary, st.booleans(), st.booleans(), st.integers(0, 1000))
def test_solver_matches_brute_force(tmp_path, entries, owl_only, edit, seed):
    csw = [w.upper() for w, _, _ in entries]
    owl = [w.upper() for w, in_owl, _ in entries if in_owl] or csw[:1]
    levels = {w.upper(): lv for w, _, lv in entries if lv}
    folder = write_export(tmp_path / f"e{seed}", csw, owl, levels)
    ladders = Ladders.open(folder)
    lexicon, words = ("owl", owl) if owl_only else ("csw", csw)
    weight = {w: TABLE[str(levels[w])] if w in levels else TABLE["absent"] for w in words}
    rng = random.Random(seed)
    reachable = brute.distances(adjacency(words, edit), words[0])
    targets = [w for w in reachable if w != words[0]]
    if targets:
        check_answer(ladders, words, weight, words[0], rng.choice(targets), lexicon, edit, seed)
    unreachable = [w for w in words if w not in reachable and (edit or len(w) == len(words[0]))]
    if unreachable:
        with pytest.raises(NoLadder):
            ladders.shortest(words[0], unreachable[0], lexicon, edit)


def tiny_listed(name: str) -> list[str]:
    lines = (DATA / "tiny" / name).read_text().upper().splitlines()
    return sorted({w for w in lines if w and not w.startswith("#")})


@pytest.fixture(scope="module")
def tiny_export(tmp_path_factory):
    csw, owl = tiny_listed("csw.txt"), tiny_listed("owl.txt")
    levels = {"CAT": 10, "COT": 60, "DOT": 10, "DOG": 10, "COG": 35}
    return write_export(tmp_path_factory.mktemp("tiny") / "export", csw, owl, levels)


def test_ties_are_drawn_reproducibly(tiny_export):
    ladders = Ladders.open(tiny_export)
    assert ladders.shortest("CAT", "DOG", seed=5).words == ladders.shortest("CAT", "DOG", seed=5).words
    assert ladders.shortest("cat", "Dog").words[::3] == ["CAT", "DOG"]  # mixed case is fine
    count, found = ladders.all_shortest("CAT", "DOG")
    assert count == 2 and sorted(f.words for f in found) == [["CAT", "COT", "COG", "DOG"], ["CAT", "COT", "DOT", "DOG"]]
    # DOT and DOG are common (level 10), COG less so (35): the common ladder avoids COG.
    assert ladders.common("CAT", "DOG").words == ["CAT", "COT", "DOT", "DOG"]


def test_refusals(tiny_export):
    ladders = Ladders.open(tiny_export)
    with pytest.raises(UnknownWord, match="CAX is not in the CSW word list; did you mean CAT?"):
        ladders.shortest("CAX", "DOG")
    with pytest.raises(UnknownWord, match="COT is not in the OWL word list"):
        ladders.shortest("COT", "DOG", lexicon="owl")
    with pytest.raises(LengthsDiffer, match="CAT has 3 letters and CATS has 4: .* --edit"):
        ladders.shortest("CAT", "CATS")
    assert ladders.shortest("CAT", "CATS", edit=True).words == ["CAT", "CATS"]
    with pytest.raises(
        NoLadder,
        match=r"no ladder: BARK \(a group of 1 word\) and COLD \(a group of 2 words\) "
        r"are in different groups",
    ):
        ladders.shortest("BARK", "COLD")
    with pytest.raises(SameWord):
        ladders.shortest("CAT", "cat")


@pytest.mark.parametrize(
    "args, code, message",
    [
        (["CAX", "DOG"], 10, "error: CAX is not in the CSW word list; did you mean CAT?"),
        (["", "DOG"], 10, "error: an empty word is not a word"),
        (["C4T", "DOG"], 10, "error: 'C4T' is not a word of letters A-Z"),
        (["x'; DROP TABLE words; --", "DOG"], 10, 'error: "x\'; DROP TABLE words; --" is not a word of letters A-Z'),
        (["A" * 500, "DOG"], 10, "error: " + "A" * 40 + "... is not in the CSW word list"),
        (["A" * 30 + "!", "DOG"], 10, "error: '" + "A" * 30 + "!' is not a word of letters A-Z"),
        (
            ["CAT", "CATS"],
            11,
            "error: CAT has 3 letters and CATS has 4: no ladder by changing letters; "
            "--edit also inserts and deletes letters",
        ),
        (["CAT", "CAT"], 13, "error: CAT and CAT are the same word: a ladder needs two"),
        (["CAT", "DOG", "--lexicon", "xyz"], 2, "error: unknown lexicon 'xyz': this export holds csw, owl"),
        (
            ["CAT", "DOG", "--lexicon", "csw = 1; --\x1b[2J"],
            2,
            "error: unknown lexicon 'csw = 1; --\\x1b[2j': this export holds csw, owl",
        ),
    ],
)
def test_cli_refusals_are_one_line_with_their_exit_code(tiny_export, args, code, message):
    result = cli.invoke(app, ["solve", *args, "--export", str(tiny_export)])
    assert result.exit_code == code
    assert result.stderr == message + "\n"


def test_cli_solve_prints_both_ladders_and_json(tiny_export):
    result = cli.invoke(app, ["solve", "cat", "dog", "--export", str(tiny_export), "--seed", "1"])
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == "CAT -> DOG: CSW, letters changed; a group of 5 words"
    # The same words both ways, printed once; COT (rare) is the only way on from CAT: no everyday ladder.
    assert "\nShortest ladder, the least-rare ladder too: 3 steps, cost 20,003, rareness 20,003\n" in result.stdout
    assert "  CAT common           1  feline mammal usually having thick soft fur [n]" in result.stdout
    assert "  COT rare        20,000  (no definition)" in result.stdout  # SCOWL level 60
    assert "  DOG common           1  (no definition)" in result.stdout
    data = json.loads(cli.invoke(app, ["solve", "cat", "dog", "--export", str(tiny_export), "--json"]).stdout)
    assert data["group"] == {"column": "group_csw", "id": data["group"]["id"], "size": 5}
    assert [w["word"] for w in data["common"]["words"]] == ["CAT", "COT", "DOT", "DOG"]
    assert data["common"]["cost"] == 1 + 20_000 + 1 + 1
    # Two 3-step ladders; through DOT (level 10, rareness 1) is less rare than through COG (35, 4): no tie.
    assert data["shortest"]["ties"] == 1 and [w["word"] for w in data["shortest"]["words"]] == [
        "CAT",
        "COT",
        "DOT",
        "DOG",
    ]
    assert [w["label"] for w in data["common"]["words"]] == ["common", "rare", "common", "common"]
    listed = json.loads(
        cli.invoke(app, ["solve", "--all", "cat", "dog", "--export", str(tiny_export), "--json"]).stdout
    )
    assert listed["count"] == 2 and len(listed["ladders"]) == 2


def test_one_sql_query_per_group_answers_like_brute_force_on_the_word_list(tiny_export):
    con = sqlite3.connect(tiny_export / "ladder.sqlite")
    assert con.execute("PRAGMA user_version").fetchone() == (SCHEMA_VERSION,)
    expected = brute.distances(adjacency(tiny_listed("csw.txt"), False), "CAT")
    for end in ("DOG", "COT", "DOT"):
        assert brute.sql_shortest(tiny_export / "ladder.sqlite", "CAT", end) == expected[end]


def test_verify_passes_then_fails_with_codes_on_damage(tiny_export, tmp_path):
    assert verify(tiny_export) == []
    damaged = tmp_path / "damaged"
    shutil.copytree(tiny_export, damaged)
    words = pl.read_parquet(damaged / "words.parquet")
    words = words.with_columns(
        pl.when(pl.col("word") == "CAT").then(pl.lit([], dtype=pl.List(pl.UInt32))).otherwise("links").alias("links"),
        pl.when(pl.col("word") == "DOG").then(pl.lit(7, dtype=pl.UInt32)).otherwise("rareness").alias("rareness"),
    )
    words.write_parquet(damaged / "words.parquet")
    codes = {code for code, _, _ in verify(damaged)}
    # CAT's neighbours still list it, so groups hold; E108 finds the links that its patterns imply; E006
    # finds CAT's degree still counting the links it lost
    assert codes == {"E001", "E006", "E101", "E108", "E301", "E401"}
    regrouped = tmp_path / "regrouped"  # CAT moved out of its group: the groups no longer match the links
    shutil.copytree(tiny_export, regrouped)
    words = pl.read_parquet(regrouped / "words.parquet")
    words.with_columns(
        pl.when(pl.col("word") == "CAT").then(pl.lit(99, dtype=pl.UInt32)).otherwise("group_csw").alias("group_csw")
    ).write_parquet(regrouped / "words.parquet")
    assert {"E201", "E202", "E203"} <= {code for code, _, _ in verify(regrouped)}
    result = cli.invoke(app, ["verify", str(damaged)])
    assert result.exit_code == 1
    assert any(
        line.startswith("E301 rareness disagrees") and "DOG: level 10, rareness 7" in line
        for line in result.stdout.splitlines()
    )


def test_diff_explains_a_change(tmp_path):
    base = ["CAT", "COT", "DOT", "DOG", "COG", "CATS", "COLD", "CORD", "MICE"]
    old = write_export(tmp_path / "old", base, base, {"CAT": 10})
    new_words = [w for w in base if w != "MICE"] + ["COLT", "DOTE"]
    new = write_export(tmp_path / "new", new_words, base[:-1], {"CAT": 35})
    result = cli.invoke(app, ["diff", str(old), str(new)])
    assert result.exit_code == 1  # like diff(1): 1 when the exports differ
    assert cli.invoke(app, ["diff", str(old), str(old)]).exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "words csw: +2 -1; added COLT, DOTE; removed MICE"
    assert "links added: 3: COLD-COLT (sub), COLT-COT (indel), DOT-DOTE (indel)" in lines
    assert "  merged into CAT (10): CAT (6), COLD (2)" in lines  # COLT-COT joins the edit groups
    assert "rareness changed: 1: CAT 1 -> 4" in lines
    data = json.loads(cli.invoke(app, ["diff", str(old), str(new), "--json"]).stdout)
    assert data["groups"]["csw/sub"]["appeared"] == ["DOTE (1)"]
    assert data["groups"]["csw/sub"]["vanished"] == ["MICE (1)"]


def test_ties_are_drawn_uniformly(tmp_path):
    # CAT to DOG: three shortest ladders; one of them goes through CAG, the other two share COT.
    # Drawing the middle word uniformly would give the CAG ladder half the time instead of a third.
    words = ["CAT", "COT", "COG", "DOT", "DOG", "CAG"]
    ladders = Ladders.open(write_export(tmp_path / "e", words, words, {}))
    count, found = ladders.all_shortest("CAT", "DOG")
    assert count == 3 and sorted(f.words for f in found) == [
        ["CAT", "CAG", "COG", "DOG"],
        ["CAT", "COT", "COG", "DOG"],
        ["CAT", "COT", "DOT", "DOG"],
    ]
    for method in (ladders.shortest, ladders.common):  # all words are equally rare: the same three tie
        drawn = [tuple(method("CAT", "DOG", seed=seed).words) for seed in range(600)]
        shares = {ladder: drawn.count(ladder) / len(drawn) for ladder in set(drawn)}
        assert len(shares) == 3 and all(0.27 < share < 0.40 for share in shares.values()), shares


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(dictionary, st.integers(1, 4), st.integers(0, 1000))
def test_puzzles_are_pairs_exactly_n_steps_apart(tmp_path, entries, steps, seed):
    from ladders.solve.puzzle import difficulty, puzzles

    csw = [w.upper() for w, _, _ in entries]
    levels = {w.upper(): lv for w, _, lv in entries if lv}
    ladders = Ladders.open(write_export(tmp_path / f"p{seed}", csw, csw, levels))
    length = len(csw[0])
    adjacent = adjacency(csw, edit=False)
    apart = {
        (a, b)
        for a in csw
        if len(a) == length
        for b, d in brute.distances(adjacent, a).items()
        if d == steps and len(b) == length
    }
    if not apart:
        with pytest.raises(SolveError, match=f"no CSW ladder of {steps} steps between {length}-letter words"):
            puzzles(ladders, length, steps, seed=seed, count=2)
        return
    for p in puzzles(ladders, length, steps, seed=seed, count=2):
        assert (p.start, p.end) in apart
        assert p.ladders == brute.count_shortest(adjacent, p.start, p.end)
        assert p.difficulty == difficulty(p.odds, p.all_common)
        kept = (
            adjacent
            if not p.all_common
            else {w: {u for u in ns if levels.get(u, 0) and levels[u] <= 35} for w, ns in adjacent.items()}
        )
        assert p.odds == round(walk_chance(kept, p.start, p.end, steps) ** (1 / steps), 4)
    assert puzzles(ladders, length, steps, seed=seed) == puzzles(ladders, length, steps, seed=seed)


def walk_chance(adjacent: dict[str, set[str]], start: str, end: str, steps: int) -> float:
    """Every walk of `steps` steps from start, each weighted by the product of 1 / (choices at each word)."""
    if steps == 0:
        return float(start == end)
    return sum(walk_chance(adjacent, u, end, steps - 1) for u in adjacent[start]) / max(len(adjacent[start]), 1)


def test_a_solve_imports_neither_polars_nor_numpy(tiny_export):
    """A one-off `ladders solve` pays for every import it makes: polars and numpy would be 0.3 s of a
    0.15 s aim, so the solver reads ladder.sqlite with the standard library."""
    code = (
        "import sys\nfrom typer.testing import CliRunner\nfrom ladders.cli import app\n"
        f"r = CliRunner().invoke(app, ['solve', 'cat', 'dog', '--export', {str(tiny_export)!r}])\n"
        "assert r.exit_code == 0, r.output\n"
        "print(sorted(m for m in ('polars', 'numpy', 'pyarrow', 'scipy') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
