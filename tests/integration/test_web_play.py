"""Play mode of the static page in a real browser (`make test-web`): a puzzle played to the end from the
keyboard, only the puzzle kinds that exist offered, a shared or daily puzzle that cannot be says why, and
a past day's puzzle is not called today's. The browser and the pages: tests/support/chromium.py."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import polars as pl
import pytest
from support.paths import ROOT
from ladders.solve.solver import Ladders
from support.chromium import built_page

pytestmark = pytest.mark.web


def test_a_puzzle_played_to_the_end_from_the_keyboard(browser, site):
    """The daily puzzle of a date: the same for two visitors, one of `ladders puzzle`'s generator; a
    refused word with its reason, a hint one step nearer, the rest typed, par at the end."""
    url, export = site
    solver = Ladders.open(export)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page, other = context.new_page(), context.new_page()
    for p in (page, other):
        p.goto(f"{url}?daily=2026-11-23")
        p.wait_for_function("document.body.dataset.puzzle", timeout=30_000)
    start, end = page.evaluate("document.body.dataset.puzzle").split("-")
    assert other.evaluate("document.body.dataset.puzzle") == f"{start}-{end}"
    drawn = json.loads(next((built_page(export) / "data").glob("puzzles.*.json")).read_bytes())
    mine = [p for p in drawn if (p["start"], p["end"]) == (start, end)]
    assert mine and mine[0]["steps"] == solver.shortest(start, end, clean="strict").steps
    levels = dict(pl.read_parquet(export / "words.parquet", columns=["word", "scowl_level"]).rows())
    assert all(levels[w] is not None and levels[w] <= 35 for w in (start, end))  # everyday ends
    par = mine[0]["steps"]
    unlabelled = page.evaluate("""[...document.querySelectorAll('input, select, button')]
        .filter(e => !e.labels?.length && !e.textContent.trim() && !e.getAttribute('aria-label')).map(e => e.id)""")
    assert unlabelled == []
    assert page.evaluate("document.activeElement.id") == "p-word"  # the keyboard starts in the word field

    def status():
        return page.text_content("#p-status"), page.get_attribute("#p-status", "class")

    page.keyboard.type(end.lower())
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#p-status').className === 'error'")
    assert status() == (f"{end} is not one step from {start}: change exactly one letter.", "error")
    page.fill("#p-word", "")
    page.keyboard.type("q" * len(start))
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelector('#p-status').textContent.startsWith('{'Q' * len(start)}')")
    assert status() == (f"{'Q' * len(start)} is not in the CSW word list.", "error")
    page.fill("#p-word", "")
    page.keyboard.press("Tab")  # Play
    page.keyboard.press("Tab")  # Hint
    assert page.evaluate("document.activeElement.id") == "p-hint"
    page.keyboard.press("Enter")
    page.wait_for_selector("#p-rungs li.hint")
    hinted = page.get_attribute("#p-rungs li.hint", "data-word")
    assert solver.shortest(hinted, end, clean="strict").steps == par - 1
    assert (
        hinted in {w for w in solver.shortest(start, hinted, clean="strict").words}
        and solver.shortest(start, hinted, clean="strict").steps == 1
    )
    for word in solver.shortest(hinted, end, clean="strict").words[1:]:
        assert page.evaluate("document.activeElement.id") == "p-word"
        page.keyboard.type(word.lower())
        page.keyboard.press("Enter")
        page.wait_for_function(f"[...document.querySelectorAll('#p-rungs li')].some(e => e.dataset.word === '{word}')")
    page.wait_for_function("document.body.dataset.finished", timeout=30_000)
    assert page.evaluate("document.body.dataset.finished") == f"{par}/{par}"
    assert status() == (f"Solved in {par} steps with 1 hint: par!", "")
    shown = page.eval_on_selector_all("#p-end li", "els => els.map(e => e.dataset.word)")
    assert shown[0] == start and shown[-1] == end and len(shown) - 1 == par
    assert all(b in {solver_words for solver_words in neighbours(export, a)} for a, b in zip(shown, shown[1:]))
    assert page.text_content("#p-end h2") == f"Par {par}; you took {par}. A shortest ladder:"
    shot = (
        ROOT / "build" / "web-play.png"
        if (ROOT / "build" / ".ladders-build").exists()
        else export.parent / "web-play.png"
    )
    page.locator("#play").screenshot(path=str(shot))  # docs/web-play.png is a copy
    print(f"screenshot: {shot}")
    context.close()


@functools.cache
def _links(export: Path) -> dict[str, set[str]]:
    words = pl.read_parquet(export / "words.parquet", columns=["word", "links"])
    names = words["word"].to_list()
    return {w: {names[i] for i in ns} for w, ns in words.rows()}


def neighbours(export: Path, word: str) -> set[str]:
    return _links(export)[word]


def test_the_page_offers_only_puzzle_kinds_that_exist(browser, site):
    """Every letters/steps/difficulty choice left enabled has puzzles (given the other two choices); a
    choice without any is disabled, and the daily pool's puzzles all start and end on everyday words."""
    url, export = site
    drawn = json.loads(next((built_page(export) / "data").glob("puzzles.*.json")).read_bytes())
    page = browser.new_page()
    page.goto(url)
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=30_000)
    kinds = {(p["length"], p["steps"], p["difficulty"]) for p in drawn}
    for length in ("3", "4", "5", "6"):
        page.select_option("#p-length", length)
        page.dispatch_event("#p-length", "change")
        page.wait_for_timeout(300)  # offerPuzzles runs after the change event, on a fetched (cached) list
        chosen = int(page.eval_on_selector("#p-length", "e => e.value"))
        steps = page.eval_on_selector_all("#p-steps option", "os => os.map(o => [o.value, o.disabled])")
        for value, disabled in steps:
            assert disabled == (not any(k[:2] == (chosen, int(value)) for k in kinds)), (chosen, value)
    levels = dict(pl.read_parquet(export / "words.parquet", columns=["word", "scowl_level"]).rows())
    assert all(levels[p[end]] is not None and levels[p[end]] <= 35 for p in drawn for end in ("start", "end"))


