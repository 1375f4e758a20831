"""A load test of the PHP solver over HTTP on loopback (`make sql-up` first): CLIENTS concurrent clients for
SECONDS seconds, each asking for random pairs of everyday words (one length, one CSW group, no flagged word)
one after another; prints requests per second, p50/p95/max latency and the errors (any answer but 200 with a
ladder). Reads the export's words.parquet for the pairs; writes nothing.

    .venv/bin/python bench/php_load.py [--url http://127.0.0.1:8042/] [--clients 50] [--seconds 30]

`php -S` answers one request at a time per worker: `make sql-up` starts it with PHP_CLI_SERVER_WORKERS=4
(set it before `make sql-up` for another number).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import statistics
import threading
import time
import urllib.parse
from pathlib import Path

import polars as pl

from pipeline.columns import WORDS_FILE, Col, group_column, in_column


def everyday_pairs(export: Path, count: int, seed: int) -> list[tuple[str, str]]:
    group, everyday = group_column("csw", "sub"), in_column("everyday")
    words = pl.read_parquet(
        export / WORDS_FILE, columns=[Col.word, Col.length, group, everyday, Col.offensive, Col.vulgar_sense]
    ).filter(pl.col(everyday) & ~pl.col(Col.offensive) & ~pl.col(Col.vulgar_sense) & pl.col(group).is_not_null())
    by_key = words.group_by(group, Col.length).agg(Col.word).filter(pl.col(Col.word).list.len() >= 2)
    pools = [sorted(ws) for ws in by_key[Col.word].to_list()]
    weights = [len(p) for p in pools]
    rng = random.Random(seed)
    return [tuple(rng.sample(rng.choices(pools, weights)[0], 2)) for _ in range(count)]


def client(url, pairs, stop_at, latencies, errors, lock) -> None:
    parts = urllib.parse.urlsplit(url)
    rng = random.Random(threading.get_ident())
    while time.monotonic() < stop_at:
        a, b = rng.choice(pairs)
        began = time.monotonic()
        try:
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
            conn.request("GET", f"{parts.path or '/'}?from={a}&to={b}")
            response = conn.getresponse()
            body = json.loads(response.read())
            conn.close()
            ok = response.status == 200 and "shortest" in body
            # A pair with no clean ladder is an answer too (404), not an error of the server.
            ok = ok or (response.status == 404 and body["error"]["code"] == 12)
            why = None if ok else f"{response.status} {body.get('error')}"
        except (OSError, ValueError, http.client.HTTPException) as err:
            why = f"{type(err).__name__}: {err}"
        took = time.monotonic() - began
        with lock:
            latencies.append(took)
            if why:
                errors.append(why)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8042/")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--export", type=Path, default=Path("build/export"))
    args = parser.parse_args()
    pairs = everyday_pairs(args.export, 2_000, 42)
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    began = time.monotonic()
    stop_at = began + args.seconds
    threads = [
        threading.Thread(target=client, args=(args.url, pairs, stop_at, latencies, errors, lock))
        for _ in range(args.clients)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.monotonic() - began
    cuts = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else latencies * 99
    print(
        f"{args.clients} clients, {wall:.1f} s: {len(latencies)} requests, {len(latencies) / wall:.1f} requests/s, "
        f"p50 {cuts[49] * 1000:.0f} ms, p95 {cuts[94] * 1000:.0f} ms, max {max(latencies) * 1000:.0f} ms, "
        f"{len(errors)} errors"
    )
    for why in sorted(set(errors))[:5]:
        print("  error:", why)


if __name__ == "__main__":
    main()
