"""The commands that play on an export: `solve` (the ladders between two words) and `puzzle` (start/end
pairs exactly N steps apart), and how their answers print.

Both read an export folder through ladders/solve/ (solver.Ladders; puzzle.puzzles) and print on stdout:
text (a ladder as one line per rung: word, rareness label, rareness, definition cut to the terminal's
width) or one JSON object; puzzle's progress bar and its note of fewer puzzles than asked go to stderr.
They write no file.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ladders.cli.options import ConfigOpt, ExportOpt, JsonOpt, ReadDirOpt, export_dir, refuse_idle, refuse_over
from ladders.cli import solved
from ladders.cli.output import reported, say, warn_address_space

# Bounds of the commands whose work grows with a number given (issue 38: `solve --all --limit 100000000`
# took 6.4 GB in 60 s, `puzzle --count 100000` ran on past 120 s).
MAX_LIMIT = 10_000
MAX_COUNT = 20  # 1,000 start words at most: 34 ms each for 6 letters, 12 steps, --common on raw/

EditOpt = Annotated[bool, typer.Option("--edit", help="Also insert or delete a letter per step.")]
SolveCleanOpt = Annotated[
    bool,
    typer.Option(
        "--clean", help="Keep out only words flagged offensive: everyday words with a vulgar sense (ASS) are allowed."
    ),
]
NoCleanOpt = Annotated[bool, typer.Option("--no-clean", help="Every word, flagged or not.")]
StrictOpt = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="The default (kept for scripts that name it): no word flagged offensive or vulgar_sense (ASS, COCK).",
    ),
]
AllOpt = Annotated[bool, typer.Option("--all", help="Count the shortest ladders and list some.")]
CountOnlyOpt = Annotated[
    bool, typer.Option("--count-only", help="Print only how many ladders of the fewest steps there are.")
]
LimitOpt = Annotated[
    Optional[int], typer.Option(min=1, help=f"With --all: how many to list, at most {MAX_LIMIT:,} [default: 10].")
]
PuzzleLexiconOpt = Annotated[
    str, typer.Option(help="Word list of the start, end and steps: any lexicon the export holds (any case).")
]
MovesOpt = Annotated[
    Optional[str],
    typer.Option(help="Accept moves through another lexicon's words (e.g. --lexicon everyday --moves csw)."),
]
CommonOpt = Annotated[
    bool, typer.Option("--common", help="Start and end on everyday words, with a par ladder of everyday words.")
]
PuzzleCleanOpt = Annotated[
    bool,
    typer.Option(
        "--clean/--no-clean",
        help="No word flagged offensive or vulgar_sense (the default: puzzles are for families); "
        "--no-clean allows every word.",
    ),
]
PuzzleStrictOpt = Annotated[
    bool,
    typer.Option("--strict", help="The same as --clean, the default (kept for scripts that name it)."),
]
DailyOpt = Annotated[bool, typer.Option("--daily", help="The web page's puzzle of DATE (default: today, UTC).")]
DateArg = Annotated[
    Optional[str], typer.Argument(help="With --daily: YYYY-MM-DD.", show_default=False, metavar="[DATE]")
]
ShowParOpt = Annotated[bool, typer.Option("--show-par", help="Also print a par ladder of each puzzle.")]
CountOpt = Annotated[
    int,
    typer.Option(min=1, help=f"How many puzzles, at most {MAX_COUNT} (fewer when fewer are found: it says so)."),
]


def solve(
    start: Annotated[str, typer.Argument(help="The first word.", show_default=False)],
    end: Annotated[str, typer.Argument(help="The last word.", show_default=False)],
    lexicon: Annotated[
        Optional[str],
        typer.Option(
            help="Word list: any lexicon the export holds (csw, owl, everyday by default; any case). "
            "Default: csw, or a language export's own list (es).",
            show_default=False,
        ),
    ] = None,
    edit: EditOpt = False,
    clean: SolveCleanOpt = False,
    no_clean: NoCleanOpt = False,
    strict: StrictOpt = False,
    seed: Annotated[Optional[int], typer.Option(help="Break ties reproducibly.")] = None,
    as_json: JsonOpt = False,
    all_ladders: AllOpt = False,
    count_only: CountOnlyOpt = False,
    limit: LimitOpt = None,
    export: ExportOpt = None,
    config: ConfigOpt = None,
    build_dir: ReadDirOpt = None,
) -> None:
    """Find the shortest ladder and the common-word ladder from START to END.

    The shortest ladder has the fewest steps, then the least sum of rareness
    over its words. The common-word ladder costs each everyday word 1, an
    uncommon word 5 and any other word its rareness: the least cost, then the fewest steps, then the
    least rareness. When no ladder of everyday words joins the two, it is
    said, and the common-word ladder is titled the least-rare ladder. When
    both ladders are the same words, it is printed once. Exact ties are drawn
    at random; --seed makes the draw repeatable.

    Family-safe by default: no word flagged offensive or vulgar_sense is
    stepped on; --clean keeps out only offensive words, --no-clean none.

    --json prints one object, the shape of docs/json.md (shared with the PHP
    solver). With --all: {"from", "to", "count", "ladders": [[word, ...],
    ...]}, the ladders in a stable order (walked back from END,
    alphabetically). --count-only prints the exact number of ladders of the
    fewest steps ({"from", "to", "steps", "count"} with --json).

    Exit codes: 0 found; 2 bad usage; 3 a missing or damaged export (a group
    whose rows are not what ladders wrote is named); 10 unknown word (with
    suggestions); 11 lengths differ (without --edit); 12 the words are in
    different groups, so no ladder exists (or none avoids the flagged words);
    13 the same word twice; 14 an end word is flagged (offensive or
    vulgar_sense; never with --no-clean).
    """
    from ladders.artifact.contract import default_lexicon
    from ladders.solve.solver import Ladders

    with reported(as_json):
        _refuse_idle_solve_options(limit, seed, all_ladders, count_only)
        clean = _clean_level(clean, no_clean, strict)
        folder = export_dir(export, config, build_dir)
        ladders = Ladders.open(folder)
        lexicon = (lexicon or default_lexicon(folder)).lower()
        if count_only:
            _print_count(*ladders.all_shortest(start, end, lexicon, edit, 1, clean), as_json)
            return
        if all_ladders:
            _print_all_shortest(*ladders.all_shortest(start, end, lexicon, edit, limit or 10, clean), as_json)
            return
        short = ladders.shortest(start, end, lexicon, edit, seed, clean)
        common = ladders.common(start, end, lexicon, edit, seed, clean)
        if (short.cost, short.steps, short.rareness) == (common.cost, common.steps, common.rareness):
            # The shortest ladder drawn ties for the common-word one too: that ladder, said once (its ties
            # counted under the common-word rule still).
            common = common._replace(rungs=short.rungs)
        # Said only when so: a common-word ladder may leave everyday words where an everyday ladder exists
        # (a far longer one), so its words alone do not tell.
        no_everyday = not common.everyday and not ladders.everyday_joins(start, end, lexicon, edit, clean)
    if as_json:
        solved.print_json(short, common, lexicon, edit, clean)
    else:
        solved.print_text(short, common, lexicon, edit, no_everyday)


def _clean_level(clean: bool, no_clean: bool, strict: bool) -> str:
    """The clean level of solve's flags: strict (the default), on (--clean) or off (--no-clean)."""
    from pipeline.errors import UsageError

    if no_clean and (clean or strict):
        raise UsageError(f"--no-clean allows every word; {'--clean' if clean else '--strict'} keeps some out")
    if clean and strict:
        raise UsageError("--clean allows words flagged vulgar_sense; --strict (the default) keeps them out")
    return "off" if no_clean else "on" if clean else "strict"


