"""`ladders solve` as it prints (issue 42, items 16, 22, 23): --json held to the shape docs/json.md documents
(keys and types), "cost" and "rareness" recomputed from the words printed; the two ladders said once when
they are the same; "no ladder of everyday words joins them" where none does."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ladders.cli import app
from support.paths import ROOT

cli = CliRunner()
DOC = ROOT / "docs/json.md"
TYPES = {"int": int, "string": str, "bool": bool}


RULE = {"common": 1, "uncommon": 5}  # the common-word rule's cost by label, as the README states it


def documented() -> tuple[dict, dict, dict]:
    """docs/json.md's three blocks: success, LADDER, failure."""
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(), re.S)
    success, ladder, failure = (json.loads(b) for b in blocks)
    return success, ladder, failure


def conforms(value, spec, ladder: dict, where: str = "$", extra: bool = False) -> None:
    """Assert that `value` has the documented shape `spec` (extra keys allowed only where `extra`)."""
    if spec == "LADDER":
        spec = ladder
    if isinstance(spec, dict):
        assert isinstance(value, dict), where
        missing, unknown = spec.keys() - value.keys(), value.keys() - spec.keys()
        assert not missing and (extra or not unknown), (where, missing, unknown)
        for key, inner in spec.items():
            conforms(value[key], inner, ladder, f"{where}.{key}")
    elif isinstance(spec, list):
        assert isinstance(value, list) and value, where
        for n, item in enumerate(value):
            conforms(item, spec[0], ladder, f"{where}[{n}]")
    elif spec == "string or null":
        assert value is None or isinstance(value, str), where
    else:
        assert type(value) is TYPES[spec], (where, value)


def solve(export: Path, *args: str):
    return cli.invoke(app, ["solve", *args, "--export", str(export)])


PAIRS = [("cat", "dog"), ("cat", "cot"), ("cog", "dog"), ("cold", "cord")]


@pytest.mark.parametrize("flags", [[], ["--clean"], ["--no-clean"], ["--edit", "--no-clean"]])
def test_solve_json_has_the_documented_shape_and_its_sums(tiny_export, flags):
    success, ladder, _ = documented()
    for a, b in PAIRS:
        result = solve(tiny_export, a, b, "--json", *flags)
        if result.exit_code:
            continue  # a refusal: its shape is the next test's
        data = json.loads(result.stdout)
        conforms(data, success, ladder)
        assert (data["clean"], data["strict"]) == ({"--clean": (True, False), "--no-clean": (False, False)}).get(
            flags[-1] if flags else "", (True, True)
        )
        for kind in ("shortest", "common"):
            words = data[kind]["words"]
            assert data[kind]["rareness"] == sum(w["rareness"] for w in words)
            assert data[kind]["cost"] == sum(RULE.get(w["label"], w["rareness"]) for w in words)
            assert data[kind]["steps"] == len(words) - 1
            assert data[kind]["everyday"] == all(w["label"] == "common" for w in words)
        assert data["same"] == (
            [w["word"] for w in data["shortest"]["words"]] == [w["word"] for w in data["common"]["words"]]
        )


def test_a_refusal_in_json_has_the_documented_shape(tiny_export):
    _, ladder, failure = documented()
    for args, code in (
        (["cax", "dog"], 10),
        (["cat", "cats"], 11),
        (["cat", "cat"], 13),
        (["cat", "dog", "--lexicon", "x"], 2),
    ):
        result = solve(tiny_export, *args, "--json")
        assert result.exit_code == code
        data = json.loads(result.stdout)
        conforms(data, failure, ladder, extra=False) if code != 10 else None
        conforms(data["error"], failure["error"], ladder, "$.error", extra=True)
        assert data["error"]["code"] == code
    unknown = json.loads(solve(tiny_export, "cax", "dog", "--json").stdout)["error"]
    assert unknown["suggestions"] == ["CAT"] and unknown["word"] == "CAX"


def test_the_same_ladder_is_printed_once_and_no_everyday_ladder_is_said(tmp_path):
    from support.exports import write_export

    # CAT COT DOT DOG: COT (SCOWL 60, rare) is the only way from CAT, so no ladder of everyday words joins
    # CAT and DOG, and the least-rare ladder is the shortest one.
    words = ["CAT", "COG", "COT", "DOG", "DOT"]
    tiny_export = write_export(tmp_path / "e", words, words, {"CAT": 10, "COT": 60, "DOT": 10, "DOG": 10, "COG": 35})
    text = solve(tiny_export, "cat", "dog", "--no-clean", "--seed", "1").stdout
    data = json.loads(solve(tiny_export, "cat", "dog", "--no-clean", "--seed", "1", "--json").stdout)
    assert data["same"] is True and data["common"]["everyday"] is False
    assert "No ladder of everyday words joins them" in text and "Common-word ladder" not in text
    assert text.count("  COT ") == 1  # the rungs once
    assert "Shortest ladder, the least-rare ladder too: 3 steps, cost 20,003, rareness 20,003" in text


def test_an_everyday_ladder_is_said_as_such(tmp_path):
    from support.exports import write_export

    # COLD CORD WORD WARD WARM: every word everyday, the shortest and the common-word ladder alike (CARD,
    # not in SCOWL, makes the other 4-step ladder rarer).
    words = ["CARD", "COLD", "CORD", "WARD", "WARM", "WORD"]
    same = write_export(tmp_path / "same", words, words, {w: 10 for w in words if w != "CARD"})
    text = solve(same, "cold", "warm").stdout
    data = json.loads(solve(same, "cold", "warm", "--json").stdout)
    assert data["same"] is True and data["common"]["everyday"] is True
    assert "Shortest ladder, all everyday words too: 4 steps, cost 5, rareness 5" in text
    assert text.count("  COLD ") == 1 and "everyday words joins" not in text
    # CAT COT COG in 2 steps through COT (not in SCOWL); CAT BAT BAG BOG COG in 4, every word everyday.
    words = ["BAG", "BAT", "BOG", "CAT", "COG", "COT"]
    apart = write_export(tmp_path / "apart", words, words, {w: 10 for w in words if w != "COT"})
    text = solve(apart, "cat", "cog").stdout
    data = json.loads(solve(apart, "cat", "cog", "--json").stdout)
    assert data["same"] is False and data["common"]["everyday"] is True and data["shortest"]["everyday"] is False
    assert (
        "\nShortest ladder: 2 steps, rareness " in text and "\nCommon-word ladder: 4 steps, cost 5, rareness 5" in text
    )
    assert text.count("  CAT ") == 2 and "everyday words joins" not in text


def test_a_ladder_best_under_both_rules_is_said_once_whatever_the_draw(tmp_path):
    """Hostile pass: BIDE BADE BAKE and BIDE BIKE BAKE tie under both rules; the two ladders were drawn apart
    and printed as two in 4 runs of 10. Now the common-word ladder is the shortest one drawn when it ties."""
    from support.exports import write_export

    words = ["BADE", "BAKE", "BIDE", "BIKE"]
    export = write_export(tmp_path / "tie", words, words, {w: 10 for w in words})
    for seed in range(12):
        data = json.loads(solve(export, "bide", "bake", "--seed", str(seed), "--json").stdout)
        assert data["same"] is True and data["common"]["ties"] == 2, seed
