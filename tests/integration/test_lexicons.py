"""Lexicons the user shapes (docs/lexicons.md): named word lists, derived ones, add-lists, remove-lists and
a SCOWL filter; each with its own membership, groups and longest ladders, checked against sets and BFS
written plainly (tests/support/brute.py); the errors a config or a list can make; the real NASPA lists
NWL2018, NWL2020 and NSWL2018 built as three lexicons."""

from __future__ import annotations

import gzip
import json
import random

import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support import brute
from conftest import NO_WORDFREQ, TINY_INPUTS, build, groups_of, invoke
from support.paths import DATA
from pipeline.errors import InputFormatError
from stages.s01_lexicon import build_lexicon
from stages.s03_rareness import build_rareness
from stages.s04_links import build_links
from stages.s06_analysis import build_analysis
from support.brute import oracle

TABLE = {"10": 1, "20": 1, "35": 4, "40": 20, "50": 200, "55": 2000, "60": 20000, "70": 200000, "80": 10**6}
TABLE |= {"95": 2 * 10**6, "absent": 2 * 10**6}
LABELS = {"common": 35, "uncommon": 50, "rare": 70}  # stage 3 counts variant-only entries above `common`

# Four lexicons that use every piece: a list file; a list file with an add-list and a remove-list; one
# derived from `a` through the SCOWL filter, with the add-list (whose words pass no filter); one derived
# from that, with the remove-list.
LEXICONS = {
    "a": {"file": "a.txt", "format": "plain"},
    "b": {"file": "b.txt", "format": "plain", "add": "x.txt", "remove": "y.txt"},
    "c": {"from": "a", "max_scowl_level": 35, "add": "x.txt"},
    "d": {"from": "c", "remove": "y.txt"},
}

word = st.text(alphabet="abcd", min_size=2, max_size=4).map(str.upper)
words = st.lists(word, min_size=1, max_size=25, unique=True)
# A word's SCOWL entries: (category, level); a variant list never makes a word everyday.
entry = st.tuples(st.sampled_from(["english", "american", "variant_1"]), st.sampled_from([10, 35, 40, 70]))


def expected_members(a, b, x, y, scowl) -> dict[str, set[str]]:
    """The module docstring of stage 5, as sets: ((base, filtered) | add-list) - remove-list."""
    main = {w for w, entries in scowl.items() if any(cat != "variant_1" and lvl <= 35 for cat, lvl in entries)}
    made = {"a": set(a), "b": (set(b) | set(x)) - set(y)}
    made["c"] = (made["a"] & main) | set(x)
    made["d"] = made["c"] - set(y)
    return made


def stages_of(a, b, x, y, scowl):
    """Stages 1 and 3-6 in memory on the lists and a SCOWL folder built from `scowl` {word: [(cat, lvl)]}."""
    files = {"a.txt": a, "b.txt": b, "x.txt": x, "y.txt": y}
    stage1 = build_lexicon({k: "\n".join(v).encode() for k, v in files.items()}, LEXICONS)
    lexicon = stage1["lexicon"]
    folder: dict[str, list[str]] = {}
    for w, entries in scowl.items():
        for category, level in entries:
            folder.setdefault(f"scowl/{category}-words.{level}", []).append(w.lower())
    rareness = build_rareness(
        lexicon, {k: "\n".join(v).encode() for k, v in folder.items()}, NO_WORDFREQ, TABLE, LABELS, 0
    )["rareness"]
    links = build_links(lexicon)["links"]
    groups = groups_of(lexicon, links, LEXICONS, rareness)
    return stage1, lexicon, links, groups


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words, words, words, words, st.data())
def test_each_lexicons_words_groups_and_longest_ladders_equal_brute_force(a, b, x, y, data):
    every = sorted(set(a) | set(b) | set(x) | set(y))
    scowl = {w: data.draw(st.lists(entry, max_size=2)) for w in every}
    made = expected_members(a, b, x, y, scowl)
    if not all(made.values()):
        with pytest.raises(InputFormatError, match=r"holds no word once made .*: an empty lexicon"):
            stages_of(a, b, x, y, scowl)
        return
    stage1, lexicon, links, groups = stages_of(a, b, x, y, scowl)
    # One row per word of any list (the remove-list's strays aside), whichever lexicons hold it.
    assert lexicon["word"].to_list() == sorted(set(a) | set(b) | set(x))
    stray = sorted(set(y) - set(a) - set(b) - set(x))
    assert sorted(stage1["warnings"].filter(pl.col("reason").str.starts_with("remove-list"))["text"]) == sorted(
        stray * 2  # y.txt is the remove-list of b and of d
    )
    union = lexicon["word"].to_list()
    edges = brute.links(union)
    longest = build_analysis(lexicon, links, groups, LEXICONS)["longest"]
    for name, members in made.items():
        assert set(lexicon.filter(groups[f"in_{name}"])["word"]) == members, name
        for mode, kinds, column in (
            ("sub", {"sub"}, f"group_{name}"),
            ("edit", {"sub", "indel"}, f"group_{name}_edit"),
        ):
            want = brute.groups(union, edges, members, kinds)
            got = dict(zip(union, groups[column].to_list()))
            assert {w: g for w, g in got.items() if g is not None} == want, (name, mode)
            _, diameters = oracle(members, edges, kinds)
            rows = longest.filter((pl.col("lexicon") == name) & (pl.col("mode") == mode))
            found = {(r["diameter"], (r["start"], r["end"])) for r in rows.iter_rows(named=True)}
            assert found == set(diameters.values()), (name, mode)


