"""Config files read as written: a [tool.ladders] table or top-level keys, inputs that must be files,
and a --lenient build judged by --lenient status."""

from __future__ import annotations


import polars as pl

from conftest import build, invoke


def test_config_with_another_tool_table_still_reads_its_top_level_keys(tiny):
    (tiny / "other.txt").write_text("AXE\nAYE\n")
    config = (tiny / "config.toml").read_text().replace('csw = "csw.txt"', 'csw = "other.txt"')
    (tiny / "config.toml").write_text(config + "\n[lexicons]\neveryday = false\n[tool.black]\nline-length = 100\n")
    assert build(tiny).exit_code == 0
    words = pl.read_parquet(tiny / "build/export/words.parquet")
    assert set(words.filter(pl.col("in_csw"))["word"]) == {"AXE", "AYE"}


def test_config_with_both_a_ladders_table_and_top_level_keys_is_an_error(tiny):
    (tiny / "config.toml").write_text((tiny / "config.toml").read_text() + "\n[tool.ladders]\nlenient = true\n")
    result = build(tiny)
    assert result.exit_code == 2
    assert "has both a [tool.ladders] table and top-level keys" in result.stderr


def test_lenient_build_is_fresh_for_lenient_status(tiny):
    (tiny / "csw.txt").write_text((tiny / "csw.txt").read_text() + "C4T\n")
    assert build(tiny, "--lenient").exit_code == 0
    assert invoke("status", "--config", str(tiny / "config.toml"), "--lenient").exit_code == 0
    strict = invoke("status", "--config", str(tiny / "config.toml"))
    assert strict.exit_code == 1 and "config changed: lenient" in strict.stdout


def test_dev_null_as_an_input_is_a_config_error(tiny):
    config = tiny / "config.toml"
    config.write_text(config.read_text().replace('csw = "csw.txt"', 'csw = "/dev/null"'))
    result = build(tiny)
    assert result.exit_code == 2
    assert result.stderr == f"error: {config}: key 'csw': /dev/null is not a file\n"
