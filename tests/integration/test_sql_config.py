"""The config keys the MySQL dump and the PHP solver depend on, without a server: "everyday" is one key
(rareness_labels.common; the everyday lexicon's max_scowl_level follows it or is refused), at most
MAX_LEXICONS lexicons (the dump's 64 keys a table), and the dump's settings table carries the label cut-offs
the build was made with. The same builds in a real MariaDB server: tests/integration/test_sql.py."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from conftest import copy_tiny
from support.paths import ROOT
from pipeline.columns import MAX_LEXICONS, MYSQL_KEYS
from pipeline.config import load_config


def tiny_with(tmp_path: Path, extra: str) -> Path:
    root = copy_tiny(tmp_path)
    with (root / "config.toml").open("a") as f:
        f.write(extra)
    return root


def lexicons_table(count: int) -> str:
    """[lexicons] with lexicons derived from csw, enough for `count` in all beside csw, owl and everyday."""
    return "[lexicons]\n" + "".join(f'l{i:02d} = {{from = "csw"}}\n' for i in range(count - 3))


def ladders(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, capture_output=True, text=True)


def test_the_everyday_lexicon_follows_rareness_labels_common(tmp_path):
    """Two keys said "everyday": common = 50 left the everyday lexicon at the defaults' max_scowl_level 35."""
    root = tiny_with(tmp_path, "[rareness_labels]\ncommon = 50\n")
    assert load_config(root / "config.toml").values["lexicons"]["everyday"]["max_scowl_level"] == 50
    assert (
        load_config(copy_tiny(tmp_path / "plain") / "config.toml").values["lexicons"]["everyday"]["max_scowl_level"]
        == 35
    )


def test_an_everyday_level_other_than_rareness_labels_common_is_refused_naming_both_keys(tmp_path):
    root = tiny_with(tmp_path, '[lexicons.everyday]\nfrom = "csw"\nmax_scowl_level = 50\n')
    done = ladders("build", "--quiet", "--config", str(root / "config.toml"))
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert "'lexicons.everyday.max_scowl_level' (50)" in done.stderr
    assert "'rareness_labels.common' (35)" in done.stderr


def test_more_lexicons_than_the_limit_is_one_line_exit_2_and_the_limit_builds(tmp_path):
    """43 lexicons made a dump MySQL refused (88 keys, ERROR 1069) and 700 an internal error in stage 7."""
    assert 2 + 2 * MAX_LEXICONS <= MYSQL_KEYS < 2 + 2 * (MAX_LEXICONS + 1)
    over = tiny_with(tmp_path / "over", lexicons_table(MAX_LEXICONS + 1))
    done = ladders("build", "--quiet", "--config", str(over / "config.toml"))
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1
    assert f"{MAX_LEXICONS + 1} lexicons; at most {MAX_LEXICONS}" in done.stderr
    for many in (700, 43):
        refused = ladders(
            "status", "--config", str(tiny_with(tmp_path / f"l{many}", lexicons_table(many)) / "config.toml")
        )
        assert refused.returncode == 2 and f"{many} lexicons; at most" in refused.stderr, refused.stderr
    at = tiny_with(tmp_path / "at", lexicons_table(MAX_LEXICONS))
    built = ladders("build", "--quiet", "--config", str(at / "config.toml"))
    assert built.returncode == 0, built.stderr
    words = pl.read_parquet(at / "build/export/words.parquet")
    assert sum(c.startswith("in_") for c in words.columns) == MAX_LEXICONS


def dumped_settings(export: Path, tmp: Path) -> dict[str, int]:
    dump = tmp / "dump.sql"
    done = ladders("export-sql", "--export", str(export), "--out", str(dump))
    assert done.returncode == 0, done.stderr
    rows = re.search(r"INSERT INTO `ladders_settings` VALUES\n(.*?);\n", dump.read_text(), re.S).group(1)
    return {name: int(value) for name, value in re.findall(r"\('(\w+)',(\d+)\)", rows)}


def test_the_dump_carries_the_label_cut_offs_the_export_was_built_with(tmp_path):
    """The PHP solver spelled EVERYDAY_LEVEL = 35 itself: a build with common = 50 had another rule there."""
    root = tiny_with(tmp_path, "[rareness_labels]\ncommon = 50\nuncommon = 55\n")
    assert ladders("build", "--quiet", "--config", str(root / "config.toml")).returncode == 0
    export = root / "build/export"
    labels = json.loads((export / "manifest.json").read_text())["config"]["rareness_labels"]
    assert labels == {"common": 50, "uncommon": 55, "rare": 70}
    assert dumped_settings(export, tmp_path) == {
        "label_common": 50,
        "label_uncommon": 55,
        "label_rare": 70,
        "cost_common": 1,
        "cost_uncommon": 5,
    }


@pytest.mark.parametrize("level", [35, 50])
def test_the_everyday_lexicon_holds_exactly_the_words_labelled_common(tmp_path, level):
    root = tiny_with(tmp_path, f"[rareness_labels]\ncommon = {level}\nuncommon = {max(level, 50)}\n")
    assert ladders("build", "--quiet", "--config", str(root / "config.toml")).returncode == 0
    words = pl.read_parquet(root / "build/export/words.parquet", columns=["in_csw", "in_everyday", "scowl_level"])
    assert (
        words["in_everyday"].to_list() == (words["in_csw"] & (words["scowl_level"] <= level).fill_null(False)).to_list()
    )
