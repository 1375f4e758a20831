"""`make bench`: how fast and how big, measured side by side in one run, and issue 29's targets judged.

Prints Markdown tables and writes bench/results.json (never into the build folder, which holds only what
`ladders build` wrote). Not part of `make test`: nothing here asserts a time. Sections:
1. cold `ladders build` of raw/ into a fresh folder, as a child process (wall, CPU, peak RSS from wait4),
   median of 3; beside it, interleaved, the plain-Python oracle as a whole process (bench/oracle.py on CSW
   and OWL), the same build from licensed-format lists with definitions (see licensed_config), and the plain
   build with the allocator returning freed memory at once (PURGING); then a no-op build, and each stage
   alone: the stage table (stage_table: each stage's own work in the cold builds, and alone its wall, CPU
   and peak RSS);
2. the floor: `python -c "import polars"` (this interpreter, median of 5), interleaved with
   `ladders run links --force` and `run groups --force` (5 each): what a rerun costs above the floor;
3. links + groups on the real CSW list, in this process, against (a) a plain-Python star-word dictionary
   with union-find (the oracle the build is judged by), (b) networkx on (a)'s links, (c) brute-force
   pairwise comparison on a seeded 2% sample, extrapolated by the square of the size; same counts checked;
4. scale: the whole pipeline on a synthetic lexicon 16 times the CSW size, stage by stage (bench/scale.py;
   `make bench-scale` adds 64x), beside section 1's 1x;
5. solver latency over seeded random pairs in the largest groups, warm in one process; a fresh-process
   `ladders solve` beside its floor (a fresh interpreter importing what `ladders solve` imports);
   `ladders puzzle`.
It should take about ten minutes on two idle cores, most of it the 16x pipeline (46 on a loaded machine).
Run `python bench/bench.py --quick` for a smaller, faster pass (one build, a 2x scale, 200 solver pairs);
`--build-only` for section 1's cold builds and stages alone, judged against both oracles (a few minutes;
with --quick, one build).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measure import LADDERS, ROOT, STAGES, child, floor, median_of
from oracle import star_words, union_find_groups
from scale import bench_scale, real_lists, row, scale_table

sys.path.insert(0, str(ROOT))

import polars as pl  # noqa: E402

from pipeline.columns import WORDS_FILE, Col  # noqa: E402
from pipeline.config import load_config  # noqa: E402


# ---- 1: the build ------------------------------------------------------------------------------

REAL_SLICES = ROOT / "tests/data/real"
LICENSED_ENV = ("LADDERS_BENCH_CSW", "LADDERS_BENCH_OWL")  # real licensed files, when a maintainer has them


def licensed_config(tmp: Path) -> Path:
    """A config building raw/'s words from lists in the licensed formats, with definitions.

    CSW is written Collins style (a TAB, every word defined), OWL NASPA style with
    40% bare-word lines as in the real OWL.txt. The definitions are the real
    NASPA lines of tests/data/real, cycled over the words: real markup, links and
    run-on forms, at the real files' size. LADDERS_BENCH_CSW / LADDERS_BENCH_OWL
    name real files to use instead.
    """
    config = load_config()
    texts = [
        line.partition(" ")[2]
        for f in sorted(REAL_SLICES.glob("*.txt"))
        for line in f.read_text().splitlines()
        if " " in line
    ]
    paths = {}
    for key, env, sep, defined in (("csw", LICENSED_ENV[0], "\t", 1.0), ("owl", LICENSED_ENV[1], " ", 0.6)):
        if os.environ.get(env):
            paths[key] = os.environ[env]
            continue
        words = config.path(key).read_text().split()
        lines = [
            f"{w.upper()}{sep}{texts[i % len(texts)]}" if (i * 7919 % 100) < defined * 100 else w.upper()
            for i, w in enumerate(words)
        ]
        paths[key] = str(tmp / f"licensed_{key}.txt")
        Path(paths[key]).write_text("\n".join(lines) + "\n")
    keys = {k: str(config.path(k)) for k in ("scowl", "wordnet", "supplement")} | paths
    path = tmp / "licensed.toml"
    path.write_text("".join(f"{k} = {json.dumps(v)}\n" for k, v in keys.items()))
    return path


def lexicon_configs(tmp: Path) -> tuple[Path, Path]:
    """Two configs over raw/: csw and owl alone (the build before lexicons were configurable), and five
    lexicons: csw, owl, everyday (the defaults), csw plus the 50 names of bench/names.txt, and csw minus
    100 of its words drawn with a fixed seed."""
    csw = load_config().path("csw").read_text().split()
    (tmp / "banned.txt").write_text("\n".join(sorted(random.Random(37).sample(csw, 100))) + "\n")
    two, five = tmp / "two-lexicons.toml", tmp / "five-lexicons.toml"
    two.write_text("[lexicons]\neveryday = false\n")
    five.write_text(
        f'[lexicons.names]\nfrom = "csw"\nadd = {json.dumps(str(ROOT / "bench/names.txt"))}\n'
        '[lexicons.minus]\nfrom = "csw"\nremove = "banned.txt"\n'
    )
    return two, five


# polars' allocator (jemalloc) keeps freed pages for up to 1.5 s (polars sets dirty 500 ms, muzzy 1000 ms);
# this returns them at once. The README offers it to machines short of memory; the bench measures the cost.
PURGING = {"_RJEM_MALLOC_CONF": "dirty_decay_ms:0,muzzy_decay_ms:0"}


ORACLE = [sys.executable, str(ROOT / "bench" / "oracle.py")]  # + the word lists: the oracle as a whole process


def bench_build(tmp: Path, runs: int, only_cold: bool = False) -> dict:
    """Section 1. `only_cold` (--build-only): the cold builds, the oracle's process beside them and each
    stage alone, no other build."""
    colds, oracles, licensed, purging, two, five = [], [], [], [], [], []
    config = licensed_config(tmp)
    two_config, five_config = lexicon_configs(tmp)
    lists = [str(load_config().path(key)) for key in ("csw", "owl")]
    for i in range(runs):  # interleaved, so that a noisy moment hits all of them
        colds.append(child(LADDERS + ["build", "--quiet", "--build-dir", str(tmp / f"cold{i}")]))
        oracles.append(child(ORACLE + lists))
        if only_cold:
            continue
        for runs_of, lexicons, name in ((two, two_config, "two"), (five, five_config, "five")):
            args = ["build", "--quiet", "--config", str(lexicons), "--build-dir", str(tmp / f"{name}{i}")]
            runs_of.append(child(LADDERS + args))
        licensed.append(
            child(LADDERS + ["build", "--quiet", "--config", str(config), "--build-dir", str(tmp / f"licensed{i}")])
        )
        purging.append(
            child(LADDERS + ["build", "--quiet", "--build-dir", str(tmp / f"purging{i}")], env=os.environ | PURGING)
        )
    stages = {}
    for stage in STAGES:
        stages[stage] = child(LADDERS + ["run", stage, "--force", "--quiet", "--build-dir", str(tmp / "cold0")])
    cold = {"cold": median_of(colds), "cold_runs": colds, "oracle": median_of(oracles), "stages": stages}
    if only_cold:
        return cold
    lic_stages = {}
    for stage in ("lexicon", "definitions"):  # not a column: stage names
        lic_stages[stage] = child(
            LADDERS
            + ["run", stage, "--force", "--quiet", "--config", str(config), "--build-dir", str(tmp / "licensed0")]
        )
    noop = median_of([child(LADDERS + ["build", "--quiet", "--build-dir", str(tmp / "cold0")]) for _ in range(5)])
    return cold | {
        "purging": median_of(purging),
        "noop": noop,
        "licensed": median_of(licensed),
        "licensed_runs": licensed,
        "licensed_stages": lic_stages,
        "two_lexicons": median_of(two),
        "five_lexicons": median_of(five),
        "five_lexicons_runs": five,
        "licensed_inputs": "real files"
        if all(os.environ.get(e) for e in LICENSED_ENV)
        else "raw/ words with the definitions of tests/data/real, Collins CSW + NASPA OWL",
    }


# ---- 2: the floor under a rerun ----------------------------------------------------------------

FLOOR_IMPORTS = ["polars"]  # issue 29: a stage's process can do no better than a Python that imports polars
RERUN = ("links", "groups")  # not a column: the stages whose rerun overhead is judged


def bench_overhead(build_dir: Path, runs: int) -> dict:
    """The floor and each RERUN stage, interleaved `runs` times: per stage the median of wall - own work
    (the process, imports, lock, hashing, writing), and that above the floor's median."""
    floors, reruns = [], {stage: [] for stage in RERUN}
    for _ in range(runs):
        floors.append(floor(FLOOR_IMPORTS, 1))
        for stage in RERUN:
            reruns[stage].append(child(LADDERS + ["run", stage, "--force", "--quiet", "--build-dir", str(build_dir)]))
    for stage, done in reruns.items():
        if any(stage not in r["stage_s"] for r in done):  # the overhead would be the whole run: say so instead
            raise SystemExit(f"bench: `ladders run {stage}` printed no stage line that measure.STAGE_LINE reads")
    base = median_of(floors)
    out = {"floor": base, "floor_runs": runs, "floor_imports": FLOOR_IMPORTS}
    for stage, done in reruns.items():
        overhead = statistics.median(r["wall_s"] - r["own_s"] for r in done)
        out[stage] = median_of(done) | {"overhead_s": overhead, "above_floor_s": overhead - base["wall_s"]}
    return out