def test_an_add_list_word_gets_its_own_definition_and_rareness(tmp_path):
    """ZORB is in no list but the add-list, which defines it; SCOWL knows CAT's level wherever CAT comes from."""
    (tmp_path / "mine.txt").write_text("# my words\nZORB a ball to roll down hills in [n -S]\nCAT\n")
    (tmp_path / "banned.txt").write_text("DOG\n")
    config = "".join(f'{k} = "{DATA / "tiny" / v}"\n' for k, v in TINY_INPUTS.items())
    config += '[lexicons.mine]\nfrom = "csw"\nadd = "mine.txt"\nremove = "banned.txt"\n'
    (tmp_path / "config.toml").write_text(config)
    assert build(tmp_path).exit_code == 0
    words = pl.read_parquet(tmp_path / "build/export/words.parquet")
    zorb = words.filter(pl.col("word") == "ZORB").row(0, named=True)
    assert (zorb["in_mine"], zorb["in_csw"], zorb["definition"]) == (True, False, "a ball to roll down hills in [n -S]")
    assert zorb["definition_source"] == "added"
    dog = words.filter(pl.col("word") == "DOG").row(0, named=True)
    assert (dog["in_csw"], dog["in_mine"], dog["scowl_level"]) == (True, False, 10)
    manifest = json.loads((tmp_path / "build/export/manifest.json").read_text())
    mine = next(e for e in manifest["lexicons"] if e["name"] == "mine")
    assert mine["made"] == "from csw, + mine.txt, - banned.txt"
    assert mine["words"] == words["in_mine"].sum() == words["in_csw"].sum()  # ZORB in, DOG out
    solved = invoke("solve", "cat", "cot", "--lexicon", "mine", "--export", str(tmp_path / "build/export"))
    assert solved.exit_code == 0, solved.output


def config_with(tmp_path, lexicons: str, **files: str) -> str:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    config = "".join(f'{k} = "{DATA / "tiny" / v}"\n' for k, v in TINY_INPUTS.items())
    (tmp_path / "config.toml").write_text(config + lexicons)
    return str(tmp_path / "config.toml")


