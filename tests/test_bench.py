"""The bench's own machinery (bench/measure.py, bench/scale.py): no time is asserted, only that the
synthetic lexicons are what the scale section says they are, and that a child that dies is reported."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parents[1] / "bench"
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
