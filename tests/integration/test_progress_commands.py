"""export-web and release say their progress without a terminal (issue 42, item 21), on the session's tiny export
through the CLI; the progress lines themselves, with a fake clock: tests/unit/pipeline/test_progress.py."""

from __future__ import annotations


def test_export_web_and_release_say_their_progress_without_a_terminal(fake_clock, monkeypatch, tiny_export, tmp_path):
    """export-web and release were silent for 25-50 s on raw/ when stderr was a log: each piece of their work
    now says itself every few seconds (the fake clock moves 3 s each time it is read)."""
    from typer.testing import CliRunner

    from ladders.cli import app
    from pipeline import progress as shown

    def later():
        fake_clock[0] += 3.0
        return fake_clock[0]

    monkeypatch.setattr(shown, "clock", later)
    runner = CliRunner()
    page = runner.invoke(app, ["export-web", str(tmp_path / "site"), "--export", str(tiny_export)])
    assert page.exit_code == 0, page.output
    assert "export-web: puzzles (letters, steps): " in page.stderr
    quiet = runner.invoke(app, ["export-web", str(tmp_path / "quiet"), "--export", str(tiny_export), "--quiet"])
    assert quiet.exit_code == 0 and "export-web:" not in quiet.stderr
