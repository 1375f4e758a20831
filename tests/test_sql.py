"""The MySQL dump in a real MariaDB server, and the PHP solver against it (`make test-sql`).
Hostile definitions (tests/data/hostile/) in three sql_modes, a truncation caught by the
dump's final check, and the PHP solver's errors as JSON with exit codes.

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
from ladders.solve.solver import Ladders

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
    assert loaded.stdout.split() == ["ok", "ok", "ok"]  # the dump's own row-count checks
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


@pytest.fixture(scope="module")
def tiny_export(tmp_path_factory):
    from conftest import copy_tiny

    tiny = copy_tiny(tmp_path_factory.mktemp("tiny"))
    built = ladders("build", "--quiet", "--config", str(tiny / "config.toml"))
    assert built.returncode == 0, built.stderr
    return tiny / "build/export"


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
    cut = lines[: first_links + 1] + lines[first_links + 2 :]  # that one row lost
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
    neighbours = {
        w: {names[i] for i in a} | {names[i] for i in b}
        for w, a, b in words.select("word", "links", "edit_links").rows()
    }
    largest = words["group_csw"].value_counts().sort("count", descending=True)["group_csw"][0]
    members = words.filter(pl.col("group_csw") == largest)["word"].to_list()
    rng = random.Random(16)
    pairs = [("COLD", "WARM", False), ("CAT", "DOG", False), ("APE", "MAN", False), ("CAT", "DOGS", True)]
    pairs += [(*rng.sample(members, 2), False) for _ in range(8)]
    for a, b, edit in pairs:
        php = subprocess.run(
            ["php", str(PHP_SOLVER), f"--socket={server}", "--db=raw", *(["--edit"] if edit else []), a, b],
            capture_output=True,
            text=True,
        )
        assert php.returncode == 0, php.stdout + php.stderr
        got = json.loads(php.stdout)
        shortest, common = solver.shortest(a, b, edit=edit), solver.common(a, b, edit=edit)
        # One definition of both ladders: the same (steps, rareness sum), and the very same words when
        # no other ladder ties exactly (a tie is drawn differently by each solver).
        assert (got["shortest"]["steps"], got["shortest"]["rareness"]) == (shortest.steps, shortest.cost), (a, b)
        assert (got["common"]["cost"], got["common"]["steps"]) == (common.cost, common.steps), (a, b)
        php_common = [w["word"] for w in got["common"]["words"]]
        for ladder, ours in ((got["shortest"]["words"], shortest), (php_common, common)):
            assert ladder[0] == a and ladder[-1] == b
            assert all(v in neighbours[u] for u, v in zip(ladder, ladder[1:]))
            assert ours.count > 1 or ladder == ours.words, (a, b)


@pytest.mark.parametrize(
    "args, code",
    [(["COLD", "XQZV"], 10), (["COLD", "WARMS"], 11), (["ZYZZYVA", "ABALONE"], 12), (["COLD", "COLD"], 13)],
)
def test_php_refusals_use_the_solver_exit_codes(server, raw_db, args, code):
    php = subprocess.run(
        ["php", str(PHP_SOLVER), f"--socket={server}", "--db=raw", *args], capture_output=True, text=True
    )
    assert php.returncode == code and "error" in json.loads(php.stdout)


# ---- hostile definitions, in every sql_mode -------------------------------------------

HOSTILE = json.loads((ROOT / "tests/data/hostile/payloads.json").read_text())
# The server's default (MariaDB 10.11: strict), backslashes as plain characters, not strict at all, and
# ANSI ("" quotes identifiers, || concatenates) with backslashes plain.
MODES = {"default": None, "no_backslash": "NO_BACKSLASH_ESCAPES", "not_strict": "", "ansi": "ANSI,NO_BACKSLASH_ESCAPES"}


@pytest.fixture(scope="module")
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


def _dump(export: Path, tmp: Path) -> str:
    dump = tmp / "dump.sql"
    written = ladders("export-sql", "--export", str(export), "--out", str(dump))
    assert written.returncode == 0, written.stderr
    return dump.read_text()


@pytest.mark.parametrize("mode", MODES)
def test_hostile_definitions_load_as_text_in_every_sql_mode(server, hostile_export, tmp_path, mode):
    """The injection (`x',NULL,...); CREATE TABLE pwned ...; -- `) ran its statement under
    NO_BACKSLASH_ESCAPES; a 100 KB definition failed (strict) or was cut to 65,535 bytes (not strict)."""
    database = f"hostile_{mode}"
    assert sql(server, "", f"CREATE DATABASE {database} CHARACTER SET utf8mb4").returncode == 0
    loaded = sql(server, database, "", stdin=_dump(hostile_export, tmp_path), mode=MODES[mode])
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.split() == ["ok", "ok", "ok"]
    tables = sql(server, database, "SHOW TABLES").stdout.split()
    assert sorted(tables) == ["ladder_groups", "ladders_complete", "links", "words"]  # no `pwned`
    check_against_parquet(server, database, hostile_export)  # every text byte for byte
    longest = sql(server, database, "SELECT MAX(LENGTH(definition)) FROM words").stdout.split()
    assert (
        int(longest[0])
        == max(len(d.encode()) for d in pl.read_parquet(hostile_export / "words.parquet")["definition"].drop_nulls())
        > HOSTILE["long"]["bytes"]
    )


@pytest.mark.parametrize("mode", MODES)
def test_the_values_alone_mean_the_same_in_every_sql_mode(server, hostile_export, tmp_path, mode):
    """Without the dump's own SET sql_mode (a tool that drops SET lines, a server that refuses them),
    the literals still read the same: plain quotes only around text without backslashes, hex for the rest."""
    database = f"unset_{mode}"
    text = _dump(hostile_export, tmp_path)
    assert "SET SESSION sql_mode = 'STRICT" in text
    text = "".join(line for line in text.splitlines(keepends=True) if "sql_mode" not in line)
    assert sql(server, "", f"CREATE DATABASE {database} CHARACTER SET utf8mb4").returncode == 0
    loaded = sql(server, database, "", stdin=text, mode=MODES[mode])
    assert loaded.returncode == 0, loaded.stderr
    assert sorted(sql(server, database, "SHOW TABLES").stdout.split()) == [
        "ladder_groups",
        "ladders_complete",
        "links",
        "words",
    ]
    check_against_parquet(server, database, hostile_export)


def test_a_truncated_text_fails_the_load(server, hostile_export, tmp_path):
    """Were the definition column still TEXT and the session not strict, MariaDB would cut the 100 KB
    definition to 65,535 bytes with a warning only: the dump's final check of lengths and checksums
    must turn that into a failed load."""
    text = _dump(hostile_export, tmp_path)
    assert "`definition` MEDIUMTEXT" in text
    text = text.replace("`definition` MEDIUMTEXT", "`definition` TEXT")
    text = "".join(line for line in text.splitlines(keepends=True) if "sql_mode" not in line)
    assert sql(server, "", "CREATE DATABASE truncated CHARACTER SET utf8mb4").returncode == 0
    loaded = sql(server, "truncated", "", stdin=text, mode="")
    assert loaded.returncode != 0 and "Subquery returns more than 1 row" in loaded.stderr
    cut = sql(server, "truncated", "SELECT MAX(LENGTH(definition)) FROM words").stdout.split()
    assert int(cut[0]) <= 65_535  # the truncation the check caught (at a character boundary)


@pytest.fixture(scope="module")
def hostile_db(server, hostile_export, tmp_path_factory) -> str:
    assert sql(server, "", "CREATE DATABASE hostile_php CHARACTER SET utf8mb4").returncode == 0
    loaded = sql(server, "hostile_php", "", stdin=_dump(hostile_export, tmp_path_factory.mktemp("php")))
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


def test_php_prints_hostile_definitions_as_inert_json(server, hostile_export, hostile_db):
    result = php(server, hostile_db, "CAT", "DOG")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.isascii() and all(b >= 0x20 for b in result.stdout.rstrip(b"\n"))
    got = json.loads(result.stdout)
    definitions = dict(pl.read_parquet(hostile_export / "words.parquet").select("word", "definition").rows())
    assert [w["definition"] for w in got["common"]["words"]] == [definitions[w["word"]] for w in got["common"]["words"]]


@pytest.mark.parametrize("word", [b"\xff\xfe", b"CA\x1b[31mT", b"", "CAF\u00c9".encode()])
def test_php_a_word_that_is_not_letters_is_a_json_refusal(server, hostile_db, word):
    """A non-UTF-8 word printed an empty line (json_encode failed): now a JSON error, exit 10."""
    result = php(server, hostile_db, word, "DOG")
    assert result.returncode == 10 and result.stdout.isascii()
    assert json.loads(result.stdout)["error"].endswith("is not a word of letters A-Z")


def test_php_connection_and_missing_dump_errors_are_json(server, hostile_db, tmp_path):
    """A wrong socket or database died with an uncaught mysqli_sql_exception (exit 255)."""
    wrong_socket = php(tmp_path / "no.sock", hostile_db, "CAT", "DOG")
    assert wrong_socket.returncode == 4, wrong_socket.stdout + wrong_socket.stderr
    assert json.loads(wrong_socket.stdout)["error"].startswith("cannot connect to the database server: ")
    assert wrong_socket.stderr == b""
    wrong_db = php(server, "no_such_database", "CAT", "DOG")
    assert wrong_db.returncode == 3 and json.loads(wrong_db.stdout)["error"].startswith("no ladders dump here: ")
    assert sql(server, "", "CREATE DATABASE empty_one").returncode == 0
    empty = php(server, "empty_one", "CAT", "DOG")
    assert empty.returncode == 3 and "no complete ladders dump" in json.loads(empty.stdout)["error"]


@pytest.mark.parametrize(
    "flags, avoided, refused",
    [([], set(), None), (["--clean"], {"FART"}, "CUNT"), (["--strict"], {"FART", "COCK"}, "COCK")],
)
def test_php_clean_levels_route_around_flagged_words_and_refuse_flagged_ends(server, raw_db, flags, avoided, refused):
    """As `ladders solve`: FACT FART FARM and LOCK COCK CORK are the only two-step ladders; --clean avoids
    FART (offensive), --strict COCK too (vulgar_sense); a flagged end word is exit 14."""

    def php(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["php", str(PHP_SOLVER), f"--socket={server}", "--db=raw", *flags, *args], capture_output=True, text=True
        )

    for a, b, middle in (("FACT", "FARM", "FART"), ("LOCK", "CORK", "COCK")):
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


def test_php_usage_warnings_and_fatal_errors_are_json():
    """An option given twice was exit 4 ('database error: strtolower()'); a bad --host printed PHP's own
    warnings, its ESC raw. (A fatal error, memory_limit, is JSON and exit 5 from a shutdown function: tried
    by hand with PHP at memory_limit=2M, not here.)"""
    twice = subprocess.run(
        ["php", str(PHP_SOLVER), "--socket=/nonexistent", "--db=x", "--lexicon=csw", "--lexicon=owl", "CAT", "DOG"],
        capture_output=True,
        text=True,
    )
    assert twice.returncode == 2 and "more than once" in json.loads(twice.stdout)["error"]
    host = subprocess.run(
        ["php", str(PHP_SOLVER), "--db=x", "--host=\x1b[2J", "CAT", "DOG"], capture_output=True, text=True
    )
    assert host.returncode == 4 and "\x1b" not in host.stdout + host.stderr
    assert all("warning" in json.loads(line) for line in host.stderr.splitlines())


# ---- issue 38: the dump leaves the session as it found it; a cut load is detected ------------------


@pytest.fixture(scope="module")
def tiny_dump(tiny_export, tmp_path_factory) -> Path:
    dump = tmp_path_factory.mktemp("dump") / "tiny.sql"
    assert ladders("export-sql", "--export", str(tiny_export), "--out", str(dump)).returncode == 0
    return dump


def test_the_dump_puts_back_every_session_setting_it_changes(server, tiny_dump):
    """The dump left autocommit=0, unique_checks=0 and foreign_key_checks=0 on the session that sourced
    it: a later write in that session was rolled back at disconnect."""
    assert sql(server, "", "CREATE DATABASE session_kept").returncode == 0
    settings = "@@autocommit, @@unique_checks, @@foreign_key_checks, @@sql_mode, @@character_set_client"
    script = (
        "SET autocommit = 1, unique_checks = 1, foreign_key_checks = 1, sql_mode = 'ANSI_QUOTES';\n"
        f"SET NAMES latin1;\nSELECT {settings};\nsource {tiny_dump}\nSELECT {settings};\n"
        "CREATE TABLE mine (x INT) ENGINE=InnoDB;\nINSERT INTO mine VALUES (1);\n"
    )
    done = sql(server, "session_kept", "", stdin=script)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == lines[-1] == "1\t1\t1\tANSI_QUOTES\tlatin1"
    assert sql(server, "session_kept", "SELECT COUNT(*) FROM mine").stdout.split() == ["1"]


def test_a_dump_cut_between_statements_is_refused_by_the_php_solver(server, tiny_dump):
    """A dump cut between two statements loads with exit 0 (mysql has nothing left that fails) and empty
    tables; the PHP solver said "COLD is not in the CSW word list" (10). Now no ladders_complete row: 3."""
    statements = tiny_dump.read_text().split(";\n")
    cut = next(i for i, s in enumerate(statements) if s.startswith("INSERT INTO `words`"))
    assert sql(server, "", "CREATE DATABASE cut_short").returncode == 0
    loaded = sql(server, "cut_short", "", stdin=";\n".join(statements[:cut]) + ";\n")
    assert loaded.returncode == 0, loaded.stderr
    result = php(server, "cut_short", "COLD", "CORD")
    assert result.returncode == 3, result.stdout
    assert json.loads(result.stdout)["error"].startswith("no complete ladders dump loads here")
    whole = sql(server, "cut_short", "", stdin=tiny_dump.read_text())  # loaded again: whole
    assert whole.returncode == 0 and php(server, "cut_short", "COLD", "CORD").returncode == 0


@pytest.fixture(scope="module")
def tiny_db(server, tiny_dump) -> str:
    assert sql(server, "", "CREATE DATABASE tiny_php").returncode == 0
    assert sql(server, "tiny_php", "", stdin=tiny_dump.read_text()).returncode == 0
    return "tiny_php"


@pytest.mark.parametrize(
    "args, code",
    [
        (["--edit=1", "CAT", "COT"], 2),  # a flag given a value gave a non-edit answer
        (["--bogus", "CAT", "COT"], 2),  # unknown options were ignored, exit 0
        (["-x", "CAT", "COT"], 2),
        (["CAT", "COT", "--lexicon=csw", "--clean"], 0),  # options after the words, as the README shows them
        (["CAT", "--lexicon", "csw", "COT"], 0),
        (["--lexicon"], 2),
        (["--", "CAT", "COT"], 0),
    ],
)
def test_php_options_anywhere_and_unknown_ones_refused(server, tiny_db, args, code):
    result = php(server, tiny_db, *args)
    assert result.returncode == code, result.stdout
    if code == 2:
        assert "error" in json.loads(result.stdout)


@pytest.mark.parametrize("word", ["\ufb01re", "\u0131nk", "COLD\u200b", "\u00a0COLD"])
def test_php_refuses_what_is_not_a_z_after_the_one_rule(server, tiny_db, word):
    """The one rule of the three solvers: spaces and tabs around dropped, a-z folded, nothing else."""
    result = php(server, tiny_db, word, "CORD")
    assert result.returncode == 10 and json.loads(result.stdout)["error"].endswith("is not a word of letters A-Z")
    assert php(server, tiny_db, " cold\t", "CORD").returncode == 0


@pytest.mark.parametrize(
    "damage",
    [
        "ALTER TABLE words MODIFY rareness INT; UPDATE words SET rareness = -5 WHERE word = 'COLD'",
        "UPDATE words SET group_csw = NULL WHERE word = 'CORD'",
    ],
)
def test_php_refuses_a_damaged_words_table(server, tiny_dump, damage):
    """A negative rareness made the search loop for ever; a NULL group was a PHP type error."""
    assert sql(server, "", "DROP DATABASE IF EXISTS damaged; CREATE DATABASE damaged").returncode == 0
    assert sql(server, "damaged", "", stdin=tiny_dump.read_text()).returncode == 0
    assert sql(server, "damaged", damage).returncode == 0
    result = subprocess.run(
        ["php", str(PHP_SOLVER), f"--socket={server}", "--db=damaged", "COLD", "CORD"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 3, result.stdout
    assert json.loads(result.stdout)["error"].startswith("the words table is damaged")


@pytest.mark.parametrize("limit", ["8M", "32M"])
def test_php_out_of_memory_is_one_json_object(server, raw_db, limit):
    """Under a small memory_limit PHP printed "PHP Fatal error" twice beside its JSON (display_errors and
    log_errors): now the one JSON object of the shutdown function, exit 5, and nothing else."""
    done = subprocess.run(
        ["php", "-d", f"memory_limit={limit}", str(PHP_SOLVER), f"--socket={server}", "--db=raw", "happy", "sadly"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode in (0, 5), done.stdout + done.stderr
    assert len(done.stdout.splitlines()) == 1 and "PHP Fatal error" not in done.stdout + done.stderr
    if done.returncode == 5:
        assert json.loads(done.stdout)["error"].startswith("the PHP solver failed: Allowed memory size")


def test_php_gives_up_on_a_server_that_never_answers(tmp_path):
    """A server that accepts and never answers (stopped, hung) held the PHP solver for ever (mysqlnd's read
    timeout is a day): now it gives up within its timeouts (10 s to connect, 20 s an answer), exit 4."""
    import socket
    import threading

    if _missing():
        pytest.skip("needs php")
    path = tmp_path / "silent.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen(4)
    held = []
    threading.Thread(target=lambda: held.append(server.accept()), daemon=True).start()
    try:
        done = subprocess.run(
            ["php", str(PHP_SOLVER), f"--socket={path}", "--db=x", "CAT", "DOG"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        server.close()
    assert done.returncode == 4 and json.loads(done.stdout)["error"].startswith("cannot connect to the database server")


def test_a_float_and_a_nullable_int_load_unchanged(server, tiny_export, tmp_path):
    """The column table's encoders in the real server: a DOUBLE column (1.5 was cast to 1 before, and
    0.1, 2/3, 1e-300, 1e22 need their shortest exact text) and a nullable INT UNSIGNED (tests/test_columns.py
    sends the same two columns through Parquet, SQLite and the web data)."""
    from ladders.artifact.sqldump import mysql_dump
    from test_columns import MAYBES, SCORES, TABLE

    folder = tmp_path / "export"
    shutil.copytree(tiny_export, folder)
    words = pl.read_parquet(folder / "words.parquet")
    pad = [None] * (words.height - len(SCORES))
    words = words.with_columns(
        pl.Series("score", SCORES + pad, pl.Float64), pl.Series("maybe", MAYBES + pad, pl.UInt32)
    )
    words.write_parquet(folder / "words.parquet")
    assert sql(server, "", "CREATE DATABASE floats CHARACTER SET utf8mb4").returncode == 0
    loaded = sql(server, "floats", "", stdin="".join(mysql_dump(folder, TABLE)))
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.split() == ["ok", "ok", "ok"]
    # Each value compared in the server with the double Python gives it (the literal is Python's repr,
    # not the dump's text), and printed back (MariaDB prints a DOUBLE in 17 significant digits or fewer).
    for i, (score, maybe) in enumerate(zip(SCORES + pad, MAYBES + pad)):
        want = (
            f"score <=> {'NULL' if score is None else repr(score)} AND maybe <=> {'NULL' if maybe is None else maybe}"
        )
        found = sql(server, "floats", f"SELECT COUNT(*) FROM words WHERE id = {i} AND {want}")
        assert found.stdout.split() == ["1"], (i, score, maybe)
    printed = sql(server, "floats", "SELECT score, maybe FROM words ORDER BY id").stdout.splitlines()
    back = [tuple(None if v == "NULL" else v for v in line.split("\t")) for line in printed]
    assert [(None if s is None else float(s), None if m is None else int(m)) for s, m in back] == list(
        zip(SCORES + pad, MAYBES + pad)
    )


def test_a_lexicon_of_the_longest_allowed_name_loads(server, tmp_path):
    """ladder_groups' `lexicon` column takes its type from the column table: VARCHAR(32), the longest name
    the config allows (it was VARCHAR(8), and the strict load refused a longer lexicon's groups)."""
    from conftest import copy_tiny

    name = "a" * 31 + "z"
    tiny = copy_tiny(tmp_path)
    with (tiny / "config.toml").open("a") as f:
        f.write(f'[lexicons.{name}]\nfrom = "csw"\n')
    built = ladders("build", "--quiet", "--config", str(tiny / "config.toml"))
    assert built.returncode == 0, built.stderr
    load(server, "longname", tiny / "build/export", tmp_path)
    check_against_parquet(server, "longname", tiny / "build/export")
    found = sql(server, "longname", f"SELECT COUNT(*) > 0 FROM ladder_groups WHERE lexicon = '{name}'")
    assert found.stdout.split() == ["1"]
