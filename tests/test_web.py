"""Issue 16: the static solver page in a real browser (`make test-web`).

`ladders export-web` writes the page for a build of raw/; a local HTTP server on
a free loopback port serves it; headless Chromium from the distribution's
packages, driven by Playwright, types three pairs at phone width and reads the
rungs, which must be ladders of the same length and rareness as `ladders
solve` gives. Skipped without Chromium or Playwright unless LADDERS_REQUIRE_WEB
is set (as `make test-web` does), when it fails.
"""
from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import threading
from pathlib import Path

import polars as pl
import pytest

from conftest import ROOT
from pipeline.solve.solver import Ladders

pytestmark = pytest.mark.web
CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    if sync_playwright is None or not Path(CHROMIUM).exists():
        message = "needs Debian's chromium and Playwright for Python: run make test-web, which installs them"
        if os.environ.get("LADDERS_REQUIRE_WEB"):
            pytest.fail(message)
        pytest.skip(message)
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The page for raw/, served on a free loopback port: (url, export folder)."""
    root = tmp_path_factory.mktemp("web")
    built = subprocess.run([sys.executable, "-m", "pipeline", "build", "--quiet", "--build-dir", str(root / "build")],
                           cwd=ROOT, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    page = root / "page"
    written = subprocess.run([sys.executable, "-m", "pipeline", "export-web", str(page), "--export",
                              str(root / "build/export")], cwd=ROOT, capture_output=True, text=True)
    assert written.returncode == 0, written.stderr
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(page)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html", root / "build/export"
    server.shutdown()


def test_three_pairs_solve_like_ladders_at_phone_width(browser, site):
    url, export = site
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url)
    page.wait_for_selector("#solve:not([disabled])", timeout=30_000)
    print(f"page loaded its dictionary in {page.evaluate('document.body.dataset.loadMs')} ms")
    solver = Ladders.open(export)
    words = pl.read_parquet(export / "words.parquet", columns=["word", "links", "rareness", "definition"])
    names = words["word"].to_list()
    linked = {w: {names[i] for i in ns} for w, ns in words.select("word", "links").rows()}
    rareness = dict(words.select("word", "rareness").rows())
    defined = dict(words.select("word", "definition").rows())
    for a, b in [("cold", "warm"), ("ape", "man"), ("lead", "gold")]:
        page.fill("#from", a)
        page.fill("#to", b)
        page.click("#solve")
        page.wait_for_function(f"document.body.dataset.solved === '{a.upper()}-{b.upper()}'")
        print(f"{a}-{b} solved in {page.evaluate('document.body.dataset.solveMs')} ms")
        ladders = page.eval_on_selector_all(".ladder ol", "ls => ls.map(l => [...l.children].map(e => e.dataset.word))")
        definitions = page.eval_on_selector_all(".definition", "els => els.map(e => e.textContent)")
        shortest, common = solver.shortest(a, b, clean=True), solver.common(a, b, clean=True)  # the page's default
        assert len(ladders[0]) - 1 == shortest.steps
        assert (sum(rareness[w] for w in ladders[1]), len(ladders[1]) - 1) == (common.cost, common.steps)
        for ladder in ladders:
            assert ladder[0] == a.upper() and ladder[-1] == b.upper()
            assert all(v in linked[u] for u, v in zip(ladder, ladder[1:]))
        shown = [w for ladder in ladders for w in ladder]
        assert definitions == [defined[w] or "(no definition)" for w in shown]  # each rung's own, from its shard
    shot = ROOT / "build" / "web-screenshot.png" if (ROOT / "build" / ".ladders-build").exists() else \
        export.parent / "web-screenshot.png"
    page.screenshot(path=str(shot), full_page=True)
    print(f"screenshot: {shot}")


@pytest.mark.parametrize("clean, crop_wrap, lock_cork", [
    ("off", ["CROP", "CRAP", "WRAP"], ["LOCK", "COCK", "CORK"]),
    ("on", None, ["LOCK", "COCK", "CORK"]),  # the default: CRAP (offensive) avoided
    ("strict", None, None),  # COCK (vulgar_sense) avoided too
])
def test_clean_levels_route_around_flagged_middle_words(browser, site, clean, crop_wrap, lock_cork):
    """CROP CRAP WRAP and LOCK COCK CORK are the only two-step ladders; None: a three-step detour."""
    for (a, b), expected in ((("crop", "wrap"), crop_wrap), (("lock", "cork"), lock_cork)):
        page = browser.new_page()
        page.goto(f"{site[0]}?from={a}&to={b}" + ("" if clean == "on" else f"&clean={clean}"))
        page.wait_for_function(f"document.body.dataset.solved === '{a.upper()}-{b.upper()}'", timeout=30_000)
        shortest = page.eval_on_selector_all(".ladder ol", "ls => [...ls[0].children].map(e => e.dataset.word)")
        assert shortest == expected if expected else (len(shortest) == 4 and shortest[1] not in ("CRAP", "COCK"))


def test_a_flagged_end_word_is_refused_naming_its_level(browser, site):
    page = browser.new_page()
    page.goto(f"{site[0]}?from=cock&to=rock&clean=strict")
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=30_000)
    assert page.text_content("#status") == ("COCK is flagged vulgar_sense: clean ladders neither start nor end on "
                                            "such a word.")


@pytest.mark.parametrize("a, b, message", [
    ("cold", "xqzv", "XQZV is not in the CSW word list."),
    ("zyzzyva", "abalone", "No ladder: ZYZZYVA and ABALONE are in different groups."),
    ("cold", "warmer", 'COLD has 4 letters and WARMER has 6: tick "insert and delete letters too".'),
])
def test_refusals_are_clear_messages(browser, site, a, b, message):
    page = browser.new_page()
    page.goto(f"{site[0]}?from={a}&to={b}")
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=30_000)
    assert page.text_content("#status") == message
    assert page.get_attribute("#status", "class") == "error"


def test_a_folder_ladders_did_not_write_is_refused(tmp_path, site):
    (tmp_path / "mine.txt").write_text("keep")
    result = subprocess.run([sys.executable, "-m", "pipeline", "export-web", str(tmp_path), "--export", str(site[1])],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 2 and "holds files ladders did not write" in result.stderr
    assert (tmp_path / "mine.txt").read_text() == "keep" and not (tmp_path / "data").exists()



def test_the_page_works_offline_once_loaded(browser, site):
    url, export = site
    context = browser.new_context()
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector("#solve:not([disabled])", timeout=30_000)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # every file cached (sw.js install)
    context.set_offline(True)
    assert page.evaluate("fetch('not-cached.txt').then(() => 'fetched', () => 'offline')") == "offline"
    page.goto(f"{url}?from=zymes&to=times")  # a pair whose definition shards were never fetched
    page.wait_for_function("document.body.dataset.ready === '1'", timeout=30_000)
    assert page.text_content("#status").startswith("ZYMES to TIMES: solved")
    definitions = page.eval_on_selector_all(".definition", "els => els.map(e => e.textContent)")
    words = pl.read_parquet(export / "words.parquet", columns=["word", "definition"])
    assert page.eval_on_selector_all(".ladder li", "els => els.map(e => e.dataset.word)")[0] == "ZYMES"
    assert definitions[0] == words.filter(pl.col("word") == "ZYMES")["definition"].item()
    context.close()
