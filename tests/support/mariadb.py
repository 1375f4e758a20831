"""A private MariaDB server for the tests of the MySQL dump and the PHP solver (`make test-sql`), the client
calls they make and the databases they share, each loaded once a session.

Each run starts a private server: its own data folder and socket under a temporary folder, no network port,
stopped at the end. The server and PHP come from the distribution's packages (`make test-sql` installs them
when missing); without them these tests are skipped, unless LADDERS_REQUIRE_SQL is set (as `make test-sql`
does), when they fail. The fixtures are session-wide (tests/conftest.py hands them to pytest), so
tests/integration/test_sql.py and tests/integration/test_sql_php.py share one server and one load of each dump.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import zlib
from pathlib import Path

import polars as pl
import pytest

from support.hostile import HOSTILE
from support.paths import ROOT


pytestmark = pytest.mark.sql
TOOLS = ("mariadbd", "mariadb-install-db", "mariadb", "mariadb-admin", "php")
PHP_SOLVER = ROOT / "solvers/php/ladder.php"


def missing_tools() -> list[str]:
    missing = [tool for tool in TOOLS if not (shutil.which(tool) or Path("/usr/sbin", tool).exists())]
    if "php" not in missing:
        modules = subprocess.run(["php", "-m"], capture_output=True, text=True).stdout.lower()
        missing += [] if "mysqli" in modules else ["php-mysql (mysqli)"]
    return missing


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    missing = missing_tools()
    if missing:
        message = f"needs {', '.join(missing)}: run make test-sql, which installs them"
        if os.environ.get("LADDERS_REQUIRE_SQL"):
            pytest.fail(message)
        pytest.skip(message)
    home = tmp_path_factory.mktemp("mariadb")
    data, socket = home / "data", home / "mysqld.sock"
    user = ["--user=root"] if os.geteuid() == 0 else []
    subprocess.run(
        [
            "mariadb-install-db",
            "--no-defaults",
            f"--datadir={data}",
            "--skip-test-db",
            "--auth-root-authentication-method=socket",
            *user,
        ],
        check=True,
        capture_output=True,
    )
    proc = subprocess.Popen(
        [
            shutil.which("mariadbd") or "/usr/sbin/mariadbd",
            "--no-defaults",
            f"--datadir={data}",
            f"--socket={socket}",
            "--skip-networking",
            f"--pid-file={home / 'pid'}",
            f"--log-error={home / 'error.log'}",
            *user,
        ]
    )
    deadline = time.monotonic() + 60
    while not socket.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"mariadbd did not start: {(home / 'error.log').read_text()[-2000:]}")
        time.sleep(0.1)
    try:
        yield socket
    finally:
        subprocess.run(
            ["mariadb-admin", "--no-defaults", f"--socket={socket}", "-u", "root", "shutdown"], capture_output=True
        )
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()


def sql(
    socket: Path, database: str, statement: str, stdin: str | None = None, mode: str | None = None
) -> subprocess.CompletedProcess:
    """Run statements with the mariadb client; `mode`: the session's sql_mode before they run, as a
    server configured with it would give."""
    cmd = ["mariadb", "--no-defaults", f"--socket={socket}", "-u", "root", "--batch", "--skip-column-names"]
    cmd += [f"--init-command=SET SESSION sql_mode = '{mode}'"] if mode is not None else []
    return subprocess.run(
        cmd + ([database] if database else []) + (["-e", statement] if statement else []),
        input=stdin,
        capture_output=True,
        text=True,
    )


def ladders(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, capture_output=True, text=True)


def load(socket: Path, database: str, export: Path, tmp: Path) -> float:
    dump = tmp / f"{database}.sql"
    written = ladders("export-sql", "--export", str(export), "--out", str(dump))
    assert written.returncode == 0, written.stderr
    assert sql(socket, "", f"CREATE DATABASE {database} CHARACTER SET utf8mb4").returncode == 0
    start = time.perf_counter()
    loaded = sql(socket, database, "", stdin=dump.read_text())
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.split() == ["ok"] * dump.read_text().count(
        "'load')) AS `"
    )  # the dump's own checks, one a table
    return time.perf_counter() - start


def check_against_parquet(socket: Path, database: str, export: Path, groups: int = 5) -> None:
    words = pl.read_parquet(export / "words.parquet")
    links = (
        words.select("id", "links").explode("links").drop_nulls().height
        + words.select("id", "edit_links").explode("edit_links").drop_nulls().height
    )
    counts = sql(
        socket,
        database,
        "SELECT (SELECT COUNT(*) FROM words), (SELECT COUNT(*) FROM links), (SELECT COUNT(*) FROM ladder_groups)",
    ).stdout.split()
    assert list(map(int, counts)) == [words.height, links, pl.read_parquet(export / "groups.parquet").height]
    # Every text byte for byte (quotes, backslashes, non-ASCII): checksums summed over the column.
    sums = sql(
        socket, database, "SELECT SUM(CRC32(word)), SUM(CRC32(definition)), SUM(CRC32(definition_source)) FROM words"
    ).stdout.split()
    assert list(map(int, sums)) == [
        sum(zlib.crc32(v.encode()) for v in words[c].drop_nulls()) for c in ("word", "definition", "definition_source")
    ]
    sizes = words["group_csw"].value_counts().sort("count", descending=True)["group_csw"].head(groups).to_list()
    for group in sizes:  # the largest groups: the "one group in one query" statement
        rows = sql(
            socket,
            database,
            "SELECT w.word, COALESCE(d.word, '') FROM words w LEFT JOIN links l "
            "ON l.src = w.id "
            "AND l.kind = 'sub' LEFT JOIN words d ON d.id = l.dst "
            f"WHERE w.group_csw = {group}",
        ).stdout.splitlines()
        got: dict[str, set[str]] = {}
        for line in rows:
            a, b = line.split("\t")
            got.setdefault(a, set()).update([b] if b else [])  # (the word NULL is a word)
        members = words.filter(pl.col("group_csw") == group)
        names = words["word"].to_list()
        expected = {w: {names[i] for i in ns} for w, ns in members.select("word", "links").rows()}
        assert got == expected, group


@pytest.fixture(scope="session")
def raw50_export(tmp_path_factory) -> Path:
    """raw/ built with [rareness_labels] common = 50 (and uncommon 55): another everyday level than the
    defaults', which the dump must carry to the PHP solver."""
    folder = tmp_path_factory.mktemp("raw50")
    (folder / "common50.toml").write_text("[rareness_labels]\ncommon = 50\nuncommon = 55\n")
    done = ladders("build", "--quiet", "--config", str(folder / "common50.toml"), "--build-dir", str(folder / "build"))
    assert done.returncode == 0, done.stderr
    return folder / "build/export"


