"""The build's optional targets: artifacts a solver consumes that are made from build/export, declared as
stages the product hands to the engine (ladders/compose.py), so that they run under the build's mutex,
are rebuilt only when the export (or their code) changed, and are swapped in whole like the export.

- `sql`: reads the export folder, writes `<build dir>/ladder-mysql.sql` (the dump `export-sql` writes,
  sqldump.py's `mysql_dump`), one file written atomically.
- `web`: reads the export folder, writes `<build dir>/web/` (the page `export-web` writes, webexport.py's
  `web_files`), a folder swapped in whole; most of its data files are named by a hash of their content, so the
  transform, not the declaration, names its files.

`ladders build --with sql,web` asks for them; a build without them leaves what an earlier build wrote
as it was. `export-sql` and `export-web` stay as shortcuts writing anywhere (the same functions).
"""

from __future__ import annotations

from pathlib import Path

from pipeline.errors import UsageError
from pipeline.stage import Output, Stage

SQL_FILE = "ladder-mysql.sql"  # in the build folder, as export-sql's default --out
WEB_DIR = "web"  # in the build folder
PAGE = Path(__file__).resolve().parent / "web"


def build_sql(export: Path) -> dict[str, bytes]:
    """The MySQL dump of the export folder."""
    from ladders.artifact.sqldump import mysql_dump

    return {"sql": "".join(mysql_dump(export)).encode()}


def build_web(export: Path) -> dict[str, dict[str, bytes]]:
    """Every file of the solver page of the export folder, by path relative to the page folder."""
    from ladders.artifact.webexport import web_files

    return {"web": web_files(export)}


# Both targets' transforms live in this module, so each target's code is both writers' (an edit to either
# makes both stale: the dump takes 3 s).
_MODULES = (
    "ladders.artifact.contract",
    "ladders.artifact.sqldump",
    "ladders.artifact.webexport",
    "ladders.solve.group",
    "ladders.solve.loaded",
    "ladders.solve.puzzle",
    "ladders.solve.question",
    "ladders.solve.search",
    "ladders.solve.solver",
    "pipeline.alphabet",  # the export's alphabet (contract.export_alphabet): the dump's and the page's
    "pipeline.swap",
)
SQL = Stage(
    number=8,
    name="sql",
    transform=build_sql,
    reads=("export",),
    helpers=_MODULES,
    writes={"sql": Output(SQL_FILE)},
)
WEB = Stage(
    number=9,
    name="web",
    transform=build_web,
    reads=("export",),
    helpers=_MODULES,
    assets=tuple(sorted(p for p in PAGE.iterdir() if p.is_file())),
    writes={"web": Output(WEB_DIR, members={}, named_by_transform=True)},
)
TARGETS = {stage.name: stage for stage in (SQL, WEB)}


def targets(names: list[str] | tuple[str, ...]) -> tuple[Stage, ...]:
    """The target stages named (in their fixed order); an unknown name is a usage error."""
    unknown = sorted(set(names) - set(TARGETS))
    if unknown:
        raise UsageError(f"no build target {', '.join(map(repr, unknown))}; targets are: {', '.join(TARGETS)}")
    return tuple(stage for name, stage in TARGETS.items() if name in names)
