"""The MySQL dump in a real MariaDB server (`make test-sql`): every row and text of the tiny and raw/ exports
loaded byte for byte, hostile definitions (tests/data/hostile/) in every sql_mode, a short or truncated
load caught by the dump's final check, the session left as found, and the column table's types (a float, a
nullable integer, the longest lexicon name). The server and the databases: tests/support/mariadb.py; the PHP
solver against them: tests/integration/test_sql_php.py."""

from __future__ import annotations

import shutil

import polars as pl
import pytest

from support.mariadb import HOSTILE, check_against_parquet, dump_text, ladders, load, sql

pytestmark = pytest.mark.sql


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


def test_raw_dump_loads_with_its_rows_and_groups(server, raw_export, raw_db):
    check_against_parquet(server, raw_db, raw_export)


# The dump's tables but ladders_complete, sorted (ladders_alphabet, ladders_language: issue 45).
DUMP_TABLES = ["ladder_groups", "ladders_alphabet", "ladders_language", "ladders_settings", "links", "words"]

# ---- hostile definitions, in every sql_mode -------------------------------------------

# The server's default (MariaDB 10.11: strict), backslashes as plain characters, not strict at all, and
# ANSI ("" quotes identifiers, || concatenates) with backslashes plain.
MODES = {"default": None, "no_backslash": "NO_BACKSLASH_ESCAPES", "not_strict": "", "ansi": "ANSI,NO_BACKSLASH_ESCAPES"}


@pytest.mark.parametrize("mode", MODES)
def test_hostile_definitions_load_as_text_in_every_sql_mode(server, hostile_export, tmp_path, mode):
    """The injection (`x',NULL,...); CREATE TABLE pwned ...; -- `) ran its statement under
    NO_BACKSLASH_ESCAPES; a 100 KB definition failed (strict) or was cut to 65,535 bytes (not strict)."""
    database = f"hostile_{mode}"
    assert sql(server, "", f"CREATE DATABASE {database} CHARACTER SET utf8mb4").returncode == 0
    loaded = sql(server, database, "", stdin=dump_text(hostile_export, tmp_path), mode=MODES[mode])
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout.split() == ["ok"] * 6  # words, links, ladder_groups, settings, alphabet, language
    tables = sql(server, database, "SHOW TABLES").stdout.split()
    assert sorted(tables) == sorted([*DUMP_TABLES, "ladders_complete"]) and "pwned" not in tables
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
    text = dump_text(hostile_export, tmp_path)
    assert "SET SESSION sql_mode = 'STRICT" in text
    text = "".join(line for line in text.splitlines(keepends=True) if "sql_mode" not in line)
    assert sql(server, "", f"CREATE DATABASE {database} CHARACTER SET utf8mb4").returncode == 0
    loaded = sql(server, database, "", stdin=text, mode=MODES[mode])
    assert loaded.returncode == 0, loaded.stderr
    assert sorted(sql(server, database, "SHOW TABLES").stdout.split()) == sorted([*DUMP_TABLES, "ladders_complete"])
    check_against_parquet(server, database, hostile_export)


def test_a_truncated_text_fails_the_load(server, hostile_export, tmp_path):
    """Were the definition column still TEXT and the session not strict, MariaDB would cut the 100 KB
    definition to 65,535 bytes with a warning only: the dump's final check of lengths and checksums
    must turn that into a failed load."""
    text = dump_text(hostile_export, tmp_path)
    assert "`definition` MEDIUMTEXT" in text
    text = text.replace("`definition` MEDIUMTEXT", "`definition` TEXT")
    text = "".join(line for line in text.splitlines(keepends=True) if "sql_mode" not in line)
    assert sql(server, "", "CREATE DATABASE truncated CHARACTER SET utf8mb4").returncode == 0
    loaded = sql(server, "truncated", "", stdin=text, mode="")
    assert loaded.returncode != 0 and "Subquery returns more than 1 row" in loaded.stderr
    cut = sql(server, "truncated", "SELECT MAX(LENGTH(definition)) FROM words").stdout.split()
    assert int(cut[0]) <= 65_535  # the truncation the check caught (at a character boundary)


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


def test_a_float_and_a_nullable_int_load_unchanged(server, tiny_export, tmp_path):
    """The column table's encoders in the real server: a DOUBLE column (1.5 was cast to 1 before, and
    0.1, 2/3, 1e-300, 1e22 need their shortest exact text) and a nullable INT UNSIGNED
    (tests/integration/test_columns_round_trip.py sends the same two columns through Parquet, SQLite and the web
    data)."""
    from ladders.artifact.sqldump import mysql_dump
    from support.columns import MAYBES, SCORES, TABLE

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
    assert loaded.stdout.split() == ["ok"] * 6  # words, links, ladder_groups, settings, alphabet, language
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


def test_a_build_of_the_most_lexicons_allowed_loads_with_64_keys(server, tmp_path):
    """43 lexicons gave table words 88 keys and the load failed (ERROR 1069, max 64 keys); the config now
    stops at MAX_LEXICONS (tests/integration/test_sql_config.py), and a build of that many loads and is solved."""
    from conftest import copy_tiny
    from pipeline.columns import MAX_LEXICONS, MYSQL_KEYS
    from test_sql_config import lexicons_table

    tiny = copy_tiny(tmp_path)
    with (tiny / "config.toml").open("a") as f:
        f.write(lexicons_table(MAX_LEXICONS))
    built = ladders("build", "--quiet", "--config", str(tiny / "config.toml"))
    assert built.returncode == 0, built.stderr
    load(server, "most_lexicons", tiny / "build/export", tmp_path)
    keys = sql(
        server,
        "most_lexicons",
        "SELECT COUNT(DISTINCT INDEX_NAME) FROM information_schema.STATISTICS "
        "WHERE TABLE_SCHEMA = 'most_lexicons' AND TABLE_NAME = 'words'",
    )
    assert keys.stdout.split() == [str(MYSQL_KEYS)]
