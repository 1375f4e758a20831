#!/usr/bin/env python3
"""Write the main-sense judging batches: every everyday word of 3 to 6 letters that has a link and two or more
candidate senses, with all its candidates, for blind reviewers (issue 43, docs/definitions.md).

Reads a build's words (build/export/words.parquet: `word`, `length`, `in_everyday`, `degree`) and raw/wordnet
(the candidates are stages/rules/main_senses.py's, from the stage's own morphology); writes
<out>/batch-NN.tsv, about BATCH words each, columns `word`, `key`, `pos`, `gloss`, one row per candidate.
Words come in a seeded shuffle, and each word's candidates too: nothing shows which the rules pick.

    .venv/bin/python scripts/judging_batches.py [--words build/export/words.parquet] [--out /work/judging]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.columns import Col  # noqa: E402
from stages.rules.main_senses import candidates  # noqa: E402
from stages.rules.morphology import morphology  # noqa: E402
from stages.sources.wordnet import exception_lists, proper_lemmas, senses  # noqa: E402

BATCH = 400
SEED = 43  # the number: the same inputs give the same batches


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=Path, default=ROOT / "build/export/words.parquet")
    parser.add_argument("--wordnet", type=Path, default=ROOT / "raw/wordnet")
    parser.add_argument("--out", type=Path, default=Path("/work/judging"))
    args = parser.parse_args()
    try:
        words = pl.read_parquet(args.words, columns=[Col.word, Col.length, "in_everyday", Col.degree])
        wordnet = {f"wordnet/{p.name}": p.read_bytes() for p in sorted(args.wordnet.iterdir()) if p.is_file()}
    except (OSError, pl.exceptions.PolarsError) as e:
        print(f"error: {e}".splitlines()[0], file=sys.stderr)
        return 2
    everyday = words.filter(pl.col("in_everyday") & pl.col(Col.length).is_between(3, 6) & (pl.col(Col.degree) > 0))
    table = senses(wordnet)
    found = candidates(
        everyday[Col.word],
        table,
        morphology(words[Col.word], exception_lists(wordnet)),
        words[Col.word],
        proper_lemmas(wordnet, table),
    )
    many = found.group_by(Col.word).agg(pl.len().alias("n")).filter(pl.col("n") >= 2)[Col.word].sort().to_list()
    rng = random.Random(SEED)
    rng.shuffle(many)
    by_word = {w: rows for (w,), rows in found.group_by(Col.word)}
    args.out.mkdir(parents=True, exist_ok=True)
    total = 0
    for n, start in enumerate(range(0, len(many), BATCH), start=1):
        rows = []
        for word in many[start : start + BATCH]:
            own = by_word[word].select(Col.word, "key", "pos", "gloss").rows()
            rng.shuffle(own)
            rows += own
        batch = pl.DataFrame(rows, schema=[Col.word, "key", "pos", "gloss"], orient="row")
        batch.write_csv(args.out / f"batch-{n:02d}.tsv", separator="\t", quote_style="never")
        total += len(rows)
    print(f"{len(many):,} words, {total:,} candidate senses, {n} batches in {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