# ---- 3: links + groups against the methods they replace ---------------------------------


def ours(words: list[str], runs: int = 1) -> tuple[float, dict]:
    """Stages 4 and 5 on a word list: median seconds over `runs`, and the counts."""
    from stages.s04_links import build_links
    from stages.s05_groups import build_groups

    # Two lexicons of every word, as csw and owl (four labelings), and no SCOWL filter.
    lexicons = {"csw": {"file": "words.txt"}, "owl": {"file": "words.txt"}}
    lexicon = (
        pl.DataFrame({Col.word: sorted(words)})
        .with_row_index(Col.id)
        .with_columns(pl.lit(True).alias("list_csw"), pl.lit(True).alias("list_owl"))
    )
    rareness = lexicon.select(Col.id, pl.lit(None, pl.UInt8).alias("main_level"))
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        links = build_links(lexicon)["links"]  # not a column: the stage's output
        groups = build_groups(lexicon, rareness, links, lexicons)["groups"]
        times.append(time.perf_counter() - start)
    seconds = statistics.median(times)
    kinds = dict(links[Col.kind].value_counts().rows())
    return seconds, {
        "sub": kinds.get("sub", 0),
        "indel": kinds.get("indel", 0),
        "groups_sub": groups[Col.group_csw].n_unique(),
        "groups_edit": groups[Col.group_csw_edit].n_unique(),
    }


