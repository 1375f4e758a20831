"""How bench.py and scale.py measure a child process: wall and CPU seconds, peak RSS, the stages' own work.

One function for both: the bench's children must succeed (a failure stops the bench), the scale runs' may
die (that is what they look for), so `child` takes optional limits and reports how a child ended.
"""

from __future__ import annotations

import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LADDERS = [sys.executable, "-m", "pipeline"]
STAGES = (  # the stage names, in the registry's order (tests/unit/bench/test_bench.py holds them to it)
    "dictionaries",  # not a column
    "lexicon",  # not a column
    "definitions",  # not a column
    "rareness",  # not a column
    "links",  # not a column
    "groups",  # not a column
    "analysis",  # not a column
    "export",  # not a column
)

STAGE_LINE = re.compile(r"^(\d) (\w+) +[0-9,]+ rows +([0-9.]+) s +ran$", re.M)  # the runner's line of a stage that ran
GIB = 2**30


def child(
    cmd: list[str], env: dict | None = None, time_limit: float | None = None, memory_limit: int | None = None
) -> dict:
    """Run a command from the repository's root; its wall seconds, CPU seconds and peak RSS (MiB) from
    the kernel's rusage of that child, and `own_s`, the seconds its stages reported for their own work
    (`stage_s` by stage; the rest of the wall time is overhead).

    Without limits a failure stops the bench. With them the child is killed past `time_limit` seconds or
    past `memory_limit` bytes of resident memory (looked at every 0.1 s; an address-space limit of twice
    that plus 4 GiB stops a faster climb, and polars then aborts), and `died` says how it ended (None: it
    finished).
    """
    limited = time_limit is not None or memory_limit is not None

    def cap_address_space() -> None:
        if memory_limit:
            size = 2 * memory_limit + 4 * GIB
            resource.setrlimit(resource.RLIMIT_AS, (size, size))

    with tempfile.TemporaryFile() as err_file:  # a file, not a pipe: nothing blocks while we watch
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err_file, preexec_fn=cap_address_space
        )
        killed = None
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG if limited else 0)
            if pid:
                break
            if time_limit is not None and time.perf_counter() - start > time_limit:
                killed = f"over the time limit ({time_limit:.0f} s)"
            elif memory_limit is not None and _rss(proc.pid) > memory_limit:
                killed = f"over the memory limit ({memory_limit / GIB:g} GiB)"
            if killed:
                os.kill(proc.pid, signal.SIGKILL)
                _, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.1)
        wall = time.perf_counter() - start
        proc.returncode = code = os.waitstatus_to_exitcode(status)
        err_file.seek(0)
        err = err_file.read().decode(errors="replace")
    died = killed or (None if code == 0 else _death(code, err))
    if died and not limited:
        raise SystemExit(f"bench: {' '.join(cmd)} failed:\n{err}")
    stage_s = {name: float(s) for _, name, s in STAGE_LINE.findall(err)}
    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_rss_mib": usage.ru_maxrss / 1024,
        "own_s": sum(stage_s.values()),
        "stage_s": stage_s,
        "died": died,
    }


def _rss(pid: int) -> int:
    """Resident bytes of a running process (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def _death(code: int, err: str) -> str:
    last = err.strip().splitlines()[-1][:160] if err.strip() else ""
    if code < 0:
        return f"killed by {signal.Signals(-code).name}" + (f": {last}" if last else "")
    if code == 134:  # polars aborts on a failed allocation
        return f"aborted (exit 134, a failed allocation?): {last}"
    return f"exit {code}: {last}"


def median_of(runs: list[dict]) -> dict:
    """The median of each number over runs (per-stage seconds and `died` are left out)."""
    return {k: statistics.median(r[k] for r in runs) for k, v in runs[0].items() if isinstance(v, (int, float))}


def floor(imports: list[str], runs: int) -> dict:
    """A fresh interpreter (this one) importing `imports` and nothing else: the part of a command's time
    that no code of ours can remove. Median of `runs` children."""
    return median_of([child([sys.executable, "-c", f"import {', '.join(imports)}"]) for _ in range(runs)])
