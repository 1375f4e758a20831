"""The PHP solver (solvers/php/ladder.php) against the MySQL dump in a real MariaDB server (`make test-sql`):
the same ladders as `ladders solve`, hostile definitions printed as inert JSON, every refusal as JSON with
the solver's exit codes. The server and the databases: tests/support/mariadb.py."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import polars as pl
import pytest

from ladders.solve.question import AROUND
from support.mariadb import PHP_SOLVER, missing_tools, php, sql
from pipeline.alphabet import FoldError, fold

pytestmark = pytest.mark.sql


# The shape both solvers print (docs/json.md): every key, at every level.
TOP = {"from", "to", "lexicon", "edit", "clean", "strict", "group", "shortest", "common", "same"}
LADDER = {"steps", "rareness", "cost", "ties", "everyday", "words"}
RULE = {"common": 1, "uncommon": 5}  # the common-word rule's cost by label, as the README states it
RUNG = {"word", "label", "rareness", "definition"}


def random_pairs(export, count: int, seed: int) -> list[tuple[str, str]]:
    """Pairs of words of one length from the largest CSW group, half of them two everyday words."""
    words = pl.read_parquet(export / "words.parquet", columns=["word", "group_csw", "in_everyday", "length"])
    largest = words["group_csw"].value_counts().sort("count", descending=True)["group_csw"][0]
    members = words.filter(pl.col("group_csw") == largest)
    rng = random.Random(seed)
    pairs = []
    for i in range(count):
        pool = members.filter(pl.col("in_everyday")) if i % 2 else members
        length = rng.choice(sorted(set(pool["length"])))
        same = sorted(pool.filter(pl.col("length") == length)["word"])
        if len(same) >= 2:
            pairs.append(tuple(rng.sample(same, 2)))
    return pairs


def assert_same_answer(got: dict, cli: dict, neighbours: dict[str, set[str]]) -> None:
    """PHP's answer against `ladders solve --json`'s, by the shape as specified: every key; the question, the
    group, and for each ladder its steps, rareness, cost (an everyday word 1, an uncommon one 5, any other its rareness), ties
    and everyday, computed from the CLI's words (word, rareness and label, which every version prints); the
    same words when no other ladder ties exactly (each solver draws its own among ties)."""
    assert set(got) == TOP and {k: got[k] for k in ("from", "to", "lexicon", "edit", "clean", "strict", "group")} == {
        k: cli[k] for k in ("from", "to", "lexicon", "edit", "clean", "strict", "group")
    }
    for kind in ("shortest", "common"):
        mine, theirs = got[kind], cli[kind]
        assert set(mine) == LADDER and all(set(w) == RUNG for w in mine["words"])
        words = [w["word"] for w in mine["words"]]
        assert words[0] == got["from"] and words[-1] == got["to"]
        assert all(v in neighbours[u] for u, v in zip(words, words[1:]))
        rungs = theirs["words"]
        expected = {
            "steps": len(rungs) - 1,
            "rareness": sum(w["rareness"] for w in rungs),
            "ties": theirs["ties"],
        }
        rule = {
            "cost": sum(RULE.get(w["label"], w["rareness"]) for w in rungs),
            "everyday": all(w["label"] == "common" for w in rungs),
        }
        # Ladders tie exactly on (steps, rareness) for the shortest, (cost, steps, rareness) for the common.
        if kind == "common" or theirs["ties"] == 1:
            expected |= rule
        assert {k: mine[k] for k in expected} == expected, (kind, got["from"], got["to"])
        assert mine["cost"] == sum(RULE.get(w["label"], w["rareness"]) for w in mine["words"])
        assert mine["everyday"] == all(w["label"] == "common" for w in mine["words"])
        if theirs["ties"] == 1:
            assert mine["words"] == rungs
    assert got["same"] == (got["shortest"]["words"] == got["common"]["words"])


def neighbours_of(export) -> dict[str, set[str]]:
    words = pl.read_parquet(export / "words.parquet", columns=["word", "links", "edit_links"])
    names = words["word"].to_list()
    return {w: {names[i] for i in a} | {names[i] for i in b} for w, a, b in words.rows()}


def cli_json(export, *args: str) -> dict:
    return cli_answer(export, *args)[1]


def cli_answer(export, *args: str) -> tuple[int, dict]:
    """`ladders solve --json`'s exit code and JSON, family-safe (--strict: the default to be, and today's)."""
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", "solve", *args, "--strict", "--json", "--export", str(export)],
        capture_output=True,
        text=True,
    )
    assert done.returncode in (0, 10, 11, 12, 13, 14), done.stdout + done.stderr
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize("build", ["default", "common50"])
def test_php_answers_like_ladders_solve_json_on_random_pairs(server, raw_export, raw_db, raw50_export, raw50_db, build):
    """Item 3: with [rareness_labels] common = 50, 4 of 60 random pairs got another common-word ladder from
    PHP (EVERYDAY_LEVEL = 35 spelled in ladder.php); item 16: PHP printed another JSON shape (words as strings,
    no ties, no labels). Family-safe both (PHP's default, the CLI's --strict)."""
    export, db = (raw_export, raw_db) if build == "default" else (raw50_export, raw50_db)
    neighbours = neighbours_of(export)
    pairs = [("COLD", "WARM"), ("CHAIR", "TABLE"), ("GOER", "FADE"), ("MAGG", "SINS")] + random_pairs(export, 40, 3)
    answered = 0
    for a, b in pairs:
        done = php(server, db, a, b)
        code, cli = cli_answer(export, a, b)
        assert done.returncode == code, (a, b, done.stdout, cli)
        if code:  # the same refusal (a flagged end word, no clean ladder): the same code in the same shape
            assert set(json.loads(done.stdout)) == {"error"} and json.loads(done.stdout)["error"]["code"] == code
            continue
        assert_same_answer(json.loads(done.stdout), cli, neighbours)
        answered += 1
    assert answered >= len(pairs) // 2
    edit = php(server, db, "--edit", "CAT", "DOGS")
    assert_same_answer(json.loads(edit.stdout), cli_json(export, "CAT", "DOGS", "--edit"), neighbours)


def test_no_everyday_ladder_is_said_by_everyday_false(server, raw_export, raw_db):
    """Item 23: CHAIR -> TABLE has no ladder of everyday words; the least-rare ladder says so."""
    got = json.loads(php(server, raw_db, "CHAIR", "TABLE").stdout)
    assert got["common"]["everyday"] is False
    assert any(w["label"] != "common" for w in got["common"]["words"])
    cold = json.loads(php(server, raw_db, "COLD", "WARM").stdout)
    assert cold["common"]["everyday"] is True


def test_php_is_family_safe_by_default_and_gives_every_word_with_all(server, raw_db):
    """Item 17: BOAT -> SHIP stepped on SHAT and SHIT by default."""
    flagged = set(sql(server, raw_db, "SELECT word FROM words WHERE offensive = 1 OR vulgar_sense = 1").stdout.split())
    safe = json.loads(php(server, raw_db, "BOAT", "SHIP").stdout)
    assert (safe["clean"], safe["strict"]) == (True, True)
    assert not {w["word"] for k in ("shortest", "common") for w in safe[k]["words"]} & flagged
    every = json.loads(php(server, raw_db, "--all", "BOAT", "SHIP").stdout)
    assert (every["clean"], every["strict"]) == (False, False)
    assert {w["word"] for w in every["shortest"]["words"]} & flagged
    assert every["shortest"]["steps"] < safe["shortest"]["steps"]
    both = php(server, raw_db, "--all", "--clean", "BOAT", "SHIP")
    assert both.returncode == 2 and json.loads(both.stdout)["error"]["code"] == 2


@pytest.mark.parametrize(
    "args, code",
    [(["COLD", "XQZV"], 10), (["COLD", "WARMS"], 11), (["ZYZZYVA", "ABALONE"], 12), (["COLD", "COLD"], 13)],
)
def test_php_refusals_use_the_solver_exit_codes(server, raw_db, args, code):
    php = subprocess.run(
        ["php", str(PHP_SOLVER), f"--socket={server}", "--db=raw", *args], capture_output=True, text=True
    )
    assert php.returncode == code and "error" in json.loads(php.stdout)


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
    error = json.loads(result.stdout)["error"]
    try:
        fold(word.decode().strip(AROUND))
    except UnicodeDecodeError:
        assert error["message"].endswith("is not UTF-8 text, so not a word of English letters")
    except FoldError as e:  # the shared rule names the character the PHP solver names (issue 45)
        assert error.get("char") == e.char and "English" in error["message"]


def test_php_connection_and_missing_dump_errors_are_json(server, hostile_db, tmp_path):
    """A wrong socket or database died with an uncaught mysqli_sql_exception (exit 255)."""
    wrong_socket = php(tmp_path / "no.sock", hostile_db, "CAT", "DOG")
    assert wrong_socket.returncode == 4, wrong_socket.stdout + wrong_socket.stderr
    assert json.loads(wrong_socket.stdout)["error"]["message"].startswith("cannot connect to the database server: ")
    assert wrong_socket.stderr == b""
    wrong_db = php(server, "no_such_database", "CAT", "DOG")
    assert wrong_db.returncode == 3 and json.loads(wrong_db.stdout)["error"]["message"].startswith(
        "no ladders dump here: "
    )
    assert sql(server, "", "CREATE DATABASE empty_one").returncode == 0
    empty = php(server, "empty_one", "CAT", "DOG")
    assert empty.returncode == 3 and "no complete ladders dump" in json.loads(empty.stdout)["error"]["message"]


@pytest.mark.parametrize(
    "flags, avoided, refused",
    [
        (["--all"], set(), None),
        (["--clean"], {"FART"}, "CUNT"),
        ([], {"FART", "COCK"}, "COCK"),
        (["--strict"], {"FART", "COCK"}, "COCK"),
    ],
)
def test_php_clean_levels_route_around_flagged_words_and_refuse_flagged_ends(server, raw_db, flags, avoided, refused):
    """As `ladders solve`: FACT FART FARM and LOCK COCK CORK are the only two-step ladders; --clean avoids
    FART (offensive), the default (--strict) COCK too (vulgar_sense), --all neither (the default stepped on
    both); a flagged end word is exit 14."""

    def php(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["php", str(PHP_SOLVER), f"--socket={server}", "--db=raw", *flags, *args], capture_output=True, text=True
        )

    for a, b, middle in (("FACT", "FARM", "FART"), ("LOCK", "CORK", "COCK")):
        done = php(a, b)
        assert done.returncode == 0, done.stdout
        got = json.loads(done.stdout)
        shortest, common = [[w["word"] for w in got[k]["words"]] for k in ("shortest", "common")]
        if middle in avoided:
            assert middle not in shortest and middle not in common and len(shortest) == 4
        else:
            assert shortest == [a, middle, b]
    if refused:
        done = php(refused, "PUNT" if refused == "CUNT" else "ROCK")
        assert done.returncode == 14 and f"{refused} is flagged" in json.loads(done.stdout)["error"]["message"]


def test_php_usage_warnings_and_fatal_errors_are_json():
    """An option given twice was exit 4 ('database error: strtolower()'); a bad --host printed PHP's own
    warnings, its ESC raw. (A fatal error, memory_limit, is JSON and exit 5 from a shutdown function: tried
    by hand with PHP at memory_limit=2M, not here.)"""
    twice = subprocess.run(
        ["php", str(PHP_SOLVER), "--socket=/nonexistent", "--db=x", "--lexicon=csw", "--lexicon=owl", "CAT", "DOG"],
        capture_output=True,
        text=True,
    )
    assert twice.returncode == 2 and "more than once" in json.loads(twice.stdout)["error"]["message"]
    host = subprocess.run(
        ["php", str(PHP_SOLVER), "--db=x", "--host=\x1b[2J", "CAT", "DOG"], capture_output=True, text=True
    )
    assert host.returncode == 4 and "\x1b" not in host.stdout + host.stderr
    assert all("warning" in json.loads(line) for line in host.stderr.splitlines())


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
    assert json.loads(result.stdout)["error"]["message"].startswith("no complete ladders dump loads here")
    whole = sql(server, "cut_short", "", stdin=tiny_dump.read_text())  # loaded again: whole
    assert whole.returncode == 0 and php(server, "cut_short", "COLD", "CORD").returncode == 0


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
    """The one rule of the three solvers: ASCII whitespace around dropped, a-z folded, nothing else."""
    result = php(server, tiny_db, word, "CORD")
    error = json.loads(result.stdout)["error"]
    with pytest.raises(FoldError) as refused:
        fold(word.strip(AROUND))
    assert result.returncode == 10 and (error["char"], error["position"]) == (
        refused.value.char,
        refused.value.position,
    )
    assert f"U+{ord(refused.value.char):04X}" in error["message"] and "English alphabet" in error["message"]
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
    assert json.loads(result.stdout)["error"]["message"].startswith("the words table is damaged")


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
        assert json.loads(done.stdout)["error"]["message"].startswith("the PHP solver failed: Allowed memory size")


def test_php_gives_up_on_a_server_that_never_answers(tmp_path):
    """A server that accepts and never answers (stopped, hung) held the PHP solver for ever (mysqlnd's read
    timeout is a day): now it gives up within its timeouts (10 s to connect, 20 s an answer), exit 4."""
    import socket
    import threading

    if missing_tools():
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
    assert done.returncode == 4 and json.loads(done.stdout)["error"]["message"].startswith(
        "cannot connect to the database server"
    )
