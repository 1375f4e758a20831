"""Scale: the whole pipeline on synthetic lexicons N times the size of CSW, stage by stage.

For each factor: the real CSW words plus mutated copies of them (`synthetic`) written as a plain CSW list,
the real OWL words plus the same share of the copies as a plain OWL list, and a config pointing csw and
owl at those two files (every other input stays raw/'s). Then, each in a child process, a cold
`ladders build` and every stage again by `ladders run <stage> --force`: own seconds per million words and
peak RSS of each stage. A child that dies (an error, polars aborting on a failed allocation, or killed
past the time or memory limit) is reported as such, and the next one runs: where a stage dies is where
one machine ends.

`make bench` runs 16x (bench.py calls `bench_scale`); `make bench-scale` runs this file, by default at 1x,
16x and 64x (about 17 million words; it needs a free hour, several GiB of memory and ~10 GB of disk), and
writes bench/scale.json. `python bench/scale.py --factors 2` is a quick check.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

from measure import GIB, LADDERS, ROOT, STAGES, child

sys.path.insert(0, str(ROOT))

from pipeline.config import load_config  # noqa: E402

# Letters mutated per copy, by scale factor. The more copies crowd around the real words, the more
# letters each must change for the links per word to stay near the real list's 1.55; set by measuring
# (scale.json and results.json report the links per word of every run).
MUTATIONS = {4: (1, 2), 16: (2, 2, 3), 64: (3, 3, 3)}
# Copies fill at most this share of the strings of their length (never fewer words than the real list
# has). Without it short lengths fill up: 64 times the real 4-letter words are 79% of all 457,000
# four-letter strings, each linked to dozens, and that 64x lexicon had 2.1 links per word, not 1.55.
FILL = 0.2
TIME_LIMIT = 900  # seconds one child may take: past it a stage is called too slow for one machine
MEMORY_LIMIT = 10 * GIB  # resident memory one child may hold: under half the machine's 24 GiB, shared by four


def synthetic(words: list[str], factor: int, seed: int) -> pl.Series:
    """`factor` x as many words, sorted: the real ones, then copies of random real words with letters
    replaced (drawn with the list's own letter frequencies), duplicates dropped, in batches with numpy.
    Copies keep the real length distribution but for the short lengths FILL caps; MUTATIONS keeps the
    link density close."""
    target = factor * len(words)
    rng = np.random.default_rng(seed)
    width = max(map(len, words))
    real = np.frombuffer("".join(w.ljust(width, "\0") for w in words).encode(), np.uint8).reshape(-1, width)
    lengths = np.fromiter(map(len, words), np.int64, len(words))
    share = np.minimum(FILL * 26.0 ** np.arange(width + 1), 2**62).astype(np.int64)
    cap = np.maximum(np.bincount(lengths, minlength=width + 1), share)
    letters = np.frombuffer("".join(words).encode(), np.uint8)
    choices = np.array(MUTATIONS[min(MUTATIONS, key=lambda f: abs(f - factor))])
    out = pl.DataFrame({"w": words, "n": lengths})  # w: a word, n: its length
    while len(out) < target:
        open_bases = np.flatnonzero(np.bincount(out["n"], minlength=width + 1)[lengths] < cap[lengths])
        batch = int((target - len(out)) * 1.1) + 1000  # a few copies collide with a word already made
        picked = open_bases[rng.integers(len(open_bases), size=batch)]
        copies, n = real[picked], lengths[picked]
        changes = rng.choice(choices, size=batch)
        for k in range(choices.max()):
            rows = np.flatnonzero(changes > k)
            positions = (rng.random(len(rows)) * n[rows]).astype(np.int64)
            copies[rows, positions] = letters[rng.integers(len(letters), size=len(rows))]
        made = pl.Series("w", copies.view(f"S{width}").ravel()).cast(pl.String)  # NULs right-trimmed
        out = (
            pl.concat([out, pl.DataFrame({"w": made, "n": n})])
            .unique("w", keep="first", maintain_order=True)
            .filter(pl.int_range(pl.len()).over("n") < pl.lit(pl.Series(cap)).gather(pl.col("n")))
            .head(target)
        )
    return out["w"].sort()


def write_inputs(csw: list[str], owl: list[str], factor: int, folder: Path) -> tuple[Path, int, int]:
    """The synthetic CSW and OWL lists and a config naming them; the config's path and the words in each."""
    words = synthetic(csw, factor, seed=factor)
    share = len(owl) / len(csw)  # the real lists' OWL share, kept for the copies
    drawn = pl.Series(np.random.default_rng(factor).random(len(words)) < share)
    owl_words = words.filter(words.is_in(owl) | (drawn & ~words.is_in(csw)))
    lists = {"csw": folder / f"csw_{factor}x.txt", "owl": folder / f"owl_{factor}x.txt"}
    for key, series in (("csw", words), ("owl", owl_words)):
        series.to_frame().write_csv(lists[key], include_header=False)
    config = folder / f"scale_{factor}x.toml"
    keys = {key: str(path) for key, path in lists.items()} | {"csw_format": "plain", "owl_format": "plain"}
    config.write_text("".join(f"{k} = {json.dumps(v)}\n" for k, v in keys.items()))
    return config, len(words), len(owl_words)


def row(factor: int, words: int, owl: int, build: dict | None, stages: dict[str, dict], links: int | None) -> dict:
    """One factor's measurements: the build (None: not run) and each stage alone (seconds per million
    words, peak RSS)."""
    millions = words / 1e6
    per_stage = {}
    for name, run in stages.items():
        own = run["stage_s"].get(name)
        per_stage[name] = {
            "s_per_million": None if own is None else own / millions,
            "own_s": own,
            "wall_s": run["wall_s"],
            "cpu_s": run["cpu_s"],
            "peak_rss_mib": run["peak_rss_mib"],
            "died": run.get("died"),
        }
    return {
        "factor": factor,
        "words": words,
        "owl_words": owl,
        "links_per_word": None if links is None else links / words,
        "build": build and {k: build.get(k) for k in ("wall_s", "cpu_s", "peak_rss_mib", "own_s", "died")},
        "build_s_per_million": build["wall_s"] / millions if build and not build.get("died") else None,
        "stages": per_stage,
    }


def scale_run(
    csw: list[str],
    owl: list[str],
    factor: int,
    folder: Path,
    time_limit: float,
    memory_limit: int,
    build=True,
    save=lambda partial: None,
) -> dict:
    """One factor. Without `build` the stages alone, in order, are the whole pipeline (one pass, not two:
    what a machine too busy for two passes at 64x can do). `save` gets the row so far after each child."""
    started = time.perf_counter()
    config, words, owl_words = write_inputs(csw, owl, factor, folder)
    build_dir = folder / f"build_{factor}x"
    options = ["--quiet", "--config", str(config), "--build-dir", str(build_dir)]
    limits = {"time_limit": time_limit, "memory_limit": memory_limit}
    print(f"bench: scale {factor}x ({words:,} words) ...", file=sys.stderr)
    if build:
        build = child(LADDERS + ["build"] + options, time_limit=time_limit * 2, memory_limit=memory_limit)
        save(row(factor, words, owl_words, build, {}, None))
    stages = {}
    for stage in STAGES:
        print(f"bench: scale {factor}x: run {stage} --force ...", file=sys.stderr)
        stages[stage] = child(LADDERS + ["run", stage, "--force"] + options, **limits)
        save(row(factor, words, owl_words, build, stages, None))
    links = _rows(build_dir / "04_links.parquet")
    shutil.rmtree(build_dir, ignore_errors=True)
    for path in folder.glob(f"*_{factor}x.*"):
        path.unlink()
    result = row(factor, words, owl_words, build, stages, links)
    result["bench_s"] = time.perf_counter() - started  # what the factor cost, lists written included
    return result


def _rows(path: Path) -> int | None:
    return pl.scan_parquet(path).select(pl.len()).collect().item() if path.exists() else None


def bench_scale(
    csw: list[str], owl: list[str], factors: list[int], folder: Path, time_limit=TIME_LIMIT, memory_limit=MEMORY_LIMIT
) -> list[dict]:
    return [scale_run(csw, owl, factor, folder, time_limit, memory_limit) for factor in factors]


def scale_table(rows: list[dict], time_limit: float = TIME_LIMIT, memory_limit: int = MEMORY_LIMIT) -> str:
    """Per factor a line for the build and per stage: seconds of own work per million words, peak RSS."""
    head = "| stage | " + " | ".join(f"{r['factor']}x: {r['words'] / 1e6:.2f} M words" for r in rows) + " |"
    lines = [head, "|---" * (len(rows) + 1) + "|"]

    def cell(run: dict, per_million: float | None, died: str | None) -> str:
        if died:
            return f"DIED after {run['wall_s']:.0f} s, {run['peak_rss_mib']:,.0f} MiB: {died}"
        seconds = "no stage line" if per_million is None else f"{per_million:.1f} s/M"
        return f"{seconds}, {run['peak_rss_mib']:,.0f} MiB"

    lines.append(
        "| `ladders build` (wall) | "
        + " | ".join(
            cell(r["build"], r["build_s_per_million"], r["build"]["died"]) if r["build"] else "not run" for r in rows
        )
        + " |"
    )
    for stage in STAGES:
        cells = [
            cell(r["stages"][stage], r["stages"][stage]["s_per_million"], r["stages"][stage]["died"])
            if stage in r["stages"]
            else "not reached"
            for r in rows
        ]
        lines.append(f"| `run {stage} --force` (own work) | " + " | ".join(cells) + " |")
    density = [f"{r['links_per_word']:.2f}" if r["links_per_word"] else "?" for r in rows]
    lines.append("| links per word | " + " | ".join(density) + " |")
    lines.append(
        f"\n(a child is stopped past {time_limit:.0f} s, or {memory_limit / GIB:g} GiB resident; "
        "s/M: seconds of the stage's own work per million words)"
    )
    return "\n".join(lines)


def real_lists() -> tuple[list[str], list[str]]:
    config = load_config()
    return tuple([w.upper() for w in config.path(key).read_text().split()] for key in ("csw", "owl"))


def main() -> None:
    parser = argparse.ArgumentParser(description="The whole pipeline on synthetic lexicons (module docstring).")
    parser.add_argument("--factors", default="1,16,64", help="comma-separated scale factors (default 1,16,64)")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT, help="seconds per child process")
    parser.add_argument("--memory-limit-gib", type=float, default=MEMORY_LIMIT / GIB, help="resident GiB per child")
    parser.add_argument("--no-build", action="store_true", help="the stages alone only, one pass (no `ladders build`)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "scale.json"), help="where to write the results")
    args = parser.parse_args()
    factors = [int(f) for f in args.factors.split(",") if f.strip().isdigit() and int(f) >= 1]
    if len(factors) != len(args.factors.split(",")):
        parser.error(f"--factors must be whole numbers from 1 up, comma-separated, not {args.factors!r}")
    csw, owl = real_lists()
    memory = int(args.memory_limit_gib * GIB)
    started = time.perf_counter()
    result = {"time_limit_s": args.time_limit, "memory_limit_gib": args.memory_limit_gib}

    def write(rows: list[dict]) -> None:  # after each child: a long run that is stopped keeps what it measured
        result.update(scale=rows, total_s=time.perf_counter() - started)
        Path(args.out).write_text(json.dumps(result, indent=2) + "\n")

    rows: list[dict] = []
    with tempfile.TemporaryDirectory(dir=os.environ.get("LADDERS_BENCH_TMP")) as tmp:
        for factor in factors:
            save = lambda partial: write(rows + [partial])  # noqa: E731
            rows.append(scale_run(csw, owl, factor, Path(tmp), args.time_limit, memory, not args.no_build, save))
            write(rows)
    print(scale_table(rows, args.time_limit, memory))
    print(f"\n({result['total_s']:.0f} s in all; written to {args.out})")


if __name__ == "__main__":
    main()