@pytest.fixture(scope="session")
def raw50_db(server, raw50_export, tmp_path_factory) -> str:
    load(server, "raw50", raw50_export, tmp_path_factory.mktemp("dump"))
    return "raw50"


@pytest.fixture(scope="session")
def raw_db(server, raw_export, tmp_path_factory) -> str:
    seconds = load(server, "raw", raw_export, tmp_path_factory.mktemp("dump"))
    print(f"raw/ dump loaded in {seconds:.1f} s")
    return "raw"


# ---- hostile definitions, in every sql_mode -------------------------------------------


@pytest.fixture(scope="session")
def hostile_export(tiny_export, tmp_path_factory):
    """The tiny export with its words' definitions replaced by hostile texts (as a list author could
    write them, control characters included: the dump must carry whatever an export holds), one of
    them 100,000 bytes long. Also definition_source gets one: every text column is covered."""
    folder = tmp_path_factory.mktemp("hostile") / "export"
    shutil.copytree(tiny_export, folder)
    words = pl.read_parquet(folder / "words.parquet")
    texts = HOSTILE["sql"] + HOSTILE["terminal"] + HOSTILE["invisible"] + ["\u00e9" * (HOSTILE["long"]["bytes"] // 2)]
    n = words.height  # fewer words than texts: some hold two, each text whole
    definitions = [" | ".join(texts[i::n]) for i in range(n)]
    words = words.with_columns(
        pl.Series("definition", definitions, dtype=pl.String),
        pl.when(pl.col("id") == 0)
        .then(pl.lit("x\\'); --"))
        .otherwise(pl.col("definition_source"))
        .alias("definition_source"),
    )
    words.write_parquet(folder / "words.parquet")
    return folder


def dump_text(export: Path, tmp: Path) -> str:
    dump = tmp / "dump.sql"
    written = ladders("export-sql", "--export", str(export), "--out", str(dump))
    assert written.returncode == 0, written.stderr
    return dump.read_text()


@pytest.fixture(scope="session")
def hostile_db(server, hostile_export, tmp_path_factory) -> str:
    assert sql(server, "", "CREATE DATABASE hostile_php CHARACTER SET utf8mb4").returncode == 0
    loaded = sql(server, "hostile_php", "", stdin=dump_text(hostile_export, tmp_path_factory.mktemp("php")))
    assert loaded.returncode == 0, loaded.stderr
    return "hostile_php"


def php(socket, database: str, *args: str | bytes) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            b"php",
            str(PHP_SOLVER).encode(),
            f"--socket={socket}".encode(),
            f"--db={database}".encode(),
            *[a if isinstance(a, bytes) else a.encode() for a in args],
        ],
        capture_output=True,
    )


# ---- issue 38: the dump leaves the session as it found it; a cut load is detected ------------------


@pytest.fixture(scope="session")
def tiny_dump(tiny_export, tmp_path_factory) -> Path:
    dump = tmp_path_factory.mktemp("dump") / "tiny.sql"
    assert ladders("export-sql", "--export", str(tiny_export), "--out", str(dump)).returncode == 0
    return dump


@pytest.fixture(scope="session")
def tiny_db(server, tiny_dump) -> str:
    assert sql(server, "", "CREATE DATABASE tiny_php").returncode == 0
    assert sql(server, "tiny_php", "", stdin=tiny_dump.read_text()).returncode == 0
    return "tiny_php"
