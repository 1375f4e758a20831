"""The PHP solver over HTTP (solvers/php/ladder.php under `php -S 127.0.0.1:PORT`, as `make sql-up` starts
it): the same JSON as `ladders solve --json` for the words and options as query parameters, the same
refusals with an HTTP status that matches, the database named by the server's environment only."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from support.mariadb import PHP_SOLVER
from test_sql_php import assert_same_answer, cli_answer, cli_json, neighbours_of, random_pairs

pytestmark = pytest.mark.sql


@pytest.fixture(scope="module")
def http(server, raw_db):
    """php -S on a free loopback port, two workers, reading raw_db; its base address."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = os.environ | {"LADDERS_SOCKET": str(server), "LADDERS_DB": raw_db, "PHP_CLI_SERVER_WORKERS": "2"}
    proc = subprocess.Popen(
        ["php", "-S", f"127.0.0.1:{port}", str(PHP_SOLVER)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30  # readiness, not a measurement: a slow machine waits longer
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail("php -S did not start")
            time.sleep(0.1)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def get(base: str, query: str, method: str = "GET") -> tuple[int, dict, str]:
    request = urllib.request.Request(base + "?" + query, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read()), response.headers["Content-Type"]
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read()), err.headers["Content-Type"]


def test_http_answers_like_ladders_solve_json(http, raw_export):
    """Under php -S the solver answered "database error: count()..." (it read $argv)."""
    neighbours = neighbours_of(raw_export)
    for a, b in [("COLD", "WARM"), ("CHAIR", "TABLE")] + random_pairs(raw_export, 6, 5):
        status, got, kind = get(http, f"from={a.lower()}&to={b}")
        code, cli = cli_answer(raw_export, a, b)
        assert kind.startswith("application/json") and status == {0: 200, 12: 404, 14: 422}[code], got
        if code == 0:
            assert_same_answer(got, cli, neighbours)
    status, got, _ = get(http, "from=cat&to=dogs&edit=1&lexicon=csw")
    assert status == 200 and got["edit"] is True
    assert_same_answer(got, cli_json(raw_export, "CAT", "DOGS", "--edit"), neighbours)
    status, every, _ = get(http, "from=boat&to=ship&all=1")
    assert status == 200 and (every["clean"], every["strict"]) == (False, False)


@pytest.mark.parametrize(
    "query, status, code",
    [
        ("from=cold&to=wxrm", 400, 10),
        ("from=cold&to=warms", 400, 11),
        ("from=zyzzyva&to=abalone", 404, 12),
        ("from=cold&to=cold", 400, 13),
        ("from=cunt&to=punt", 422, 14),
        ("from=cold", 400, 2),
        ("from=cold&to=warm&socket=/tmp/x.sock", 400, 2),  # a client never names the database
        ("from=cold&to=warm&from=cat", 400, 2),
        ("from=cold&to=warm&lexicon=Robert%27);DROP", 400, 2),
        ("from=cold&to=warm&lexicon=nope", 400, 2),
        ("from=cold&to=warm&edit=yes", 400, 2),
        ("from=%FF%FE&to=warm", 400, 10),
    ],
)
def test_http_refusals_are_the_cli_codes_with_a_matching_status(http, query, status, code):
    got_status, got, kind = get(http, query)
    assert (got_status, got["error"]["code"]) == (status, code), got
    assert set(got) == {"error"} and isinstance(got["error"]["message"], str) and kind.startswith("application/json")


def test_http_suggestions_and_only_get(http):
    status, got, _ = get(http, "from=cold&to=wxrm")
    assert status == 400 and "WARM" in got["error"]["suggestions"] and got["error"]["word"] == "WXRM"
    status, got, _ = get(http, "from=cold&to=warm", method="POST")
    assert status == 400 and got["error"]["code"] == 2


def test_http_without_a_database_is_503(server, tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = os.environ | {"LADDERS_SOCKET": str(tmp_path / "none.sock"), "LADDERS_DB": "x"}
    proc = subprocess.Popen(
        ["php", "-S", f"127.0.0.1:{port}", str(PHP_SOLVER)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.1)
        status, got, _ = get(f"http://127.0.0.1:{port}/", "from=cold&to=warm")
        assert status == 503 and got["error"]["code"] == 4
    finally:
        proc.terminate()
        proc.wait(timeout=30)
