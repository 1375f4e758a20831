"""A path is a name, never a pattern: an export in a folder named `my[x]?#%` or `exp*` beside `expB` is
read as that one folder (polars read `[`, `*` and `?` as a glob: verify called such an export damaged, and
export-sql of `exp*` wrote every word of both folders)."""

from __future__ import annotations

import shutil

import pytest

from conftest import invoke


@pytest.fixture
def odd(tiny_export, tmp_path):
    shutil.copytree(tiny_export, tmp_path / "expB")
    folders = {name: tmp_path / name for name in ("my[x]?#%", "exp*")}
    for folder in folders.values():
        shutil.copytree(tiny_export, folder)
    return folders


@pytest.mark.parametrize("name", ["my[x]?#%", "exp*"])
def test_every_reader_takes_the_folder_as_named(odd, tiny_export, tmp_path, name):
    export = odd[name]
    verified = invoke("verify", "--export", str(export))
    assert verified.exit_code == 0, verified.output
    dumps = [tmp_path / "odd.sql", tmp_path / "plain.sql"]
    for source, dump in zip((export, tiny_export), dumps):
        assert invoke("export-sql", "--export", str(source), "--out", str(dump)).exit_code == 0
    assert dumps[0].read_bytes() == dumps[1].read_bytes()  # the one folder's words, once
    assert invoke("diff", str(tiny_export), str(export)).exit_code == 0
    page = invoke("export-web", str(tmp_path / "page"), "--export", str(export))
    assert page.exit_code == 0, page.output
    args = ("puzzle", "--length", "4", "--steps", "2", "--seed", "1", "--export")
    odd_puzzle, puzzle = invoke(*args, str(export)), invoke(*args, str(tiny_export))
    assert (odd_puzzle.exit_code, odd_puzzle.output) == (puzzle.exit_code, puzzle.output)
