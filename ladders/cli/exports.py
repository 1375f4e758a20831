"""The commands on export folders: `export-sql` and `export-web` (the export as a MySQL dump or a web
page), `release` (build, verify, and the release folder), `verify` (an export against its manifest and
the contract) and `diff` (two exports).

Each reads an export folder through ladders/artifact/; release first builds what is stale (the Runner,
as `build` does), the others read again an export a rebuild swapped meanwhile (pipeline/swap.py). export-sql writes
its dump file or stdout, export-web and release the folder named (a "wrote" note on stderr); verify and
diff print their findings on stdout (text, or one JSON object).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ladders.cli.options import BuildDirOpt, ConfigOpt, ExportOpt, JsonOpt, QuietOpt, ReadDirOpt, export_dir, runner_for
from ladders.cli.output import reported, say, say_line, warn_address_space, write_stdout


def export_sql(
    dialect: Annotated[str, typer.Option(help="SQL dialect: mysql (MySQL and MariaDB).")] = "mysql",
    out: Annotated[
        Optional[Path], typer.Option(help="Dump file [default: <build dir>/ladder-mysql.sql]; - for stdout.")
    ] = None,
    export: ExportOpt = None,
    config: ConfigOpt = None,
    build_dir: ReadDirOpt = None,
) -> None:
    """Write the export as a SQL dump that `mysql DB < FILE` loads: tables words, links and ladder_groups,
    utf8mb4, batched INSERTs, the same indexes as ladder.sqlite, and a final row-count check."""

    from pipeline import io
    from ladders.artifact.sqldump import check_target, mysql_dump
    from pipeline.swap import read_consistently

    warn_address_space("the dump of raw/'s export", "it stops")
    with reported():
        from pipeline.errors import UsageError

        if dialect.lower() not in ("mysql", "mariadb"):
            raise UsageError(f"unknown --dialect {dialect!r}: only mysql (MySQL and MariaDB) is written")
        folder = export_dir(export, config, build_dir)
        # Whole before it is written anywhere: a dump read across a rebuild's swap is read again.
        dump = read_consistently(lambda: "".join(mysql_dump(folder)), folder)
        if out is not None and str(out) == "-":
            write_stdout(dump.encode())
            return
        if out is not None and out.is_dir():
            raise UsageError(f"--out {out} is a folder: name a file (or - for stdout)")
        default = folder.parent / "ladder-mysql.sql"
        if out is not None and out.resolve().parent in (folder.resolve(), folder.parent.resolve()):
            if out.resolve() != default.resolve() and (out.resolve().parent == folder.resolve() or out.exists()):
                raise UsageError(f"--out {out} would replace a file of the export or its build folder; name another")
        target = out or default
        check_target(target)
        io.write_atomic(target, dump.encode(), named_by_user=out is not None)
        say_line(f"wrote {target} ({target.stat().st_size / 1e6:,.1f} MB)")


def export_web(
    folder: Annotated[Path, typer.Argument(help="Folder for the page (new, empty, or written by export-web).")],
    export: ExportOpt = None,
    quiet: QuietOpt = False,
    config: ConfigOpt = None,
    build_dir: ReadDirOpt = None,
) -> None:
    """Write a static solver page into FOLDER: index.html, its scripts, style.css and data/ (a word index,
    buckets of groups with their links, definitions; files named by content, with gzip copies). Serve the folder over HTTP, e.g. `python -m http.server -d FOLDER`;
    ?from=COLD&to=WARM solves on load."""
    from ladders.artifact.webfolder import write_web
    from pipeline import progress
    from pipeline.swap import read_consistently

    progress.configure(quiet)  # a plain line every few seconds when stderr is no terminal (CI, a log)
    warn_address_space("the page of raw/'s export", "it stops")
    with reported():
        source = export_dir(export, config, build_dir)
        size = read_consistently(lambda: write_web(source, folder, say_line), source)
    say_line(f"wrote {folder} ({size / 1e6:,.1f} MB)")


def release(
    folder: Annotated[Path, typer.Argument(help="The release folder: new, empty, or a release to replace.")],
    previous: Annotated[
        Optional[Path],
        typer.Option(help="The last release (a folder, .tar.gz or .zip): CHANGES.md says what changed since."),
    ] = None,
    quiet: QuietOpt = False,
    config: ConfigOpt = None,
    build_dir: BuildDirOpt = None,
) -> None:
    """Build what is stale, verify the export and write a release into FOLDER: the export's files, the MySQL
    dump (ladder-mysql.sql.gz), the web folder (web.tar.gz), NOTICE, CHANGES.md and SHA256SUMS; the same
    inputs give the same bytes. Exit 1 when the export fails verify; 2 when FOLDER holds files but is not a
    release; 3 when the previous release is damaged (a file not matching its SHA256SUMS)."""
    from ladders.artifact.notice import input_paths
    from ladders.artifact.release import check_target, write_release

    warn_address_space()
    with reported():
        check_target(folder)  # a folder of the user's is refused before the build says a word
        runner = runner_for(config, build_dir, quiet)
        runner.build()
        export = runner.build_dir / "export"
        inputs = input_paths(runner.config, export)
        sums = write_release(export, folder, previous, inputs, say_line)
    say_line(f"wrote {folder}: {len(sums)} files and SHA256SUMS")


def verify(
    folder: Annotated[
        Optional[Path], typer.Argument(hidden=True, help="The export, as --export (older usage).")
    ] = None,
    export: ExportOpt = None,
    config: ConfigOpt = None,
    build_dir: ReadDirOpt = None,
    quiet: QuietOpt = False,
    as_json: JsonOpt = False,
) -> None:
    """Check an export against its manifest and the contract's invariants.

    Exit 0 when every check holds; otherwise one line per failed check (its
    code, what failed, up to five examples) and exit 1. --json prints
    {"export", "checks": N, "failed": [{"code", "message", "examples"}]}.
    """
    import json

    from pipeline import progress
    from ladders.artifact.verify import CHECKS, verify as run_checks
    from pipeline.swap import read_consistently

    progress.configure(quiet or as_json)
    warn_address_space("verify of raw/'s export", "it stops")
    with reported(as_json):
        if folder is not None and export is not None:
            from pipeline.errors import UsageError

            raise UsageError("give the export once: --export FOLDER")
        folder = export_dir(export or folder, config, build_dir)
        failed = read_consistently(lambda: run_checks(folder), folder)
    if as_json:
        say(
            json.dumps(
                {
                    "export": str(folder),
                    "checks": len(CHECKS),
                    "failed": [{"code": c, "message": m, "examples": x} for c, m, x in failed],
                },
                ensure_ascii=False,
            )
        )
        if failed:
            raise typer.Exit(1)
        return
    for code, message, examples in failed:
        say(f"{code} {message}: {'; '.join(examples)}")
    if failed:
        raise typer.Exit(1)
    say(f"{folder}: all {len(CHECKS)} checks hold")


def diff(
    old: Annotated[Path, typer.Argument(help="The older export folder.")],
    new: Annotated[Path, typer.Argument(help="The newer export folder.")],
    as_json: JsonOpt = False,
) -> None:
    """What changed between two exports: words, links, groups (matched by members), rareness, rareness labels,
    definitions and flags.

    --json prints {"words": {LEXICON: {"added", "removed"}}, "links": {"added",
    "removed": [[A, B, KIND], ...]}, "groups": {"csw/sub"...: {"merged": [{"into",
    "from"}], "split": [{"from", "into"}], "appeared", "vanished"}}, each column pipeline/columns.py
    compares by value ("rareness", ...), "labels", "definitions": [{"word", "old", "new"}], "flags": [{"word", "flag",
    "old", "new"}]}; a group is
    named by its first word and size, e.g. "COLD (5378)". Exit 0 when the
    exports agree, 1 when they differ.
    """
    import json

    from ladders.artifact.diff import describe, diff_exports
    from pipeline.swap import read_consistently

    warn_address_space("a diff of raw/'s exports", "it stops")
    with reported(as_json):
        result = read_consistently(lambda: diff_exports(old, new), old, new)
    if as_json:
        say(json.dumps(result, ensure_ascii=False))
    else:
        for line in describe(result):
            say(line)
    if _nonempty(result):
        raise typer.Exit(1)


def _nonempty(value) -> bool:
    if isinstance(value, dict):
        return any(_nonempty(v) for v in value.values())
    return bool(value)
