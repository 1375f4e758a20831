"""Stage 6 built through a config (ladders build of Knuth's five-letter words in a child process) reports the
graph's known diameter. Stage 6 on in-memory lists against BFS: tests/unit/stages/test_s06_analysis.py."""

from __future__ import annotations

import gzip

import polars as pl

from conftest import tiny_config
from support.paths import DATA


def test_knuth_words_graph_built_through_config_reports_its_diameter(tmp_path):
    """The same graph built as a user would, with --config: the export's longest.parquet says 29."""
    import subprocess
    import sys

    from support.paths import ROOT

    lines = gzip.decompress((DATA / "words_dat.txt.gz").read_bytes()).decode().splitlines()
    (tmp_path / "sgb.txt").write_text("\n".join(line[:5] for line in lines if not line.startswith("*")) + "\n")
    (tmp_path / "sgb.toml").write_text(tiny_config(DATA / "tiny", csw="sgb.txt", owl="sgb.txt"))
    built = subprocess.run(
        [sys.executable, "-m", "pipeline", "build", "--quiet", "--config", str(tmp_path / "sgb.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0, built.stderr
    longest = pl.read_parquet(tmp_path / "build/export/longest.parquet").filter(pl.col("mode") == "sub")
    assert longest["diameter"].max() == 29 and longest.filter(pl.col("diameter") == 29)["size"].to_list() == [4_493] * 2