@pytest.mark.parametrize(
    "lexicons, files, message",
    [
        ('[lexicons.Big]\nfrom = "csw"\n', {}, "{cfg}: key 'lexicons.Big': a lexicon's name is 1-32 characters"),
        ('[lexicons.csw_edit]\nfrom = "csw"\n', {}, "{cfg}: key 'lexicons.csw_edit': a lexicon's name is"),
        (
            '[lexicons.p]\nfrom = "q"\n[lexicons.q]\nfrom = "p"\n',
            {},
            "{cfg}: key 'lexicons.p': a cycle of derived lexicons: p -> q -> p",
        ),
        ('[lexicons.p]\nfrom = "nowhere"\n', {}, "{cfg}: key 'lexicons.p': from = 'nowhere' names no lexicon"),
        ('[lexicons.p]\nfile = "p.txt"\nfrom = "csw"\n', {"p.txt": "CAT\n"}, "needs exactly one of file"),
        ('[lexicons.p]\nfrom = "csw"\ncolour = 1\n', {}, "{cfg}: key 'lexicons.p': unknown key 'colour'"),
        ('[lexicons.p]\nfrom = "csw"\nmax_scowl_level = 36\n', {}, "max_scowl_level must be a SCOWL level"),
        ('[lexicons.p]\nfrom = "csw"\nadd = "gone.txt"\n', {}, "key 'lexicons.p': "),
        (
            '[lexicons.p]\nfrom = "csw"\nadd = "add.txt"\n',
            {"add.txt": "CAT\nCAFÉ\n"},
            "add.txt, line 2: 'CAFÉ' is not a word",
        ),
        (
            '[lexicons.p]\nfrom = "csw"\nremove = "rm.txt"\n',
            {"rm.txt": (DATA / "tiny" / "csw.txt").read_text()},  # every CSW word
            "lexicon 'p' holds no word once made (from csw, - rm.txt): an empty lexicon; give it words, "
            "or drop it with `p = false` under [lexicons]",
        ),
    ],
    ids=[
        "bad name",
        "_edit name",
        "cycle",
        "unknown from",
        "file and from",
        "unknown key",
        "bad level",
        "missing add-list",
        "add-list word outside A-Z",
        "empty lexicon",
    ],  # fmt: skip
)
def test_lexicon_errors_are_one_line_naming_file_and_line_exit_2(tmp_path, lexicons, files, message):
    cfg = config_with(tmp_path, lexicons, **files)
    result = invoke("build", "--quiet", "--config", cfg)
    assert result.exit_code == 2, result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert errors == [result.stderr.splitlines()[-1]]  # one error line, the last (stage lines may come before)
    assert message.format(cfg=cfg) in errors[0]
    assert "Traceback" not in result.output


def test_a_remove_list_word_no_list_holds_is_a_warning_and_the_build_goes_on(tmp_path):
    cfg = config_with(tmp_path, '[lexicons.p]\nfrom = "csw"\nremove = "rm.txt"\n', **{"rm.txt": "CAT\nQXZ\n"})
    result = invoke("build", "--config", cfg)
    assert result.exit_code == 0, result.output
    assert "warning: rm.txt, line 2: QXZ is in no list" in result.stderr
    warned = pl.read_parquet(tmp_path / "build/01_warnings.parquet").filter(pl.col("list") == "p")
    assert warned.select("file", "line", "text").rows() == [("rm.txt", 2, "QXZ")]


def test_dropping_the_defaults_lexicons_and_a_definition_source_naming_no_lexicon(tmp_path):
    lexicons = "[lexicons]\neveryday = false\nowl = false\n"
    cfg = config_with(tmp_path, lexicons)
    assert invoke("build", "--quiet", "--config", cfg).exit_code == 0
    manifest = json.loads((tmp_path / "build/export/manifest.json").read_text())
    assert [e["name"] for e in manifest["lexicons"]] == ["csw"]
    assert manifest["config"]["definition_sources"] == ["csw", "supplement", "wordnet", "gcide"]
    cfg = config_with(tmp_path, 'definition_sources = ["owl", "wordnet"]\n' + lexicons)
    result = invoke("build", "--quiet", "--config", cfg)
    assert result.exit_code == 2
    assert "key 'definition_sources': 'owl' is neither a source" in result.stderr


# --- the real NASPA lists ------------------------------------------------------------------------------

NASPA = ("NWL2018", "NWL2020", "NSWL2018")


@pytest.fixture(scope="module")
def naspa(tmp_path_factory):
    """NWL2018, NWL2020 and NSWL2018 (their words of 2-4 letters, tests/data/naspa/) as three lexicons,
    with tiny's other inputs, strictly (no --lenient), and the words of each file read plainly."""
    folder = tmp_path_factory.mktemp("naspa")
    lists = {}
    for name in NASPA:
        text = gzip.decompress((DATA / "naspa" / f"{name}-4.txt.gz").read_bytes()).decode()
        (folder / f"{name}.txt").write_text(text)
        lists[name.lower()] = [line.split()[1] for line in text.splitlines()]
    config = "".join(f'{k} = "{DATA / "tiny" / v}"\n' for k, v in TINY_INPUTS.items() if k not in ("csw", "owl"))
    config += "[lexicons]\ncsw = false\nowl = false\neveryday = false\n"
    config += "".join(f'{n.lower()} = {{file = "{n}.txt", format = "scores"}}\n' for n in NASPA)
    (folder / "config.toml").write_text(config)
    result = build(folder)
    assert result.exit_code == 0, result.output
    return folder / "build/export", lists