def _refuse_idle_solve_options(limit: Optional[int], seed: Optional[int], all_ladders: bool, count_only: bool) -> None:
    """Usage errors of solve's options that would do nothing together, and of a --limit too large."""
    refuse_idle(
        {
            "--limit": (limit is not None and not all_ladders, "it says how many ladders --all lists"),
            "--seed": (
                seed is not None and (all_ladders or count_only),
                "--all and --count-only list or count every shortest ladder: no tie to break",
            ),
            "--all": (all_ladders and count_only, "--count-only prints the count alone"),
        }
    )
    refuse_over("--limit", limit or 0, MAX_LIMIT, "each ladder listed is held in memory; --count-only counts them all")


def _print_count(count: int, found: list, as_json: bool) -> None:
    """solve --count-only: the number of shortest ladders (found holds the first, for its ends and steps)."""
    import json

    say(
        json.dumps({"from": found[0].words[0], "to": found[0].words[-1], "steps": found[0].steps, "count": count})
        if as_json
        else f"{count}"
    )


def _print_all_shortest(count: int, found: list, as_json: bool) -> None:
    """solve --all: how many shortest ladders there are, and the first `--limit` of them, a line each."""
    import json

    if as_json:
        say(
            json.dumps(
                {
                    "from": found[0].words[0],
                    "to": found[0].words[-1],
                    "count": count,
                    "ladders": [f.words for f in found],
                }
            )
        )
        return
    say(
        f"{count:,} shortest ladder{'s' if count != 1 else ''} of {solved.steps(found[0].steps)}"
        + (":" if len(found) == count else f"; the first {len(found)}:")
    )
    for f in found:
        say("  " + " ".join(f.words))


