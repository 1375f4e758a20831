"""The bench's own machinery (bench/measure.py, bench/scale.py): no time is asserted, only that the
synthetic lexicons are what the scale section says they are, and that a child that dies is reported."""

from __future__ import annotations

import sys

import numpy as np
from support.paths import ROOT

BENCH = ROOT / "bench"
sys.path.insert(0, str(BENCH))

import measure  # noqa: E402
import scale  # noqa: E402

# 40 real-looking words of lengths 2 to 6: small enough that short lengths hit the FILL cap at 64x.
WORDS = (
    "AA AB AD AE AG AH AI AL CAT COT COG DOG DIG BAT BAG BIG BOG CART CARE CORE CODE COLD CORD WARM WARD "
    "WORD WORE WIRE HOLD HELD HERD HARD CARDS CORDS WORDS WARMS COLDER HOLDER BOLDER FOLDER"
).split()


def test_synthetic_keeps_the_real_words_adds_distinct_copies_and_is_seeded():
    words = scale.synthetic(WORDS, 16, seed=3)
    assert len(words) == 16 * len(WORDS) == words.n_unique()
    assert set(WORDS) <= set(words)
    assert words.to_list() == sorted(words)
    assert words.str.contains("^[A-Z]+$").all()
    assert words.to_list() == scale.synthetic(WORDS, 16, seed=3).to_list()
    assert words.to_list() != scale.synthetic(WORDS, 16, seed=4).to_list()


def test_synthetic_fills_no_length_past_its_share_of_the_strings():
    words = scale.synthetic(WORDS, 64, seed=1)
    counts = np.bincount(words.str.len_bytes().to_numpy())
    real = np.bincount([len(w) for w in WORDS], minlength=len(counts))
    assert counts[2] == int(scale.FILL * 26**2)  # 64 x 8 two-letter words would be 512 of the 676 strings
    assert all(counts[n] <= max(real[n], scale.FILL * 26**n) for n in range(len(counts)))
    assert sum(counts) == 64 * len(WORDS)  # made up by the longer words


def test_a_child_that_fails_or_overruns_is_reported_not_raised():
    failed = measure.child(
        [sys.executable, "-c", "import sys; print('no such list', file=sys.stderr); sys.exit(2)"], time_limit=60
    )
    assert failed["died"] == "exit 2: no such list"
    slow = measure.child([sys.executable, "-c", "import time; time.sleep(60)"], time_limit=0.5)
    assert slow["died"] == "over the time limit (0 s)"
    hungry = "b = bytearray(3 * 2**30); b[::4096] = b'x' * len(b[::4096]); import time; time.sleep(60)"
    big = measure.child([sys.executable, "-c", hungry], memory_limit=2**30)
    assert big["died"].startswith(("over the memory limit (1 GiB)", "exit 1: MemoryError"))
    ok = measure.child([sys.executable, "-c", "pass"], time_limit=60)
    assert ok["died"] is None and ok["peak_rss_mib"] > 0


def _bench_module():
    """bench/bench.py by its path (the folder `bench` would shadow it as a package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_main", BENCH / "bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_oracle_process_counts_what_brute_force_counts(tmp_path):
    """bench/oracle.py, the plain-Python oracle the build is judged by (issue 46 item 5), run as the
    bench runs it: its links and groups are brute force's (tests/support/brute.py) on a small list."""
    import json
    import subprocess

    from support import brute

    (tmp_path / "words.txt").write_text("\n".join(w.lower() for w in WORDS) + "\n")
    done = subprocess.run(
        [sys.executable, str(BENCH / "oracle.py"), str(tmp_path / "words.txt")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)["words.txt"]
    words = sorted(WORDS)
    edges = brute.links(words)
    members = set(words)
    sub = brute.groups(words, edges, members, {"sub"})
    edit = brute.groups(words, edges, members, {"sub", "indel"})
    assert got == {
        "words": len(words),
        "sub": sum(kind == "sub" for *_, kind in edges),
        "indel": sum(kind == "indel" for *_, kind in edges),
        "groups_sub": len(set(sub.values())),
        "groups_edit": len(set(edit.values())),
    }


def test_the_stage_table_gives_each_stage_its_own_time_in_the_build_and_its_peak_alone():
    """make bench's stage table (issue 46 item 5): a row per stage of the registry, in its order, with the
    median of its own work over the cold builds (a build that did not run it left out) and the wall, own
    work, CPU and peak RSS of the stage alone; then the whole build and the oracle's process."""
    from ladders.compose import stages

    bench = _bench_module()
    names = [stage.name for stage in stages()]
    assert list(measure.STAGES) == names
    runs = [{"stage_s": {name: 1.0 + k + i for i, name in enumerate(names)}} for k in (0, 2, 10)]
    del runs[2]["stage_s"][names[0]]
    alone = {
        name: {"wall_s": 9.0 + i, "cpu_s": 8.0, "peak_rss_mib": 100.0 * (i + 1), "stage_s": {name: 0.5}}
        for i, name in enumerate(names)
    }
    whole = {"wall_s": 20.0, "cpu_s": 30.0, "peak_rss_mib": 700.0}
    table = bench.stage_table({"cold_runs": runs, "stages": alone, "cold": whole, "oracle": whole})
    rows = [line.split(" | ") for line in table.splitlines()[2:]]
    assert [row[0].strip("| ") for row in rows[: len(names)]] == names
    assert rows[0][1] == "2.00 s"  # the median of 1.0 and 3.0: the third build did not run it
    assert rows[1][1] == "4.00 s"  # 2.0, 4.0 and 12.0
    assert [row[-1].strip(" |") for row in rows[: len(names)]] == [f"{100 * (i + 1)} MiB" for i in range(len(names))]
    assert len(rows) == len(names) + 2 and "oracle" in rows[-1][0]
