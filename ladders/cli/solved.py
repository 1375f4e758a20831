"""How `ladders solve` prints the two ladders it found: as text, or as the one JSON shape of docs/json.md.

Text: a line on the request and its group, then each ladder's title and one line per rung (word, rareness
label, rareness, definition cut to the terminal's width). The two ladders are printed once when they are
the same words; when no ladder of everyday words joins the two words, it says so and titles the
common-word ladder the least-rare ladder. JSON: docs/json.md's success shape, which the PHP solver shares.
Writes stdout only; every text from the export goes through pipeline/terminal.py's `inert`.
"""

from __future__ import annotations

import json

from ladders.cli.output import say

NO_EVERYDAY = "no ladder of everyday words joins them"


def steps(n: int) -> str:
    return f"{n} step" + ("" if n == 1 else "s")


def ladder_json(ladder) -> dict:
    """A LADDER of docs/json.md: steps, rareness (sum), cost (the common-word rule's), ties, everyday, words."""
    from pipeline.columns import Col  # each rung as the export's columns name it

    return {
        "steps": ladder.steps,
        "rareness": ladder.rareness,  # not a column: the ladder's sum
        "cost": ladder.cost,
        "ties": ladder.count,
        "everyday": ladder.everyday,
        "words": [
            {Col.word: r.word, "label": r.label, Col.rareness: r.rareness, Col.definition: r.definition}
            for r in ladder.rungs
        ],
    }


def print_json(short, common, lexicon: str, edit: bool, clean: str) -> None:
    """solve --json: the request, the group, both ladders and whether they are the same words."""
    # The request as given, then its group; these keys are solve's own output, not the export's columns.
    asked = {"from": short.words[0], "to": short.words[-1], "lexicon": lexicon, "edit": edit}  # not a column
    group = {"column": short.group_column, "id": short.group_id, "size": short.group_size}  # not a column
    say(
        json.dumps(
            {
                **asked,
                "clean": clean != "off",
                "strict": clean == "strict",
                "group": group,
                "shortest": ladder_json(short),
                "common": ladder_json(common),
                "same": short.words == common.words,
            },
            ensure_ascii=False,
        )
    )


def print_text(short, common, lexicon: str, edit: bool, no_everyday: bool) -> None:
    """solve: a line on the request and its group, then each ladder's title and its rungs (once when the same)."""
    mode = "letters changed, inserted or deleted" if edit else "letters changed"
    say(f"{short.words[0]} -> {short.words[-1]}: {lexicon.upper()}, {mode}; a group of {short.group_size:,} words")
    if no_everyday:
        say(f"{NO_EVERYDAY[0].upper()}{NO_EVERYDAY[1:]}: the least-rare ladder is shown.")
    second = "Least-rare ladder" if no_everyday else "Common-word ladder"
    if short.words == common.words:
        also = "all everyday words too" if common.everyday else f"the {second.lower()} too"
        shown = [(f"Shortest ladder, {also}", short, common.cost)]
    else:
        shown = [("Shortest ladder", short, None), (second, common, common.cost)]
    for title, ladder, cost in shown:
        ties = f", one of {ladder.count:,}" if ladder.count > 1 else ""
        priced = f", cost {cost:,}" if cost is not None else ""
        say(f"\n{title}: {steps(ladder.steps)}{priced}, rareness {ladder.rareness:,}{ties}")
        for line in rung_lines(ladder):
            say(line)


def rung_lines(ladder, width: int | None = None) -> list[str]:
    """One line per rung, its definition cut to the terminal's width (at least 40 characters of it)."""
    import shutil

    from pipeline.terminal import inert

    width = width or shutil.get_terminal_size((100, 24)).columns
    longest = max(len(w) for w in ladder.words)
    out = []
    for r in ladder.rungs:
        # Escaped before it is cut, a newline too: a hand-edited definition must not print a rung of its own.
        text = inert(r.definition).replace("\n", "\\n") if r.definition else "(no definition)"
        head = f"  {r.word:<{longest}} {r.label:<8} {r.rareness:>9,}  "
        room = max(width - len(head) - 1, 40)
        out.append(head + (text if len(text) <= room else text[: room - 3] + "..."))
    return out