def puzzle(
    length: Annotated[int, typer.Option(min=1, help="Letters in the start and end words.")] = 4,
    steps: Annotated[int, typer.Option(min=1, help="Steps of the shortest ladder, exactly.")] = 5,
    lexicon: PuzzleLexiconOpt = "csw",
    moves: MovesOpt = None,
    edit: EditOpt = False,
    common: CommonOpt = False,
    clean: PuzzleCleanOpt = True,
    strict: PuzzleStrictOpt = False,
    seed: Annotated[Optional[int], typer.Option(help="Draw the same puzzles again.")] = None,
    count: CountOpt = 1,
    daily: DailyOpt = False,
    date: DateArg = None,
    show_par: ShowParOpt = False,
    as_json: JsonOpt = False,
    export: ExportOpt = None,
    config: ConfigOpt = None,
    build_dir: ReadDirOpt = None,
) -> None:
    """Draw start/end pairs whose shortest ladder is exactly --steps steps.

    --daily [DATE]: the web page's puzzle of that date (YYYY-MM-DD; today's,
    by the UTC date, without one), picked by the page's own rule among the
    puzzles export-web draws; it takes no other drawing option. --show-par
    adds a par ladder of each puzzle (one of its shortest ladders, the least
    rare; "par" in --json).

    Difficulty, from "odds": the odds per rung that a player picking each
    rung at random among the words one letter away finds a par ladder (easy
    from 0.2, medium from 0.14, hard from 0.1, fiendish below), one level
    harder when no par ladder keeps to everyday words. --json prints {"asked",
    "found", "puzzles": [{"start", "end", "steps", "ladders", "all_common",
    "difficulty", "odds", "moves_steps"}]} (moves_steps: with --moves, the
    shortest ladder through that lexicon's words; else null); with --daily
    {"date", "start", "end", "length", "steps", "difficulty"}. When
    fewer puzzles than --count are found, a line on stderr says so (exit 0).
    Exit 2 when no ladder of that many steps exists between words of that
    length (the message names the longest). A progress bar shows after a
    second (on a terminal).
    """
    from pipeline import progress
    from ladders.solve.puzzle import ATTEMPTS, puzzles
    from ladders.solve.solver import Ladders

    progress.configure(False)  # a bar on stderr, only on a terminal and only past a second
    warn_address_space("a puzzle of raw/'s export", "it stops")
    if daily or date is not None:
        given = {"--length": length != 4, "--steps": steps != 5, "--lexicon": lexicon.lower() != "csw"}
        given |= {"--moves": moves is not None, "--edit": edit, "--common": common, "--no-clean": not clean}
        given |= {"--strict": strict, "--count": count != 1}
        _print_daily(daily, date, given, seed, show_par, as_json, export_dir(export, config, build_dir))
        return
    with reported(as_json):
        refuse_idle({"--strict": (strict and not clean, "--no-clean allows every word, --strict refuses some")})
        refuse_over("--count", count, MAX_COUNT, f"each puzzle tries up to {ATTEMPTS} start words")
        found = puzzles(
            Ladders.open(export_dir(export, config, build_dir)),
            length,
            steps,
            lexicon.lower(),
            edit,
            common,
            "strict" if clean or strict else "off",
            seed,
            count,
            moves.lower() if moves else None,
        )
    if len(found) < count:
        say(
            f"found {len(found)} of the {count} puzzles asked for: {ATTEMPTS * count:,} start words tried "
            f"(fewer pairs of {length}-letter words are {solved.steps(steps)} apart)",
            err=True,
        )
    level = "strict" if clean or strict else "off"
    pars = (
        _pars(found, lexicon.lower(), edit, level, seed, as_json, export_dir(export, config, build_dir))
        if show_par
        else None
    )
    _print_puzzles(found, count, moves, as_json, pars)