def baseline_star(words: list[str]) -> tuple[float, float, dict, tuple]:
    start = time.perf_counter()
    sub, indel = star_words(words)
    links_s = time.perf_counter() - start
    counts = {
        "sub": len(sub),
        "indel": len(indel),
        "groups_sub": union_find_groups(words, sub),
        "groups_edit": union_find_groups(words, sub + indel),
    }
    return time.perf_counter() - start, links_s, counts, (sub, indel)


def baseline_networkx(words: list[str], sub, indel, links_s: float) -> tuple[float, dict]:
    import networkx as nx

    start = time.perf_counter()
    graph = nx.Graph()
    graph.add_nodes_from(words)
    graph.add_edges_from(sub)
    groups_sub = nx.number_connected_components(graph)
    graph.add_edges_from(indel)
    groups_edit = nx.number_connected_components(graph)
    return links_s + time.perf_counter() - start, {
        "sub": len(sub),
        "indel": len(indel),
        "groups_sub": groups_sub,
        "groups_edit": groups_edit,
    }


def baseline_brute(words: list[str], share: float) -> tuple[float, float, dict, list[str]]:
    """Every pair within a length (sub) and across neighbouring lengths (indel), on a sample."""
    sample = sorted(random.Random(1).sample(words, int(len(words) * share)))
    by_length: dict[int, list[str]] = {}
    for w in sample:
        by_length.setdefault(len(w), []).append(w)
    start = time.perf_counter()
    sub = indel = 0
    for n, same in by_length.items():
        for i, a in enumerate(same):
            for b in same[i + 1 :]:
                if sum(x != y for x, y in zip(a, b)) == 1:
                    sub += 1
        for long in by_length.get(n + 1, []):
            for short in same:
                if any(long[:i] + long[i + 1 :] == short for i in range(len(long))):
                    indel += 1
    seconds = time.perf_counter() - start
    return seconds, seconds / share**2, {"sub": sub, "indel": indel}, sample


