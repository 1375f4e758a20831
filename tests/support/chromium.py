"""Headless Chromium (Playwright) and a local HTTP server for the tests of the static solver page
(`make test-web`), and the pages they share: raw/'s (site) and the tiny fixture's (tiny_site), each exported once
a session (tests/conftest.py hands the fixtures to pytest, so the web tests of tests/integration/ share one browser)."""

from __future__ import annotations

import functools
import http.server
import os
import subprocess
import sys
import shutil
import threading
import time
from pathlib import Path

import polars as pl
import pytest
from support.paths import ROOT


CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
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


class Counted(http.server.SimpleHTTPRequestHandler):
    """Serves the page folder, counting every byte it sends (headers too) with the time it was sent; with
    `gzip` set, answers a request accepting gzip with the file's precompressed .gz copy when there is one."""

    sent: list[tuple[float, int, str]]  # (time.monotonic(), bytes, path), set per server
    gzip = False

    def log_message(self, *args) -> None:
        pass

    def setup(self) -> None:
        super().setup()
        raw, sent, path = self.wfile, self.sent, lambda: getattr(self, "path", "")

        class Writer:
            def write(self, data):
                sent.append((time.monotonic(), len(data), path()))
                return raw.write(data)

            def __getattr__(self, name):
                return getattr(raw, name)

        self.wfile = Writer()

    def send_head(self):
        path = self.translate_path(self.path)
        if self.gzip and "gzip" in self.headers.get("Accept-Encoding", "") and os.path.isfile(path + ".gz"):
            f = open(path + ".gz", "rb")
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(path))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(os.fstat(f.fileno()).st_size))
            self.end_headers()
            return f
        return super().send_head()


class Server:
    """The page folder on a free loopback port: .url, .sent (see Counted), .bytes_since(t)."""

    def __init__(self, folder: Path, gzip: bool = False):
        self.sent: list[tuple[float, int, str]] = []
        handler = type("Handler", (Counted,), {"sent": self.sent, "gzip": gzip})
        self.server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(handler, directory=str(folder))
        )
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/index.html"

    def bytes_between(self, start: float, end: float = float("inf")) -> int:
        return sum(n for t, n, _ in list(self.sent) if start <= t <= end)

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def export_web(export: Path, page: Path) -> None:
    written = subprocess.run(
        [sys.executable, "-m", "pipeline", "export-web", str(page), "--export", str(export)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert written.returncode == 0, written.stderr


def built_page(export: Path) -> Path:
    return export.parent.parent / "page"


@pytest.fixture(scope="session")
def site(raw_export):
    """The page for raw/, served on a free loopback port: (url, export folder)."""
    page = built_page(raw_export)
    export_web(raw_export, page)
    server = Server(page)
    yield server.url, raw_export
    server.close()


@pytest.fixture(scope="session")
def tiny_site(tiny_export):
    """The tiny fixture's export (the session's, tests/conftest.py) and a page folder beside its build:
    (export folder, page folder)."""
    return tiny_export, tiny_export.parent.parent / "page"


def re_exported(export: Path, page: Path, tmp: Path, factor: int) -> None:
    """export-web again from a copy of `export` whose rareness is changed: every data file a new name."""
    changed = tmp / f"export-{factor}"
    shutil.copytree(export, changed)
    words = pl.read_parquet(changed / "words.parquet")
    words.with_columns(pl.col("rareness") * factor + 1).write_parquet(changed / "words.parquet")
    export_web(changed, page)
