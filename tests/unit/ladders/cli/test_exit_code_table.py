"""One table of exit codes (pipeline/errors.py): the README's table and `--help`'s are it, and every exit code
raised is in it. The exit codes of the commands themselves: tests/integration/test_exit_codes.py."""

from __future__ import annotations


from typer.testing import CliRunner
from support.paths import ROOT
from pipeline import errors
from ladders.cli import app

cli = CliRunner()


def readme_exit_codes() -> list[tuple[str, str]]:
    """The rows of the README's exit-code table (the one after "Exit codes")."""
    text = (ROOT / "README.md").read_text().split("Exit codes, the same for every command:", 1)[1]
    table = text.split("|---|---|\n", 1)[1].split("\n\n", 1)[0]
    return [tuple(cell.strip() for cell in row.strip("|").split("|", 1)) for row in table.splitlines()]


def test_the_readme_exit_code_table_is_the_one_in_errors():
    assert readme_exit_codes() == list(errors.EXIT_CODES)


def test_help_prints_the_exit_code_table_from_errors():
    shown = " ".join(cli.invoke(app, ["--help"]).stdout.split())
    for code, text in errors.EXIT_CODES:
        assert " ".join(f"{code} {text.replace('`', '')}".split()) in shown, code


def test_every_exit_code_raised_is_in_the_table():
    from ladders.solve import question

    documented = {int(c) for c, _ in errors.EXIT_CODES if c.isdigit()} | set(range(10, 15))
    kinds = [errors.PipelineError, *_subclasses(errors.PipelineError)]
    assert question.UnknownWord in kinds and {k.exit_code for k in kinds} <= documented


def _subclasses(kind: type) -> list[type]:
    return [sub for direct in kind.__subclasses__() for sub in (direct, *_subclasses(direct))]
