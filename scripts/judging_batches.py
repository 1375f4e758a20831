#!/usr/bin/env python3
"""Write the main-sense judging batches: everyday words with two or more candidate senses, with all their
candidates, for blind reviewers (issue 43, docs/definitions.md).

Round 1 (the defaults): every everyday word of 3 to 6 letters that has a link. Round 2
(`--lengths 3- --any-degree --skip raw/main_senses.tsv --bases --prefix round2`): every other everyday word,
a form that reads only one base's senses replaced by that base (its forms follow the base's choice), the
words the table already holds left out.

Reads a build's words (build/export/words.parquet: `word`, `length`, `in_everyday`, `degree`) and raw/wordnet
(the candidates are stages/rules/main_senses.py's, from the stage's own morphology); writes
<out>/batch-NN.tsv, about BATCH words each, columns `word`, `key`, `pos`, `gloss`, one row per candidate.
Words come in a seeded shuffle, and each word's candidates too: nothing shows which the rules pick.

    .venv/bin/python scripts/judging_batches.py [--words build/export/words.parquet] [--out /work/judging]
        [--lengths 3-6] [--any-degree] [--skip TABLE] [--bases] [--prefix batch]
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
from stages.sources.main_senses import read  # noqa: E402
from stages.sources.wordnet import exception_lists, proper_lemmas, senses  # noqa: E402

BATCH = 400
SEED = 43  # the number: the same inputs give the same batches


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=Path, default=ROOT / "build/export/words.parquet")
    parser.add_argument("--wordnet", type=Path, default=ROOT / "raw/wordnet")
    parser.add_argument("--out", type=Path, default=Path("/work/judging"))
    parser.add_argument("--lengths", default="3-6", help="letters, as 3-6 or 7- (no upper bound)")
    parser.add_argument("--any-degree", action="store_true", help="words without a link too")
    parser.add_argument("--skip", type=Path, help="a main-sense table whose words are left out")
    parser.add_argument("--bases", action="store_true", help="a form of one base judged as that base")
    parser.add_argument("--prefix", default="batch")
    args = parser.parse_args()
    low, _, high = args.lengths.partition("-")
    try:
        words = pl.read_parquet(args.words, columns=[Col.word, Col.length, "in_everyday", Col.degree])
        wordnet = {f"wordnet/{p.name}": p.read_bytes() for p in sorted(args.wordnet.iterdir()) if p.is_file()}
    except (OSError, pl.exceptions.PolarsError) as e:
        print(f"error: {e}".splitlines()[0], file=sys.stderr)
        return 2
    wanted = pl.col("in_everyday") & pl.col(Col.length).is_between(int(low), int(high or 99))
    everyday = words.filter(wanted if args.any_degree else wanted & (pl.col(Col.degree) > 0))[Col.word]
    skip = set(read({str(args.skip): args.skip.read_bytes()})[0][Col.word]) if args.skip else set()
    table = senses(wordnet)
    forms = morphology(words[Col.word], exception_lists(wordnet))
    names = proper_lemmas(wordnet, table)
    found = candidates(everyday, table, forms, words[Col.word], names)
    if args.bases:
        found = _as_bases(found, table, forms, words[Col.word], names)
    counts = found.group_by(Col.word).agg(pl.len().alias("n")).filter(pl.col("n") >= 2)
    many = sorted(set(counts[Col.word]) - skip)
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
        batch.write_csv(args.out / f"{args.prefix}-{n:02d}.tsv", separator="\t", quote_style="never")
        total += len(rows)
    if not many:
        print("no words to judge", file=sys.stderr)
        return 0
    print(f"{len(many):,} words, {total:,} candidate senses, {n} batches in {args.out}", file=sys.stderr)
    return 0


def _as_bases(
    found: pl.DataFrame, table: pl.DataFrame, forms: pl.DataFrame, lexicon: pl.Series, names: pl.Series
) -> pl.DataFrame:
    """`found` with each word whose candidates are all one other lemma's (a form: ALMONDS) replaced by the
    candidates of that lemma as a word of its own (ALMOND), when the lexicon has it."""
    per_word = found.group_by(Col.word).agg(
        (pl.col("lemma") == pl.col(Col.word).str.to_lowercase()).any().alias("own"), pl.col("lemma").unique()
    )
    pure = per_word.filter(~pl.col("own") & (pl.col("lemma").list.len() == 1))
    bases = pure["lemma"].list.first().str.to_uppercase()
    bases = bases.filter(bases.is_in(lexicon.implode())).unique()
    kept = found.join(pure.select(Col.word), on=Col.word, how="anti")
    return pl.concat([kept, candidates(bases, table, forms, lexicon, names)]).unique(
        [Col.word, "key"], keep="first", maintain_order=True
    )


if __name__ == "__main__":
    sys.exit(main())