def bench_methods(words: list[str], share: float) -> dict:
    our_s, our_counts = ours(words, runs=5)  # cheap, so a median; the baselines run once
    star_s, links_s, star_counts, (sub, indel) = baseline_star(words)
    nx_s, nx_counts = baseline_networkx(words, sub, indel, links_s)
    brute_s, brute_full_s, brute_counts, sample = baseline_brute(words, share)
    _, sample_counts = ours(sample)
    return {
        "words": len(words),
        "ours_s": our_s,
        "ours": our_counts,
        "star_s": star_s,
        "star": star_counts,
        "star_same": star_counts == our_counts,
        "networkx_s": nx_s,
        "networkx": nx_counts,
        "networkx_same": nx_counts == our_counts,
        "brute_sample_words": len(sample),
        "brute_sample_s": brute_s,
        "brute_extrapolated_s": brute_full_s,
        "brute": brute_counts,
        "brute_same": brute_counts == {k: sample_counts[k] for k in ("sub", "indel")},
    }


# ---- 5: the solver (4, scale, is bench/scale.py) --------------------------------------------

# Run in a fresh interpreter as `python -m pipeline ...`: at exit, the top-level modules it had loaded.
LOADED = """
import atexit, runpy, sys
atexit.register(lambda: print(*sorted({{m.split('.')[0] for m in sys.modules}}), file=sys.stderr))
sys.argv = {argv!r}
runpy.run_module("pipeline", run_name="__main__")
"""
OURS = {"pipeline", "stages", "__main__"}


def imports_of(args: list[str]) -> list[str]:
    """What a `ladders` command imports that is not ours: the public top-level modules it had loaded
    (a leading underscore marks a private module that its public parent imports)."""
    code = LOADED.format(argv=["ladders", *args])
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    loaded = done.stderr.strip().splitlines()[-1].split()
    return [m for m in loaded if m not in OURS and not m.startswith("_")]


def bench_solver(export: Path, pairs: int) -> dict:
    from ladders.solve.solver import Ladders

    words = pl.read_parquet(export / WORDS_FILE, columns=[Col.word, Col.group_csw, Col.length])
    sizes = words[Col.group_csw].value_counts().sort("count", descending=True)
    largest = sizes[Col.group_csw].head(5).to_list()  # the five largest CSW groups (lengths 4 to 8)
    members = {g: words.filter(pl.col(Col.group_csw) == g)[Col.word].to_list() for g in largest}
    rng = random.Random(7)
    questions = []
    for _ in range(pairs):
        group = members[rng.choice(largest)]
        questions.append(tuple(rng.sample(group, 2)))
    ladders = Ladders.open(export)
    ladders.shortest(*questions[0])  # warm: the first question of a group loads it
    timings: dict[str, list[float]] = {"shortest": [], "common": []}
    for a, b in questions:
        for kind in timings:
            start = time.perf_counter()
            getattr(ladders, kind)(a, b, seed=1)
            timings[kind].append((time.perf_counter() - start) * 1000)
    solve = ["solve", "cold", "warm", "--export", str(export)]
    imports = imports_of(solve)
    fresh, floors = [], []
    for _ in range(5):  # interleaved with its floor
        fresh.append(child(LADDERS + solve)["wall_s"])
        floors.append(floor(imports, 1)["wall_s"])
    puzzle = [
        child(
            LADDERS
            + ["puzzle", "--length", "5", "--steps", "7", "--count", "3", "--seed", str(i), "--export", str(export)]
        )["wall_s"]
        for i in range(5)
    ]
    result = {
        "pairs": pairs,
        "fresh_process_s": statistics.median(fresh),
        "fresh_floor_s": statistics.median(floors),
        "fresh_floor_imports": imports,
        "puzzle_s": statistics.median(puzzle),
    }
    for kind, ms in timings.items():
        ms.sort()
        result[kind] = {"median_ms": statistics.median(ms), "p95_ms": ms[int(0.95 * (len(ms) - 1))]}
    return result


