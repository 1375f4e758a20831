"""Issue 16: the MySQL dump in a real MariaDB server, and the PHP solver against it (`make test-sql`).

Each run starts a private server: its own data folder and socket under a
temporary folder, no network port, stopped at the end. The server and PHP come
from the distribution's packages (`make test-sql` installs them when missing);
without them these tests are skipped, unless LADDERS_REQUIRE_SQL is set (as
`make test-sql` does), when they fail.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
import zlib
from pathlib import Path

import polars as pl
import pytest

from conftest import ROOT
from pipeline.solve.solver import Ladders

pytestmark = pytest.mark.sql
TOOLS = ("mariadbd", "mariadb-install-db", "mariadb", "mariadb-admin", "php")
PHP_SOLVER = ROOT / "solvers/php/ladder.php"


def _missing() -> list[str]:
    missing = [tool for tool in TOOLS if not (shutil.which(tool) or Path("/usr/sbin", tool).exists())]
    if "php" not in missing:
        modules = subprocess.run(["php", "-m"], capture_output=True, text=True).stdout.lower()
        missing += [] if "mysqli" in modules else ["php-mysql (mysqli)"]
    return missing


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    missing = _missing()
    if missing:
        message = f"needs {', '.join(missing)}: run make test-sql, which installs them"
        if os.environ.get("LADDERS_REQUIRE_SQL"):
            pytest.fail(message)
        pytest.skip(message)
    home = tmp_path_factory.mktemp("mariadb")
    data, socket = home / "data", home / "mysqld.sock"
    user = ["--user=root"] if os.geteuid() == 0 else []
    subprocess.run(["mariadb-install-db", "--no-defaults", f"--datadir={data}", "--skip-test-db",
                    "--auth-root-authentication-method=socket", *user], check=True, capture_output=True)
    proc = subprocess.Popen([shutil.which("mariadbd") or "/usr/sbin/mariadbd", "--no-defaults", f"--datadir={data}",
                             f"--socket={socket}", "--skip-networking", f"--pid-file={home / 'pid'}",
                             f"--log-error={home / 'error.log'}", *user])
    deadline = time.monotonic() + 60
    while not socket.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"mariadbd did not start: {(home / 'error.log').read_text()[-2000:]}")
        time.sleep(0.1)
    try:
        yield socket
    finally:
        subprocess.run(["mariadb-admin", "--no-defaults", f"--socket={socket}", "-u", "root", "shutdown"],
                       capture_output=True)
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()


def sql(socket: Path, database: str, statement: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    cmd = ["mariadb", "--no-defaults", f"--socket={socket}", "-u", "root", "--batch", "--skip-column-names"]
    return subprocess.run(cmd + ([database] if database else []) + (["-e", statement] if statement else []),
                          input=stdin, capture_output=True, text=True)


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
    assert loaded.stdout.split() == ["ok", "ok", "ok"]  # the dump's own row-count checks
    return time.perf_counter() - start


def check_against_parquet(socket: Path, database: str, export: Path, groups: int = 5) -> None:
    words = pl.read_parquet(export / "words.parquet")
    links = words.select("id", "links").explode("links").drop_nulls().height + \
        words.select("id", "edit_links").explode("edit_links").drop_nulls().height
    counts = sql(socket, database, "SELECT (SELECT COUNT(*) FROM words), (SELECT COUNT(*) FROM links), "
                                   "(SELECT COUNT(*) FROM ladder_groups)").stdout.split()
    assert list(map(int, counts)) == [words.height, links, pl.read_parquet(export / "groups.parquet").height]
    # Every text byte for byte (quotes, backslashes, non-ASCII): checksums summed over the column.
    sums = sql(socket, database, "SELECT SUM(CRC32(word)), SUM(CRC32(definition)), SUM(CRC32(definition_source)) "
                                 "FROM words").stdout.split()
    assert list(map(int, sums)) == [sum(zlib.crc32(v.encode()) for v in words[c].drop_nulls())
                                    for c in ("word", "definition", "definition_source")]
    sizes = words["group_csw"].value_counts().sort("count", descending=True)["group_csw"].head(groups).to_list()
    for group in sizes:  # the largest groups: the "one group in one query" statement
        rows = sql(socket, database, "SELECT w.word, COALESCE(d.word, '') FROM words w LEFT JOIN links l "
                                     "ON l.src = w.id "
                                     "AND l.kind = 'sub' LEFT JOIN words d ON d.id = l.dst "
                                     f"WHERE w.group_csw = {group}").stdout.splitlines()
        got: dict[str, set[str]] = {}
        for line in rows:
            a, b = line.split("\t")
            got.setdefault(a, set()).update([b] if b else [])  # (the word NULL is a word)
        members = words.filter(pl.col("group_csw") == group)
        names = words["word"].to_list()
        expected = {w: {names[i] for i in ns} for w, ns in members.select("word", "links").rows()}
        assert got == expected, group


@pytest.fixture(scope="module")
def tiny_export(tmp_path_factory):
    from conftest import DATA

    root = tmp_path_factory.mktemp("tiny")
    shutil.copytree(DATA / "tiny", root / "tiny")
    (root / "tiny/config.toml").write_text(
        'csw = "csw.txt"\nowl = "owl.txt"\nscowl = "scowl"\nwordnet = "wordnet"\nsupplement = "supplement.txt"\n'
        'gcide = "gcide"\noffensive = "offensive.txt"\ncuss = "cuss.js"\n')
    built = ladders("build", "--quiet", "--config", str(root / "tiny/config.toml"))
    assert built.returncode == 0, built.stderr
    return root / "tiny/build/export"


@pytest.fixture(scope="module")
def raw_export(tmp_path_factory):
    build = tmp_path_factory.mktemp("raw") / "build"
    built = ladders("build", "--quiet", "--build-dir", str(build))
    assert built.returncode == 0, built.stderr
    return build / "export"


def test_tiny_dump_loads_with_its_rows_and_groups(server, tiny_export, tmp_path):
    load(server, "tiny", tiny_export, tmp_path)
    check_against_parquet(server, "tiny", tiny_export)


def test_a_short_load_fails(server, tiny_export, tmp_path):
    dump = tmp_path / "short.sql"
    assert ladders("export-sql", "--export", str(tiny_export), "--out", str(dump)).returncode == 0
    lines = dump.read_text().splitlines(keepends=True)
    first_links = next(i for i, line in enumerate(lines) if line.startswith("INSERT INTO `links`"))
    assert lines[first_links + 1].endswith("),\n")  # a row with more after it
    cut = lines[:first_links + 1] + lines[first_links + 2:]  # that one row lost
    assert sql(server, "", "CREATE DATABASE short").returncode == 0
    loaded = sql(server, "short", "", stdin="".join(cut))
    assert loaded.returncode != 0 and "Subquery returns more than 1 row" in loaded.stderr


@pytest.fixture(scope="module")
def raw_db(server, raw_export, tmp_path_factory) -> str:
    seconds = load(server, "raw", raw_export, tmp_path_factory.mktemp("dump"))
    print(f"raw/ dump loaded in {seconds:.1f} s")
    return "raw"


def test_raw_dump_loads_with_its_rows_and_groups(server, raw_export, raw_db):
    check_against_parquet(server, raw_db, raw_export)


def test_php_solves_like_ladders(server, raw_export, raw_db):
    solver = Ladders.open(raw_export)
    words = pl.read_parquet(raw_export / "words.parquet", columns=["word", "links", "edit_links", "group_csw"])
    names = words["word"].to_list()
    neighbours = {w: {names[i] for i in a} | {names[i] for i in b} for w, a, b in
                  words.select("word", "links", "edit_links").rows()}
    largest = words["group_csw"].value_counts().sort("count", descending=True)["group_csw"][0]
    members = words.filter(pl.col("group_csw") == largest)["word"].to_list()
    rng = random.Random(16)
    pairs = [("COLD", "WARM", False), ("CAT", "DOG", False), ("APE", "MAN", False), ("CAT", "DOGS", True)]
    pairs += [(*rng.sample(members, 2), False) for _ in range(8)]
    for a, b, edit in pairs:
        php = subprocess.run(["php", str(PHP_SOLVER), f"--socket={server}", "--db=raw", *(["--edit"] if edit else []),
                              a, b], capture_output=True, text=True)
        assert php.returncode == 0, php.stdout + php.stderr
        got = json.loads(php.stdout)
        shortest, common = solver.shortest(a, b, edit=edit), solver.common(a, b, edit=edit)
        assert got["shortest"]["steps"] == shortest.steps, (a, b)
        assert (got["common"]["cost"], got["common"]["steps"]) == (common.cost, common.steps), (a, b)
        for ladder in (got["shortest"]["words"], [w["word"] for w in got["common"]["words"]]):
            assert ladder[0] == a and ladder[-1] == b
            assert all(v in neighbours[u] for u, v in zip(ladder, ladder[1:]))


@pytest.mark.parametrize("args, code", [(["COLD", "XQZV"], 10), (["COLD", "WARMS"], 11),
                                        (["ZYZZYVA", "ABALONE"], 12), (["COLD", "COLD"], 13)])
def test_php_refusals_use_the_solver_exit_codes(server, raw_db, args, code):
    php = subprocess.run(["php", str(PHP_SOLVER), f"--socket={server}", "--db=raw", *args], capture_output=True,
                         text=True)
    assert php.returncode == code and "error" in json.loads(php.stdout)


@pytest.mark.parametrize("flags, avoided, refused", [([], set(), None), (["--clean"], {"CRAP"}, "CUNT"),
                                                     (["--strict"], {"CRAP", "COCK"}, "COCK")])
def test_php_clean_levels_route_around_flagged_words_and_refuse_flagged_ends(server, raw_db, flags, avoided, refused):
    """As `ladders solve`: CROP CRAP WRAP and LOCK COCK CORK are the only two-step ladders; --clean avoids
    CRAP (offensive), --strict COCK too (vulgar_sense); a flagged end word is exit 14."""
    def php(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["php", str(PHP_SOLVER), f"--socket={server}", "--db=raw", *flags, *args],
                              capture_output=True, text=True)

    for a, b, middle in (("CROP", "WRAP", "CRAP"), ("LOCK", "CORK", "COCK")):
        done = php(a, b)
        assert done.returncode == 0, done.stdout
        got = json.loads(done.stdout)
        shortest, common = got["shortest"]["words"], [w["word"] for w in got["common"]["words"]]
        if middle in avoided:
            assert middle not in shortest and middle not in common and len(shortest) == 4
        else:
            assert shortest == [a, middle, b]
    if refused:
        done = php(refused, "PUNT" if refused == "CUNT" else "ROCK")
        assert done.returncode == 14 and f"{refused} is flagged" in json.loads(done.stdout)["error"]
