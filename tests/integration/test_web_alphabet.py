"""Issue 45 items 2 and 6, the page's side: export-web puts the export's alphabet in data/manifest.json, and the
page's scripts fold a typed word by it (NFC, each character looked up in its table), refusing a character outside
it with a message naming it; no script spells A-Z. The typed words and small Spanish, German and Polish exports
are tests/integration/test_sql_alphabet.py's, where the PHP solver answers the same questions; both compare with
the shared fold of pipeline/alphabet.py (`ladders solve`'s rule: cli_rule) and a breadth-first oracle."""

from __future__ import annotations

import json
import re

import pytest

from support.chromium import Server, export_web
from ladders.artifact.contract import alphabet_entry
from ladders.artifact.webexport import PAGE, SCRIPTS, web_files
from pipeline.alphabet import FoldError, alphabet
from test_sql_alphabet import TYPED, WORDS, cli_rule, foreign, steps  # noqa: F401 (foreign: a fixture)


def test_the_pages_manifest_carries_the_exports_alphabet(foreign):  # noqa: F811
    """Failed before: data/manifest.json had no alphabet (the scripts spelled A-Z)."""
    for code, export in foreign.items():
        manifest = json.loads(web_files(export)["data/manifest.json"])
        assert manifest["alphabet"] == alphabet_entry(alphabet(code))


def test_no_script_spells_the_english_alphabet():
    """The page's rule is the data's: no letter class, no A-Z in a message."""
    for name in SCRIPTS:
        text = (PAGE / name).read_text()
        assert not re.search(r"A-Z|a-z|A-Za-z", text), name


@pytest.fixture(scope="session")
def foreign_sites(foreign):  # noqa: F811
    """Each small export's page, served: {code: url}."""
    servers = {}
    for code, export in foreign.items():
        page = export.parent / "page"
        export_web(export, page)
        servers[code] = Server(page)
    yield {code: server.url for code, server in servers.items()}
    for server in servers.values():
        server.close()


@pytest.mark.web
@pytest.mark.parametrize("code", list(TYPED))
def test_the_page_folds_typed_words_as_ladders_solve(browser, foreign, foreign_sites, code):  # noqa: F811
    """Failed before: the page refused "niño", "grün", "żaba" as not A-Z, and took "ﬁ" apart only by luck."""
    page = browser.new_page()
    page.goto(foreign_sites[code])
    page.wait_for_selector("#solve:not([disabled])", timeout=30_000)
    for a, b in TYPED[code]:
        page.evaluate("([a, b]) => solve(a, b, 'csw', false, 'strict')", [a, b])
        status = page.text_content("#status")
        want = [cli_rule(foreign[code], w) for w in (a, b)]
        refused = next((w for w in want if isinstance(w, FoldError)), None)
        if refused is not None:
            assert page.get_attribute("#status", "class") == "error", (a, b, status)
            named = f'"{refused.char}" (U+{ord(refused.char):04X}, character {refused.position})'
            assert named in status and f"{alphabet(code).name} alphabet" in status, (a, b, status)
            continue
        assert page.evaluate("document.body.dataset.solved") == f"{want[0]}-{want[1]}", (a, b, status)
        shown = page.eval_on_selector_all(".ladder ol", "ls => ls.map(l => [...l.children].map(e => e.dataset.word))")
        assert shown[0][0] == want[0] and shown[0][-1] == want[1]
        assert len(shown[0]) - 1 == steps(WORDS[code], *want)
    page.close()