# ---- report ---------------------------------------------------------------------------------


def table(r: dict) -> str:
    """Everything measured, for people: the targets' table judges a few of these lines."""
    b, m, o = r["build"], r["methods"], r["overhead"]
    lines = ["| measure | value |", "|---|---|"]
    c = b["cold"]
    lines.append(
        f"| cold build of raw/, median of {len(b['cold_runs'])} | {c['wall_s']:.2f} s wall, "
        f"{c['cpu_s']:.2f} s CPU, {c['peak_rss_mib']:.0f} MiB peak RSS |"
    )
    p = b["purging"]
    lines.append(
        f"| the same, with `_RJEM_MALLOC_CONF={PURGING['_RJEM_MALLOC_CONF']}` | {p['wall_s']:.2f} s wall "
        f"({p['wall_s'] / c['wall_s']:.2f}x), {p['cpu_s']:.2f} s CPU, {p['peak_rss_mib']:.0f} MiB peak RSS |"
    )
    lic = b["licensed"]
    lines.append(
        f"| cold build, licensed formats with definitions ({b['licensed_inputs']}), median of "
        f"{len(b['licensed_runs'])} | {lic['wall_s']:.2f} s wall ({lic['wall_s'] / c['wall_s']:.2f}x the "
        f"plain build), {lic['cpu_s']:.2f} s CPU, {lic['peak_rss_mib']:.0f} MiB |"
    )
    for stage, s in b["licensed_stages"].items():
        lines.append(
            f"| licensed formats: `ladders run {stage} --force` | {s['wall_s']:.2f} s "
            f"({s['wall_s'] / b['stages'][stage]['wall_s']:.2f}x plain), {s['peak_rss_mib']:.0f} MiB |"
        )
    lines.append(f"| no-op build, median of 5 | {b['noop']['wall_s']:.2f} s, {b['noop']['cpu_s']:.2f} s CPU |")
    f = o["floor"]
    lines.append(
        f'| floor: `python -c "import {", ".join(o["floor_imports"])}"`, median of {o["floor_runs"]} | '
        f"{f['wall_s']:.3f} s wall, {f['cpu_s']:.3f} s CPU, {f['peak_rss_mib']:.0f} MiB |"
    )
    for stage in RERUN:
        x = o[stage]
        lines.append(
            f"| `ladders run {stage} --force`, median of {o['floor_runs']}, interleaved with the floor | "
            f"{x['wall_s']:.3f} s wall, {x['own_s']:.3f} s own work, {x['overhead_s']:.3f} s overhead, "
            f"{x['above_floor_s']:.3f} s above the floor |"
        )
    lines.append(
        f"| links + groups, ours ({m['words']:,} CSW words, in this process), median of 5 | {m['ours_s']:.2f} s |"
    )
    lines.append(
        f"| (a) the oracle: star-word dict + union-find, same counts: {m['star_same']} | {m['star_s']:.2f} s "
        f"({m['star_s'] / m['ours_s']:.1f}x ours) |"
    )
    lines.append(
        f"| (b) networkx on (a)'s links, same counts: {m['networkx_same']} | {m['networkx_s']:.2f} s "
        f"({m['networkx_s'] / m['ours_s']:.1f}x ours) |"
    )
    lines.append(
        f"| (c) brute force on a {m['brute_sample_words']:,}-word 2% sample ({m['brute_sample_s']:.2f} s), "
        f"extrapolated x2,500; sample counts same: {m['brute_same']} | {m['brute_extrapolated_s']:,.0f} s "
        f"({m['brute_extrapolated_s'] / m['ours_s']:,.0f}x ours) |"
    )
    v = r["solver"]
    for kind in ("shortest", "common"):
        lines.append(
            f"| solver `{kind}`, {v['pairs']:,} pairs, warm | median {v[kind]['median_ms']:.2f} ms, "
            f"p95 {v[kind]['p95_ms']:.2f} ms |"
        )
    lines.append(
        f"| fresh-process `ladders solve cold warm`, median of 5 | {v['fresh_process_s'] * 1000:.0f} ms; "
        f"its floor {v['fresh_floor_s'] * 1000:.0f} ms: a fresh interpreter importing {_named(v['fresh_floor_imports'])} |"
    )
    lines.append(
        f"| fresh-process `ladders puzzle --length 5 --steps 7 --count 3`, median of 5 seeds | {v['puzzle_s']:.2f} s |"
    )
    return "\n".join(lines)


