"""The page's own files (ladders/web/) agree with what export-web copies and lists: index.html loads every
script of webexport.SCRIPTS, in that order (they are plain scripts sharing one global scope, each using
what the ones before it declare), and every file of the folder but the service worker is in SHELL, so
"keep for offline use" keeps it (the browser tests in tests/integration/test_web.py run the page itself)."""

from __future__ import annotations

import re

from ladders.artifact.webexport import PAGE, SCRIPTS, SHELL


def test_index_html_loads_the_scripts_in_order():
    html = (PAGE / "index.html").read_text()
    assert re.findall(r'<script src="([^"]+)"></script>', html) == list(SCRIPTS)


def test_the_shell_is_every_file_of_the_page_but_the_worker():
    assert sorted(SHELL) == sorted(p.name for p in PAGE.iterdir() if p.is_file() and p.name != "sw.js")
    assert len(set(SHELL)) == len(SHELL)
