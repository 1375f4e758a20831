"""Issue 42 on the static page in a real browser (`make test-web`): it fits a phone's width with no sideways
scroll, a page reloading itself after two re-exports answers the pair typed (not the address's), and the two
ladders are said as they are (once when the same words; "Least-rare ladder" when no ladder of everyday
words joins the pair). The browser, the server and the pages: tests/support/chromium.py."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from ladders.solve.solver import Ladders
from support.chromium import Server, export_web, re_exported

pytestmark = pytest.mark.web


# ---- items 12, 14, 22/23 ------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [360, 390, 414])
def test_the_page_fits_a_phone_with_no_sideways_scroll(browser, site, width):
    """At 360-414 px the page was 416 px wide (the family option's text set the select's width): From/To, the
    button and "Words shown" ran off the right edge. Checked with two ladders shown, and with a puzzle and
    its share link."""
    url, _ = site
    page = browser.new_page(viewport={"width": width, "height": 800})
    outside = """() => [...document.querySelectorAll('input, select, button, a, h2, li')].filter(e => e.offsetParent)
        .filter(e => { const r = e.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth; })
        .map(e => e.id || e.tagName)"""
    page.goto(f"{url}?from=cold&to=warm")
    page.wait_for_function("document.body.dataset.solved === 'COLD-WARM'", timeout=30_000)
    for step in ("solved", "playing"):
        if step == "playing":
            page.click("#p-daily")
            page.wait_for_function("document.body.dataset.puzzle", timeout=30_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, step
        assert page.evaluate(outside) == [], step


def test_a_reload_after_two_re_exports_answers_the_pair_typed(browser, tiny_site, tmp_path):
    """A page opened on ?from=cold&to=cord, left open across two re-exports, asked CAT-DOG from the form: the
    page reloaded itself (CAT's files were gone) and answered the address's COLD-CORD, not the pair typed."""
    export, _ = tiny_site
    folder = tmp_path / "page"
    export_web(export, folder)
    server = Server(folder)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{server.url}?from=cold&to=cord")
        page.wait_for_function("document.body.dataset.solved === 'COLD-CORD'", timeout=30_000)
        first = page.evaluate("document.body.dataset.version")
        re_exported(export, folder, tmp_path, 3)
        re_exported(export, folder, tmp_path, 5)
        page.fill("#from", "cat")
        page.fill("#to", "dog")
        page.click("#solve")
        page.wait_for_function(
            f"document.body.dataset.version && document.body.dataset.version !== '{first}' "
            "&& document.body.dataset.ready === '1'",
            timeout=30_000,
        )
        assert page.evaluate("document.body.dataset.solved") == "CAT-DOG"
        assert (page.input_value("#from"), page.input_value("#to")) == ("cat", "dog")
    finally:
        context.close()
        server.close()


def _everyday(export: Path, words: list[str]) -> bool:
    """Every word is everyday: SCOWL level at most the export's own `common` cut-off (its manifest's)."""
    from ladders.artifact.contract import label_cutoffs

    top = label_cutoffs(export)["common"]
    levels = dict(pl.read_parquet(export / "words.parquet", columns=["word", "scowl_level"]).rows())
    return all(levels[w] is not None and levels[w] <= top for w in words)


@pytest.mark.parametrize("a, b", [("cold", "cord"), ("chair", "table"), ("ape", "man")])
def test_the_two_ladders_are_said_as_they_are(browser, site, a, b):
    """Both ladders the same words: shown once. No ladder of everyday words: said so, and the second ladder
    titled "Least-rare ladder" (it was "Common-word ladder", through CHARR, NOBBY and COBLE)."""
    url, export = site
    solver = Ladders.open(export)
    shortest, common = solver.shortest(a, b, clean="strict"), solver.common(a, b, clean="strict")
    same, everyday = shortest.words == common.words and shortest.count == 1, _everyday(export, common.words)
    page = browser.new_page()
    page.goto(f"{url}?from={a}&to={b}")
    page.wait_for_function(f"document.body.dataset.solved === '{a.upper()}-{b.upper()}'", timeout=30_000)
    titles = page.eval_on_selector_all(".ladder h2", "hs => hs.map(h => h.textContent.split(':')[0])")
    status = page.text_content("#status")
    if same:
        assert titles == [
            "Shortest ladder, all everyday words too" if everyday else "Shortest ladder, also the least-rare one"
        ]
    else:
        assert titles == ["Shortest ladder", "Common-word ladder" if everyday else "Least-rare ladder"]
    assert ("No ladder of everyday words joins them." in status) == (not everyday)
    assert (a, b) != ("cold", "cord") or (same and everyday)  # the pairs cover each case
    assert (a, b) != ("chair", "table") or not everyday
    assert (a, b) != ("ape", "man") or (not same and everyday)