def stage_table(b: dict) -> str:
    """Per stage: its own work in the cold builds (the seconds its line reports, median over them; stages
    run side by side there, so these do not add up to the wall time), and the stage alone in a process of
    its own (`ladders run <stage> --force` on the first cold build): wall, own work, CPU and peak RSS, the
    process's peak being the stage's (its inputs read, its transform, its outputs written)."""
    runs = b["cold_runs"]
    lines = [
        f"| stage | own work in the cold build, median of {len(runs)} | alone: wall | own work | CPU | peak RSS |",
        "|---|---|---|---|---|---|",
    ]
    for stage, s in b["stages"].items():
        own = [r["stage_s"][stage] for r in runs if stage in r["stage_s"]]
        in_build = f"{statistics.median(own):.2f} s" if own else "no stage line"
        lines.append(
            f"| {stage} | {in_build} | {s['wall_s']:.2f} s | {s['stage_s'].get(stage, 0):.2f} s | "
            f"{s['cpu_s']:.2f} s | {s['peak_rss_mib']:.0f} MiB |"
        )
    c, o = b["cold"], b["oracle"]
    lines.append(
        f"| the whole cold build | {c['wall_s']:.2f} s wall | | | {c['cpu_s']:.2f} s | {c['peak_rss_mib']:.0f} MiB |"
    )
    lines.append(
        f"| the plain-Python oracle's process (bench/oracle.py, CSW and OWL) | {o['wall_s']:.2f} s wall | | | "
        f"{o['cpu_s']:.2f} s | {o['peak_rss_mib']:.0f} MiB |"
    )
    return "\n".join(lines)


def oracle_targets(b: dict, star_s: float) -> list[dict]:
    """The cold build against both oracles: the star-word links + groups timed in this process (section 3),
    and the same method as a whole process on CSW and OWL (bench/oracle.py), interleaved with the builds."""
    cold, whole = b["cold"]["wall_s"], b["oracle"]["wall_s"]
    return [
        _judge(
            "cold build of raw/ vs the star-word oracle",
            f"{cold:.2f} s vs {star_s:.2f} s",
            cold / star_s,
            0.8,
            "<= 0.8x (goal 0.6x)",
            goal=0.6,
        ),
        _judge(
            "cold build of raw/ vs the plain-Python oracle as a whole process (CSW and OWL), interleaved",
            f"{cold:.2f} s vs {whole:.2f} s",
            cold / whole,
            0.5,
            "<= 0.5x",
        ),
    ]


