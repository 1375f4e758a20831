"""The judged ladder panel: would a player accept every rung of the ladders `ladders solve` shows?

Reads an export (through the solver) and the judged panel tests/data/ladder_panel.tsv: one row per
everyday pair (3-6 letters) and ladder kind, with columns `pair` (START-END), `kind` (shortest or
common), `steps`, `words` (the ladder judged, space-separated), `accept` (yes or no: would a player
accept every rung?) and `reason` (for a no, the rung refused and why). Both ladders are solved at the
page's default level (strict: no offensive and no vulgar_sense word) with seed 0. `make audit` prints
the table: each pair's two ladders, their lengths and judgements, and the ladders that changed since
they were judged (those are judged again, never to make a number pass).
"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl

PANEL = Path(__file__).resolve().parents[2] / "tests" / "data" / "ladder_panel.tsv"
KINDS = ("shortest", "common")
LEVEL = "strict"  # the page's default: what a player meets first
SEED = 0


def read_panel(path: Path = PANEL) -> pl.DataFrame:
    return pl.read_csv(path, separator="\t", quote_char=None, schema_overrides={"reason": pl.String})


def solved(export: Path, pairs: list[str]) -> dict[tuple[str, str], list[str]]:
    """(pair, kind) -> the ladder's words as the solver gives them now."""
    from ladders.solve.solver import Ladders

    ladders, found = Ladders.open(export), {}
    for pair in pairs:
        start, end = pair.split("-")
        found[pair, "shortest"] = ladders.shortest(start, end, seed=SEED, clean=LEVEL).words
        found[pair, "common"] = ladders.common(start, end, seed=SEED, clean=LEVEL).words
    return found


def report(panel: pl.DataFrame, now: dict[tuple[str, str], list[str]]) -> str:
    """The panel's table, one line per pair, and the counts over the pairs whose ladders are unchanged."""
    judged = {(r["pair"], r["kind"]): r for r in panel.rows(named=True)}  # not a column: the panel's own
    pairs = list(dict.fromkeys(panel["pair"]))
    out = [f"{'pair':<16} {'shortest':>8} {'ok':>3} {'common':>6} {'ok':>3}  ladders (shortest | common)"]
    counts = {kind: [0, 0] for kind in KINDS}  # accepted, judged and unchanged
    changed, same_length = [], 0
    for pair in pairs:
        cells = []
        for kind in KINDS:
            row, words = judged[pair, kind], now[pair, kind]
            if row["words"].split() != words:
                changed.append(f"  {pair} {kind}: judged {row['words']}; now {' '.join(words)}")
                cells.append((len(words) - 1, "?"))
                continue
            counts[kind][1] += 1
            counts[kind][0] += row["accept"] == "yes"
            cells.append((len(words) - 1, row["accept"]))
        same_length += cells[0][0] == cells[1][0]
        out.append(
            f"{pair:<16} {cells[0][0]:>8} {cells[0][1]:>3} {cells[1][0]:>6} {cells[1][1]:>3}  "
            f"{' '.join(now[pair, 'shortest'])} | {' '.join(now[pair, 'common'])}"
        )
    out.append("")
    for kind in KINDS:
        ok, of = counts[kind]
        out.append(f"{kind}: a player accepts every rung in {ok} of {of} judged ladders")
    out.append(f"common ladder as short as the shortest: {same_length} of {len(pairs)} pairs")
    if changed:
        out += ["", "changed since judged (judge again):", *changed]
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    """`python -m ladders.artifact.panel [EXPORT_DIR]` (default: the configured build's export)."""
    from pipeline.config import load_config
    from pipeline.errors import PipelineError

    export = Path(argv[0]) if argv else Path(load_config()["build_dir"]) / "export"
    panel = read_panel()
    try:
        now = solved(export, list(dict.fromkeys(panel["pair"])))
    except PipelineError as e:
        print(f"panel: {e}", file=sys.stderr)
        return 2
    sys.stdout.write("judged ladder panel (tests/data/ladder_panel.tsv)\n" + report(panel, now))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
