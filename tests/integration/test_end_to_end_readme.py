"""The README's commands, run as a newcomer would, against the session's build of raw/ (tests/conftest.py,
raw_build)."""

from __future__ import annotations

import subprocess
import sys


from support.paths import ROOT


def readme_commands(section: str) -> list[str]:
    """The `.venv/bin/ladders solve|puzzle` lines of a README section's shell blocks, comments cut."""
    text = (ROOT / "README.md").read_text().split(f"## {section}\n", 1)[1].split("\n## ", 1)[0]
    blocks = [b.split("```", 1)[0] for b in text.split("```sh\n")[1:]]
    return [
        line.split(" #", 1)[0].strip()
        for b in blocks
        for line in b.splitlines()
        if line.startswith((".venv/bin/ladders solve", ".venv/bin/ladders puzzle"))
    ]


def test_each_readme_solve_and_puzzle_example_works_as_written(raw_export):
    import shlex

    examples = readme_commands("Solving a ladder")
    assert len(examples) >= 8
    for line in examples:
        args = shlex.split(line)[1:] + ["--build-dir", str(raw_export.parent)]  # the test's build of raw/
        done = subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0 and done.stdout and not done.stderr, (line, done.stderr)
        if "--count-only" in args:
            assert done.stdout.strip() == "7"  # as its comment says


# ---- issue 38: the README's command blocks, run as a newcomer would, against this build ----------------

# README lines not run here, each with why: they rebuild raw/ (minutes), delete it, need a licensed list,
# a database server or stay up serving (tests/integration/test_sql.py and tests/integration/test_web.py run
# those parts).
NOT_RUN = {
    "make build": "the build above is the same command with a temporary --build-dir",
    "make test": "this is it",
    "make sql-up": "make test-sql runs the README's MySQL block (tests/integration/test_sql_readme.py)",
    "mariadb --socket=build/mariadb/mysqld.sock ladders -e 'SELECT word, rareness FROM words WHERE word = \"COLD\"'": (
        "make test-sql (tests/integration/test_sql_readme.py)"
    ),
    "php solvers/php/ladder.php --socket=build/mariadb/mysqld.sock --db=ladders cold warm": "make test-sql",
    "curl 'http://127.0.0.1:8042/?from=cold&to=warm'": "make test-sql",
    "make sql-down": "make test-sql",
    "python3 -m http.server -d site --bind 127.0.0.1 8000": "make test-web serves the page the same way",
    ".venv/bin/ladders build --force": "a second cold build of raw/: minutes",
    "make clean": "would delete the build the other tests of this file read",
    ".venv/bin/ladders build --config my-lists.toml --build-dir build-csw21": "needs licensed lists",
    ".venv/bin/ladders build --config my-lists.toml --build-dir build-csw21 --lenient": "needs licensed lists",
    "_RJEM_MALLOC_CONF=dirty_decay_ms:0,muzzy_decay_ms:0 .venv/bin/ladders build -j 1": "make bench measures it",
    "make release": "tests/integration/test_release.py, and .ci/run runs it on raw/",
    "make release PREVIOUS=old-release.tar.gz": "needs a published release; .ci/run gives one as a folder",
    "make check-release": ".ci/run",
    # A language build needs its FreeDict files, which `make raw-lang` fetches from Debian's archive (the
    # network): tests/unit/scripts/test_fetch_lang.py checks the fetch, tests/integration/test_language_builds.py
    # builds and solves a real slice of each list.
    "make raw-lang LANG=es": "fetches from Debian's archive (tests/unit/scripts/test_fetch_lang.py)",
    ".venv/bin/ladders build --config languages/es.toml --build-dir build-es": "needs make raw-lang LANG=es",
    ".venv/bin/ladders solve pato gato --export build-es/export": "needs the Spanish build",
    ".venv/bin/ladders solve niño nido --export build-es/export --lexicon everyday": "needs the Spanish build",
}


def readme_command_lines() -> list[str]:
    """Every command line of the README's ```sh blocks (and its indented one), comments cut."""
    import re

    text = (ROOT / "README.md").read_text()
    lines = [line for block in re.findall(r"```sh\n(.*?)```", text, re.S) for line in block.splitlines()]
    lines += re.findall(r"^    (_RJEM\S+ .+)$", text, re.M)
    return [re.sub(r"\s+#.*$", "", line).strip() for line in lines if line.strip()]


def test_every_readme_command_runs_and_its_numbers_hold(raw_export, tmp_path):
    import shlex
    import shutil

    build_dir, site, old = raw_export.parent, tmp_path / "site", tmp_path / "old-export"
    places = {"build/export": str(raw_export), "old-export": str(old), "site": str(site)}
    ran = {}
    lines = readme_command_lines()
    assert set(NOT_RUN) <= set(lines)  # each line left out is still in the README
    for line in lines:
        if line in NOT_RUN:
            continue
        if line.startswith("cp -r build/export old-export"):
            shutil.copytree(raw_export, old)
            continue
        words = shlex.split(line)
        if words[0] == "make":  # make verify, make links: thin wrappers, as the Makefile spells them
            words = {"verify": ["verify"], "links": ["run", "links", "--force"]}[words[1]]
        else:
            assert words[0] == ".venv/bin/ladders", f"a README command this test does not know: {line}"
            words = [places.get(w, w) for w in words[1:]]
        if words[0] != "diff":
            words += ["--build-dir", str(build_dir)]
        done = subprocess.run([sys.executable, "-m", "pipeline", *words], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0, f"{line}: {done.stderr}"
        ran[line] = done.stdout
    assert ran[".venv/bin/ladders solve cold warm --count-only"] == "7\n"  # "(7)"
    assert ran[".venv/bin/ladders solve --all cold warm --limit 20"].startswith("7 shortest ladders of 4 steps:")
    boat = ran[".venv/bin/ladders solve boat ship"]  # family-safe by default: not through SHAT or SHIT
    assert "SHAT" not in boat and "SHIT" not in boat and "BOAT" in boat
    assert len(ran[".venv/bin/ladders puzzle --length 5 --steps 6 --common --count 3 --seed 1"].splitlines()) == 3
    # The page's numbers: 122 buckets, a manifest of about 20 KB, 40 MB of files and 12 MB of gzip copies.
    assert len(list((site / "data/b").glob("*.json"))) == 122
    assert 15_000 < (site / "data/manifest.json").stat().st_size < 25_000
    files = [p for p in site.rglob("*") if p.is_file() and p.name != ".ladders-web"]
    assert round(sum(p.stat().st_size for p in files if p.suffix != ".gz") / 1e6) == 40
    assert round(sum(p.stat().st_size for p in files if p.suffix == ".gz") / 1e6) == 12
    assert (build_dir / "ladder-mysql.sql").is_file()