def _pars(found: list, lexicon: str, edit: bool, clean: str, seed, as_json: bool, folder) -> list[list[str]]:
    """A par ladder of each puzzle: its least rare shortest ladder, through the words the puzzle allows."""
    from ladders.solve.solver import Ladders

    with reported(as_json):
        ladders = Ladders.open(folder)
        return [ladders.shortest(p.start, p.end, lexicon, edit, seed, clean).words for p in found]


def _print_daily(daily, date, given, seed, show_par, as_json, folder) -> None:
    """puzzle --daily [DATE]: the page's puzzle of the date (today's, UTC), and with --show-par a par ladder."""
    import json
    import re
    from datetime import date as day, datetime, timezone

    from ladders.artifact.webexport import page_puzzles
    from ladders.solve.puzzle import daily as pick
    from ladders.solve.solver import Ladders

    with reported(as_json):
        refuse_idle({"DATE": (not daily, "a date names the daily puzzle: --daily DATE")})
        refuse_idle({option: (on, "--daily is the page's puzzle, drawn its own way") for option, on in given.items()})
        when = date if date is not None else datetime.now(timezone.utc).date().isoformat()
        try:  # a real calendar date, written as the page writes it
            ok = bool(re.fullmatch(r"\d{4}-\d{2}-\d{2}", when)) and day.fromisoformat(when).isoformat() == when
        except ValueError:
            ok = False
        if not ok:
            from pipeline.errors import UsageError

            raise UsageError(f"{when[:20]!r} is not a date: write it as 2026-11-23")
        chosen = {"date": when} | pick(page_puzzles(folder), when)
        start, end = chosen["start"], chosen["end"]  # not a column: the page's puzzles' keys
        if show_par:
            chosen["par"] = Ladders.open(folder).shortest(start, end, seed=seed, clean="strict").words
    if as_json:
        say(json.dumps(chosen))
        return
    say(
        f"Puzzle of {when}: {start} -> {end}: {solved.steps(chosen['steps'])}, "
        f"{chosen['difficulty']}" + (f"\n  par: {' '.join(chosen['par'])}" if show_par else "")
    )


def _print_puzzles(found: list, asked: int, moves: Optional[str], as_json: bool, pars: list | None) -> None:
    """puzzle: each pair, its steps, how many shortest ladders, its difficulty (and its steps via --moves),
    and with --show-par a par ladder."""
    import json
    from dataclasses import asdict

    if as_json:
        listed = [asdict(p) | ({"par": par} if pars else {}) for p, par in zip(found, pars or found)]
        say(json.dumps({"asked": asked, "found": len(found), "puzzles": listed}))
        return
    for p, par in zip(found, pars or found):
        say(
            f"{p.start} -> {p.end}: {solved.steps(p.steps)}, {p.ladders:,} shortest ladder"
            f"{'s' if p.ladders != 1 else ''}, {p.difficulty}"
            + (f"; {solved.steps(p.moves_steps)} through {moves.lower()} words" if p.moves_steps is not None else "")
            + (f"\n  par: {' '.join(par)}" if pars else "")
        )
