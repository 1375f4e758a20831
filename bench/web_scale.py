"""`ladders export-web` at three sizes of raw/: a quarter, a half and the whole of its CSW list (OWL cut
the same way), to see how its CPU time grows (issue 42, item 7).

Each sample keeps a word when a hash of it falls in the sample (the same words on every run), so a half
holds the quarter. For each: a build of the sample into a temporary folder (a config naming the two cut
lists; every other input stays raw/'s), then `ladders export-web` in a child process: its CPU seconds
(user + system, from the kernel), the page's bytes, and the sizes that work is made of: words,
substitution and insert/delete links. In a sample links grow about four times for twice the words (twice
the words, each with twice the neighbours), so "linear" means CPU seconds per MB of page (or per word +
link) staying flat, not CPU per word.

`python bench/web_scale.py` prints a Markdown table (about two minutes on two idle cores); `--json FILE`
also writes the numbers.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

import polars as pl

from measure import LADDERS, ROOT, child

sys.path.insert(0, str(ROOT))

from pipeline.columns import WORDS_FILE, Col  # noqa: E402

SHARES = (4, 2, 1)  # a word is kept when its hash is 0 modulo the share: a quarter, a half, all of raw/


def _cut(source: Path, share: int, target: Path) -> int:
    words = [w for w in source.read_text().split() if int(hashlib.md5(w.encode()).hexdigest(), 16) % share == 0]
    target.write_text("\n".join(words) + "\n")
    return len(words)


def measure(share: int, work: Path) -> dict:
    folder = work / f"share-{share}"
    folder.mkdir()
    _cut(ROOT / "raw/lexicons/sowpods.txt", share, folder / "csw.txt")
    _cut(ROOT / "raw/lexicons/twl06.txt", share, folder / "owl.txt")
    (folder / "ladders.toml").write_text('csw = "csw.txt"\nowl = "owl.txt"\nbuild_dir = "build"\n')
    child([*LADDERS, "build", "--quiet", "--config", str(folder / "ladders.toml")])
    export = folder / "build" / "export"
    run = child([*LADDERS, "export-web", str(folder / "page"), "--export", str(export)])
    words = pl.read_parquet(export / WORDS_FILE, columns=[Col.links, Col.edit_links])
    page = sum(p.stat().st_size for p in (folder / "page").rglob("*") if p.is_file() and p.suffix != ".gz")
    return {
        "words": words.height,
        "sub": int(words[Col.links].list.len().sum()),  # not a column: the row's keys
        "indel": int(words[Col.edit_links].list.len().sum()),
        "page_mb": page / 1e6,
        "cpu_s": run["cpu_s"],
        "wall_s": run["wall_s"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ladders-web-scale-") as tmp:
        rows = [measure(share, Path(tmp)) for share in SHARES]
    print("| words | links (sub + edit) | page MB | export-web CPU s | CPU s per MB | µs per word + link |")
    print("|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        units = r["words"] + r["sub"] + r["indel"]
        print(
            f"| {r['words']:,} | {r['sub'] + r['indel']:,} | {r['page_mb']:.1f} | {r['cpu_s']:.2f} "
            f"| {r['cpu_s'] / r['page_mb']:.3f} | {r['cpu_s'] / units * 1e6:.1f} |"
        )
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
