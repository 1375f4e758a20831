"""summary.txt follows the configuration: its common-word coverage uses the configured rareness_labels."""

from __future__ import annotations

from typer.testing import CliRunner

from ladders.cli import app


def test_summary_coverage_uses_the_configured_common_level(tiny):
    config = tiny / "config.toml"
    built = CliRunner().invoke(app, ["build", "--quiet", "--config", str(config)])
    assert built.exit_code == 0 and "SCOWL level <= 35:" in (tiny / "build/export/summary.txt").read_text()
    config.write_text(config.read_text() + "\n[rareness_labels]\ncommon = 50\nuncommon = 60\nrare = 70\n")
    built = CliRunner().invoke(app, ["build", "--quiet", "--config", str(config)])
    text = (tiny / "build/export/summary.txt").read_text()
    assert built.exit_code == 0 and "SCOWL level <= 50:" in text and "SCOWL level <= 35:" not in text