def test_naspa_lists_build_as_three_lexicons_with_the_files_counts(naspa):
    export, lists = naspa
    assert invoke("verify", str(export)).exit_code == 0
    manifest = json.loads((export / "manifest.json").read_text())
    assert {e["name"]: e["words"] for e in manifest["lexicons"]} == {
        "nwl2018": 5_406,  # lines of the slice, each a word of its own (counted below from the files too)
        "nwl2020": 5_381,
        "nswl2018": 5_363,
    }
    words = pl.read_parquet(export / "words.parquet")
    for name, listed in lists.items():
        assert len(listed) == len(set(listed)) == manifest["counts"][f"{name}_words"]
        assert set(words.filter(pl.col(f"in_{name}"))["word"]) == set(listed)
    assert words.height == len(set().union(*lists.values()))
    # NWL2020 is NWL2018 less the 2020 removals (slurs: ABO, DAGO, ...) plus ZZZ; the school list omits 43.
    assert sorted(set(lists["nwl2020"]) - set(lists["nwl2018"])) == ["ZZZ"]
    removed = set(lists["nwl2018"]) - set(lists["nwl2020"])
    assert {"ABO", "DAGO", "KIKE", "SPIC"} <= removed and len(removed) == 26
    assert set(lists["nswl2018"]) <= set(lists["nwl2018"]) and len(set(lists["nwl2018"]) - set(lists["nswl2018"])) == 43


def test_a_school_ladder_never_leaves_nswl2018(naspa):
    from ladders.solve.question import NoLadder, UnknownWord
    from ladders.solve.solver import Ladders

    export, lists = naspa
    school = set(lists["nswl2018"])
    ladders = Ladders.open(export)
    words = pl.read_parquet(export / "words.parquet").filter(pl.col("in_nswl2018") & (pl.col("length") == 4))
    four = sorted(words["word"])
    rng = random.Random(2018)
    solved = 0
    for _ in range(60):
        a, b = rng.sample(four, 2)
        try:
            ladder = ladders.shortest(a, b, "nswl2018", seed=1)
        except NoLadder:
            continue
        solved += 1
        assert set(ladder.words) <= school
        assert set(ladders.common(a, b, "nswl2018").words) <= school
    assert solved >= 40
    # Two school words that NWL2018 joins only through words the school list omits: no school ladder.
    split = next(
        rows
        for _, rows in words.sort("word").group_by("group_nwl2018", maintain_order=True)
        if rows["group_nswl2018"].n_unique() > 1
    )
    a = split.row(0, named=True)
    b = split.filter(pl.col("group_nswl2018") != a["group_nswl2018"]).row(0, named=True)
    assert not set(ladders.shortest(a["word"], b["word"], "nwl2018").words) <= school
    with pytest.raises(NoLadder):
        ladders.shortest(a["word"], b["word"], "nswl2018")
    with pytest.raises(UnknownWord):
        ladders.shortest(sorted(set(lists["nwl2018"]) - school)[0], four[0], "nswl2018")
    puzzles = invoke("puzzle", "--length", "4", "--steps", "4", "--lexicon", "nswl2018", "--moves", "nwl2018",
                     "--count", "3", "--seed", "1", "--json", "--export", str(export))  # fmt: skip
    assert puzzles.exit_code == 0, puzzles.output
    for p in json.loads(puzzles.stdout)["puzzles"]:
        assert {p["start"], p["end"]} <= school and p["moves_steps"] <= p["steps"] == 4


def test_puzzle_moves_from_a_lexicon_the_export_lacks_is_refused(tmp_path):
    cfg = config_with(tmp_path, "")
    assert invoke("build", "--quiet", "--config", cfg).exit_code == 0
    export = str(tmp_path / "build/export")
    result = invoke("puzzle", "--lexicon", "everyday", "--moves", "nwl", "--export", export)
    assert (result.exit_code, result.stderr) == (
        2,
        "error: unknown lexicon 'nwl': this export holds csw, owl, everyday\n",
    )
    solved = invoke("solve", "cat", "cot", "--lexicon", "everyday", "--export", export, "--json")
    assert solved.exit_code == 0 and json.loads(solved.stdout)["group"]["column"] == "group_everyday"