@pytest.mark.parametrize(
    "pair, message",
    [
        ("COLD-COLD", "COLD and COLD are the same word: a puzzle needs two."),
        ("CAT-WARM", "CAT has 3 letters and WARM has 4: a puzzle's words have one length."),
    ],
)
def test_a_shared_puzzle_that_cannot_be_says_why(browser, site, pair, message):
    """Both said "no clean ladder joins them"."""
    page = browser.new_page()
    page.goto(f"{site[0]}?play={pair}")
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=30_000)
    page.wait_for_function("document.getElementById('p-status').textContent !== ''", timeout=30_000)
    assert page.text_content("#p-status") == message


@pytest.mark.parametrize(
    "date, said",
    [("9999-99-99", "?daily=9999-99-99 is not a date: write it as 2026-11-23."), ("2026-02-30", None)],
)
def test_a_daily_puzzle_of_a_date_that_is_not_one_is_refused(browser, site, date, said):
    page = browser.new_page()
    page.goto(f"{site[0]}?daily={date}")
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=30_000)
    assert page.text_content("#p-status") == (said or f"?daily={date} is not a date: write it as 2026-11-23.")


def test_a_past_days_puzzle_is_not_called_todays_and_sets_the_selectors(browser, site):
    page = browser.new_page()
    page.goto(f"{site[0]}?daily=2026-11-23")
    page.wait_for_function("document.body.dataset.puzzle", timeout=30_000)
    goal = page.text_content("#p-goal")
    assert "the puzzle of 2026-11-23" in goal and "today's" not in goal
    start = page.evaluate("document.body.dataset.puzzle").split("-")[0]
    assert page.evaluate("$('p-length').value") == str(len(start))


# ---- issue 42 item 13: an export without CSW plays in its own lists, or offers no play mode ---------------


@pytest.fixture(scope="module")
def owl_only(tmp_path_factory):
    """An export of raw/'s 4-letter OWL words alone (no csw, no everyday lexicon) and its page, served."""
    from support.chromium import Server, export_web
    import subprocess
    import sys

    root = tmp_path_factory.mktemp("owl-only")
    words = [w for w in (ROOT / "raw/lexicons/twl06.txt").read_text().split() if len(w) == 4]
    (root / "owl.txt").write_text("\n".join(words) + "\n")
    (root / "config.toml").write_text(
        'owl = "owl.txt"\nbuild_dir = "build"\n[lexicons]\ncsw = false\neveryday = false\n'
    )
    cmd = [sys.executable, "-m", "pipeline", "build", "--quiet", "--config", str(root / "config.toml")]
    built = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    export_web(root / "build/export", root / "page")
    server = Server(root / "page")
    yield server.url, root / "build/export"
    server.close()


def test_an_export_without_csw_plays_in_its_own_lists(browser, owl_only):
    """Play mode read group_csw: "Cannot read properties of undefined (reading '775')", and no puzzle was
    drawn (the generator was asked for CSW). Now the puzzles are OWL's, and a hint and a typed rung work."""
    url, export = owl_only
    solver = Ladders.open(export)
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}?daily=2026-11-23")
    page.wait_for_function("document.body.dataset.puzzle", timeout=30_000)
    start, end = page.evaluate("document.body.dataset.puzzle").split("-")
    assert page.get_attribute("#p-status", "class") == "" and len(start) == 4
    offered = page.eval_on_selector_all("#p-length option", "os => os.filter(o => !o.disabled).map(o => o.value)")
    assert offered == ["4"]  # only 4-letter words: only 4-letter puzzles
    page.click("#p-hint")
    page.wait_for_selector("#p-rungs li.hint")
    hinted = page.get_attribute("#p-rungs li.hint", "data-word")
    par = solver.shortest(start, end, lexicon="owl", clean="strict").steps
    assert solver.shortest(hinted, end, lexicon="owl", clean="strict").steps == par - 1
    page.fill("#p-word", "qqqq")
    page.press("#p-word", "Enter")
    page.wait_for_function("document.querySelector('#p-status').className === 'error'")
    assert page.text_content("#p-status") == "QQQQ is not in the OWL word list."
    assert errors == []


def test_an_export_with_no_puzzle_offers_no_play_mode(browser, tiny_site, tmp_path):
    """The tiny lists hold no puzzle: Letters, Steps and a shared puzzle were offered all the same."""
    from support.chromium import Server, export_web
    import shutil

    export = tmp_path / "export"
    shutil.copytree(tiny_site[0], export)
    export_web(export, tmp_path / "page")
    server = Server(tmp_path / "page")
    try:
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{server.url}?play=COLD-CORD")
        page.wait_for_function("document.body.dataset.ready === '1'", timeout=30_000)
        assert page.is_hidden("#play") and errors == []
        assert page.text_content("#status") == "This export has no puzzles: its lists hold none."
    finally:
        server.close()