def targets(r: dict) -> list[dict]:
    """Issue 29's targets: the measured value, the ratio it is judged by, the bound, PASS/FAIL (`info`:
    shown without a verdict). The oracle is the star-word links + groups of section 3, measured in this
    run; the ratio of any other target is the measured value over its bound."""
    b, m, v, o = r["build"], r["methods"], r["solver"], r["overhead"]
    oracle, base = m["star_s"], o["floor"]["wall_s"]
    cold, lic, noop = b["cold"], b["licensed"], b["noop"]["wall_s"]
    floor_name = f'`python -c "import {", ".join(o["floor_imports"])}"`'
    rows = [
        *oracle_targets(b, oracle),
        _judge(
            "licensed formats with definitions, cold, vs the oracle",
            f"{lic['wall_s']:.2f} s vs {oracle:.2f} s",
            lic["wall_s"] / oracle,
            1.2,
            "<= 1.2x (goal 1.0x)",
            goal=1.0,
        ),
        _info(f"the floor: {floor_name}, median of {o['floor_runs']}", f"{base:.3f} s"),
    ]
    if "five_lexicons" in b:
        two, five = b["two_lexicons"]["wall_s"], b["five_lexicons"]["wall_s"]
        rows.append(
            _judge(
                "five lexicons (csw, owl, everyday, csw + 50 names, csw - 100 words), cold, vs csw and owl alone",
                f"{five:.2f} s vs {two:.2f} s",
                five / two,
                1.3,
                "<= 1.3x",
            )
        )
    for stage in RERUN:
        above = o[stage]["above_floor_s"]
        rows.append(
            _judge(
                f"`ladders run {stage} --force`: overhead above the floor (wall - own work - floor)",
                f"{above:.3f} s",
                above / 0.08,
                1.0,
                "<= 0.08 s",
            )
        )
    rows += [
        _judge(
            "links + groups in one process: the oracle vs ours",
            f"{oracle:.2f} s vs {m['ours_s']:.2f} s",
            oracle / m["ours_s"],
            10,
            ">= 10x",
            at_least=True,
        ),
        _judge(
            "peak RSS of a cold build (default allocator)",
            f"{cold['peak_rss_mib']:.0f} MiB",
            cold["peak_rss_mib"] / 450,
            1.0,
            "<= 450 MiB",
        ),
        _info(
            "the same with the allocator purging (README)",
            f"{b['purging']['peak_rss_mib']:.0f} MiB at {b['purging']['wall_s'] / cold['wall_s']:.2f}x the time",
        ),
        _judge("no-op build", f"{noop:.2f} s", noop / 0.3, 1.0, "<= 0.3 s"),
        _info("no-op build above the floor", f"{noop - base:.2f} s"),
        _judge(
            "solver shortest p95, warm",
            f"{v['shortest']['p95_ms']:.2f} ms",
            v["shortest"]["p95_ms"] / 5,
            1.0,
            "<= 5 ms",
        ),
        _judge(
            "solver common-word p95, warm",
            f"{v['common']['p95_ms']:.2f} ms",
            v["common"]["p95_ms"] / 20,
            1.0,
            "<= 20 ms",
        ),
        _judge(
            "first solve in a fresh process",
            f"{v['fresh_process_s'] * 1000:.0f} ms",
            v["fresh_process_s"] / 0.15,
            1.0,
            "<= 150 ms",
        ),
        _info(
            f"its floor: a fresh interpreter importing what `ladders solve` imports: {_named(v['fresh_floor_imports'])}",
            f"{v['fresh_floor_s'] * 1000:.0f} ms ({(v['fresh_process_s'] - v['fresh_floor_s']) * 1000:.0f} ms above it)",
        ),
        _info(
            "export stage's own work (issue 26 asked <= 1.5 s)", f"{b['stages']['export']['stage_s']['export']:.2f} s"
        ),
    ]
    scale = {s["factor"]: s for s in r["scale"]}
    for factor, s in scale.items():
        if factor != 1 and s["build_s_per_million"] and scale[1]["build_s_per_million"]:
            growth = s["build_s_per_million"] / scale[1]["build_s_per_million"]
            rows.append(
                _info(
                    f"{factor}x synthetic lexicon: build seconds per million words, against 1x",
                    f"{s['build_s_per_million']:.1f} s/M vs {scale[1]['build_s_per_million']:.1f} s/M ({growth:.2f}x)",
                )
            )
    return rows


