"""`ladders verify`: an export checked against its manifest and the contract's invariants.

CHECKS is the one table of codes: each code and its check, in the order verify runs them (code_table gives the
docs' table of them). A check is a function of ladders/artifact/checks/ that takes the export
(checks/export.py's `Export`: the manifest, words.parquet and groups.parquet each read once; E001 hashes every
file, and the checks that need longest.parquet or ladder.sqlite read them themselves) and returns what it
found wrong; its docstring is the message printed when it fails, followed by up to EXAMPLES (five) of the
lines it returned. The generic ones derive from the column table (pipeline/columns.py): E002 each column's
dtype, E005 its nullability, E006 its `derive` rule. The checks recompute what they test from the export alone
(no stage code), so they are an independent second opinion on the pipeline; two exceptions: E502 proposes a
word's base forms by the stage's own morphology (stages.rules.morphology.proposed_bases, lent by
ladders/compose.py), as the rule it checks is stated in those terms, and E401 encodes its expected rows with
the SQLite writer's own pipeline.sqlite.sqlite_words.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pipeline import progress
from ladders.artifact.checks import files, groups, links, words
from ladders.artifact.checks.export import EXAMPLES, Export

CHECKS: list[tuple[str, Callable[[Export], list[str]]]] = [
    ("E001", files.files_match_manifest),
    ("E004", files.manifest_lists_every_file),
    ("E002", files.schemas_match_contract),
    ("E005", files.nulls_where_the_table_allows),
    ("E006", files.derived_columns_follow_their_rule),
    ("E003", files.ids_alphabetical),
    ("E101", links.links_symmetric),
    ("E102", links.no_self_links),
    ("E103", links.lists_ascending_without_duplicates),
    ("E104", links.links_one_substitution),
    ("E105", links.edit_links_one_indel),
    ("E108", links.links_complete),
    ("E109", links.edit_links_complete),
    ("E106", words.owl_within_csw),
    ("E107", words.lexicons_as_made),
    ("E201", groups.groups_are_components),
    ("E202", groups.group_ids_in_order),
    ("E203", groups.group_table_matches_words),
    ("E204", groups.longest_ladders_hold),
    ("E301", words.rareness_follows_levels),
    ("E501", words.offensive_and_vulgar_sense_disjoint),
    ("E502", words.forms_of_offensive_words_offensive),
    ("E401", files.sqlite_matches_parquet),
]


def code_table() -> str:
    """The codes and what each one finds, as the Markdown table docs/architecture.md holds
    (tests/unit/ladders/artifact/test_verify_codes.py keeps them equal): CHECKS is the one list of codes, each
    check's docstring its meaning."""
    rows = sorted((code, " ".join(fn.__doc__.split()).replace("|", "\\|")) for code, fn in CHECKS)
    return "| code | fails when |\n|---|---|\n" + "".join(f"| {code} | {what} |\n" for code, what in rows)


def verify(folder: Path) -> list[tuple[str, str, list[str]]]:
    """(code, message, examples) for every failed check; empty when the export holds."""
    export = Export(Path(folder))
    export.manifest  # noqa: B018 -- a folder without a manifest is an error, not a failed check
    failed = []
    for code, fn in progress.track(CHECKS, "verify"):
        try:
            examples = fn(export)
        except (MemoryError, ImportError):  # the machine (ulimit -v), not the export: the command's one line
            raise
        except Exception as err:  # a damaged file makes its checks fail, not the command crash
            examples = [f"{type(err).__name__}: {str(err).splitlines()[0] if str(err) else ''}"]
        if examples:
            failed.append((code, (fn.__doc__ or "").strip(), examples[:EXAMPLES]))
    return failed