def _named(modules: list[str]) -> str:
    """A floor's imports in a line: the third-party modules by name, the standard library counted."""
    others = [m for m in modules if m not in sys.stdlib_module_names]
    return f"{', '.join(others)} and {len(modules) - len(others)} standard-library modules (results.json lists them)"


def _judge(name: str, measured: str, ratio: float, limit: float, wanted: str, goal=None, at_least=False) -> dict:
    passed = ratio >= limit if at_least else ratio <= limit
    verdict = "PASS" if passed else "FAIL"
    if goal is not None and passed:
        verdict += ", goal met" if ratio <= goal else ", goal not met"
    return {"target": name, "measured": measured, "ratio": round(ratio, 3), "wanted": wanted, "verdict": verdict}


def _info(name: str, measured: str) -> dict:
    return {"target": name, "measured": measured, "ratio": None, "wanted": "", "verdict": "info"}


def target_table(rows: list[dict]) -> str:
    lines = ["| target | measured | ratio | wanted | verdict |", "|---|---|---|---|---|"]
    for t in rows:
        ratio = "" if t["ratio"] is None else f"{t['ratio']:.2f}"
        lines.append(f"| {t['target']} | {t['measured']} | {ratio} | {t['wanted']} | {t['verdict']} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description="Benchmarks of the pipeline (see the module docstring).")
    parser.add_argument("--quick", action="store_true", help="1 build run, scale 2x, 200 solver pairs")
    parser.add_argument(
        "--build-only",
        action="store_true",
        help="the cold builds beside the oracle's process, each stage alone, the star-word oracle: the stage "
        "table and the two oracle targets, printed only (bench/results.json left as it is)",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    csw, owl = real_lists()
    results: dict = {"machine": {"cores": os.cpu_count(), "python": sys.version.split()[0], "polars": pl.__version__}}
    # Every child below runs from bytecode, as an installed ladders does (pip compiles on install). Where
    # PYTHONDONTWRITEBYTECODE is set (it is on this machine), each process would otherwise compile every
    # module of ours again: 0.23 s more for a fresh `ladders solve`.
    import compileall

    for package in ("pipeline", "stages"):
        compileall.compile_dir(ROOT / package, quiet=1)
    if args.build_only:
        return build_only(1 if args.quick else 3)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        print("bench: builds ...", file=sys.stderr)
        results["build"] = b = bench_build(tmp_path, 1 if args.quick else 3)
        print("bench: the floor and stage reruns ...", file=sys.stderr)
        results["overhead"] = bench_overhead(tmp_path / "cold0", 5)
        print("bench: links + groups against baselines ...", file=sys.stderr)
        results["methods"] = m = bench_methods(csw, 0.02)
        print("bench: solver ...", file=sys.stderr)
        results["solver"] = bench_solver(tmp_path / "cold0" / "export", 200 if args.quick else 1000)
        # 1x is section 1's build of raw/ (the real lists are the 1x lexicon); then the synthetic ones
        links = m["ours"]["sub"] + m["ours"]["indel"]
        results["scale"] = [row(1, len(csw), len(owl), b["cold"], b["stages"], links)]
        results["scale"] += bench_scale(csw, owl, [2] if args.quick else [16], tmp_path)
    results["targets"] = targets(results)
    results["total_s"] = time.perf_counter() - started
    (ROOT / "bench" / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    print(table(results))
    print()
    print(stage_table(results["build"]))
    print()
    print(scale_table(results["scale"]))
    print()
    print(target_table(results["targets"]))
    print(f"\n({results['total_s'] / 60:.1f} min; written to bench/results.json)")


def build_only(runs: int) -> None:
    """--build-only: section 1's cold builds and stages, and the build against both oracles."""
    with tempfile.TemporaryDirectory() as tmp:
        print("bench: builds beside the oracle's process ...", file=sys.stderr)
        b = bench_build(Path(tmp), runs, only_cold=True)
    csw, _ = real_lists()
    star_s = statistics.median(baseline_star(csw)[0] for _ in range(runs))
    print(stage_table(b))
    print()
    print(target_table(oracle_targets(b, star_s)))


if __name__ == "__main__":
    main()
