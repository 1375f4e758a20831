"""The judged samples of definitions: how each definition was made, precision by band, source and rule, and
what a player reads first beside an everyday word.

Reads an export's words.parquet (`word`, `definition`) and two judged samples, one row per judged word:
- tests/data/definitions_audit.tsv, the precision sample: `word`, `band`, `source`, `rule`, `judgement`
  (right, minor, wrong, unreadable), `note`, `text` (the definition that was judged);
- tests/data/definitions_everyday.tsv, the everyday sample (SCOWL <= 35, defined or not): `word`, `band`,
  `source`, `rule`, `judgement` (main, secondary, wrong, unreadable, absent: does the first sense shown give
  the word's main everyday meaning?), `note`, `text` (empty when absent).
`make audit` prints both for the current build, and lists the sample words whose definition changed since
they were judged: those are judged again, never to make a number pass (a changed rule gets newly drawn
words).
"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl

from pipeline.columns import WORDS_FILE, Col

JUDGEMENTS = ("right", "minor", "wrong", "unreadable")
EVERYDAY_JUDGEMENTS = ("main", "secondary", "wrong", "unreadable", "absent")
SAMPLE = Path(__file__).resolve().parents[2] / "tests" / "data" / "definitions_audit.tsv"
EVERYDAY = SAMPLE.with_name("definitions_everyday.tsv")


def band(level: pl.Expr) -> pl.Expr:
    """A SCOWL level's band: `<=50` (common), `51-95`, `none` (not in SCOWL)."""
    return (
        pl.when(level <= 50)
        .then(pl.lit("<=50"))
        .when(level.is_not_null())
        .then(pl.lit("51-95"))
        .otherwise(pl.lit("none"))
    )


RELATIONS = r"(?:plural|past tense|present tense|present participle|comparative|superlative|form) of [A-Z]+"


def rule(definition: pl.Expr, source: pl.Expr, word: pl.Expr | None = None) -> pl.Expr:
    """How a definition was made, read off its text and source (and the word: UNBATED's `not BATED` is
    un-, NONTOXIC's `not TOXIC` non-): `own` (a list's or the supplement's), `headword`, `headword+inflection`
    (WordNet's own entry of a form, then its base), `irregular` (`form of HOLD: ...`), `inflection` (a base's
    gloss), `inflection, two readings` (LEADS), `inflection+own` (a base's gloss, then the form's own entry),
    `inflection-bare` (no gloss: the base is known only in another part of speech), `derived re-`,
    `derived -ly`, `derived british`, ... (the affix), or `derived+inflection`."""
    kind = source.str.extract(r"-(inflection|derived|link)$", 1)
    first = definition.str.extract(rf"^({RELATIONS})(?:: |$)", 0)
    base = definition.str.extract(
        r"^(?:the quality of being|in a way that is|without|not|reverse the action of) ([A-Z]+)", 1
    )
    base = pl.coalesce(base, definition.str.extract(r"^([A-Z]+) (?:again|beforehand) \[", 1))
    phrase = (
        pl.when(definition.str.starts_with("British spelling of"))
        .then(pl.lit("british"))
        .when(definition.str.contains(rf"^{RELATIONS}: "))
        .then(None)
        .when(definition.str.starts_with("not "))
        .then(
            pl.lit("un-/non-")
            if word is None
            else pl.when(word.str.starts_with("UN")).then(pl.lit("un-")).otherwise(pl.lit("non-"))
        )
        .when(definition.str.starts_with("reverse the action of"))
        .then(pl.lit("un-"))
        .when(definition.str.contains(r"^[A-Z]+ again \["))
        .then(pl.lit("re-"))
        .when(definition.str.contains(r"^[A-Z]+ beforehand \[|^pre- "))
        .then(pl.lit("pre-"))
        .when(definition.str.starts_with("non- "))
        .then(pl.lit("non-"))
        .when(definition.str.starts_with("without "))
        .then(pl.lit("-less"))
        .when(definition.str.starts_with("the quality of being"))
        .then(pl.when(base.str.ends_with("Y")).then(pl.lit("-iness")).otherwise(pl.lit("-ness")))
        .when(definition.str.starts_with("in a way that is"))
        .then(
            pl.when(base.str.ends_with("BLE"))
            .then(pl.lit("-bly"))
            .when(base.str.ends_with("Y"))
            .then(pl.lit("-ily"))
            .when(base.str.ends_with("IC"))
            .then(pl.lit("-ally"))
            .otherwise(pl.lit("-ly"))
        )
    )
    return (
        pl.when(source.is_null())
        .then(None)
        .when(kind.is_null() | (kind == "link"))
        .then(
            pl.when(~source.is_in(["wordnet", "gcide"]))
            .then(pl.lit("own"))
            .when(definition.str.contains(rf" / {RELATIONS}: "))
            .then(pl.lit("headword+inflection"))
            .otherwise(pl.lit("headword"))
        )
        .when(kind == "inflection")
        .then(
            pl.when(definition.str.starts_with("form of "))
            .then(pl.lit("irregular"))
            .when(definition.str.contains(rf"^{RELATIONS}: .* \[[a-z]+\] / {RELATIONS}: "))
            .then(pl.lit("inflection, two readings"))
            .when(definition.str.contains(rf"^{RELATIONS}: .* \[[a-z]+\] / "))
            .then(pl.lit("inflection+own"))
            .when(first.is_not_null() & ~definition.str.contains(": "))
            .then(pl.lit("inflection-bare"))
            .otherwise(pl.lit("inflection"))
        )
        .when(phrase.is_not_null())
        .then(pl.lit("derived ") + phrase)
        .otherwise(pl.lit("derived+inflection"))
    )


def judged(words: pl.DataFrame, sample: pl.DataFrame) -> pl.DataFrame:
    """The sample (`word`, `band`, `source`, `rule`, `judgement`, `note`, `text`) beside the build's words:
    `now` the word's definition in this build, `changed` it differs from the judged text (judge it again)."""
    return sample.join(
        words.select(Col.word, pl.col(Col.definition).alias("now")), on=Col.word, how="left"
    ).with_columns((pl.col("now").fill_null("") != pl.col("text").fill_null("")).alias("changed"))


def precision(table: pl.DataFrame, by: str) -> pl.DataFrame:
    """Per value of `by`: judged words, each judgement's count, and precision (right or minor, of all) and
    the share wrong (wrong or unreadable)."""
    counts = [(pl.col("judgement") == j).sum().alias(j) for j in JUDGEMENTS]
    return (
        table.group_by(by)
        .agg(pl.len().alias("judged"), *counts)
        .with_columns(
            ((pl.col("right") + pl.col("minor")) / pl.col("judged")).alias("precision"),
            ((pl.col("wrong") + pl.col("unreadable")) / pl.col("judged")).alias("wrong_share"),
        )
        .sort(by)
    )


def report(words: pl.DataFrame, sample: pl.DataFrame) -> str:
    """The audit's text: precision by band, source and rule over the judged words whose definition is
    unchanged in this build, and the changed words to judge again."""
    table = judged(words, sample)
    kept = table.filter(~pl.col("changed"))
    out = [f"{sample.height} judged words; {kept.height} unchanged in this build, {table['changed'].sum()} changed"]
    for by in ("band", "source", "rule"):
        out += ["", f"by {by}"]
        out += _table(
            by, 22, JUDGEMENTS, precision(kept, by).rows(named=True), f" {'precision':>9} {'wrong':>6}",
            lambda row: f" {row['precision']:>9.1%} {row['wrong_share']:>6.1%}",
        )  # fmt: skip
    return "\n".join(out + _to_judge_again(table, "changed since judged (judge again):")) + "\n"


def _table(name: str, width: int, judgements, rows: list[dict], head: str, tail) -> list[str]:
    """A report table's lines: a header, then per row its `name` value, judged words and each judgement's
    count, then `tail(row)` under `head`."""
    lines = [f"  {name:<{width}} {'judged':>6} " + " ".join(f"{j:>10}" for j in judgements) + head]
    for row in rows:
        lines.append(
            f"  {str(row[name]):<{width}} {row['judged']:>6} "
            + " ".join(f"{row[j]:>10}" for j in judgements)
            + tail(row)
        )
    return lines


def _to_judge_again(table: pl.DataFrame, heading: str) -> list[str]:
    """The judged words whose definition changed in this build, old text -> new, under `heading`."""
    changed = table.filter(pl.col("changed"))
    if not changed.height:
        return []
    return ["", heading] + [
        f"  {w}: {old!r} -> {new!r}" for w, old, new in changed.select(Col.word, "text", "now").rows()
    ]


def everyday_report(words: pl.DataFrame, sample: pl.DataFrame) -> str:
    """The everyday sample's text: over its words whose definition is unchanged in this build, each
    judgement's count and share, overall and by source and rule, and the changed words to judge again."""
    table = judged(words, sample)
    kept = table.filter(~pl.col("changed"))
    out = [
        "",
        f"everyday words (SCOWL <= 35): {sample.height} judged; {kept.height} unchanged in this build, "
        f"{table['changed'].sum()} changed",
    ]
    counts = [(pl.col("judgement") == j).sum().alias(j) for j in EVERYDAY_JUDGEMENTS]
    for by in (None, "source", "rule"):
        groups = kept.with_columns(pl.lit("all").alias("all")).group_by(by or "all")
        rows = groups.agg(pl.len().alias("judged"), *counts).sort(by or "all").rows(named=True)
        out += [""] + _table(
            by or "all",
            26,
            EVERYDAY_JUDGEMENTS,
            rows,
            f" {'main':>6}",
            lambda row: f" {row['main'] / row['judged']:>6.1%}",
        )
    return "\n".join(out + _to_judge_again(table, "everyday words changed since judged (judge again):")) + "\n"


def read_sample(path: Path) -> pl.DataFrame:
    """A judged sample (tab-separated, no quoting): `note` and `text` may be empty."""
    return pl.read_csv(path, separator="\t", quote_char=None, schema_overrides={"note": pl.String, "text": pl.String})


def main(argv: list[str]) -> int:
    """`python -m ladders.artifact.audit [EXPORT_DIR]` (default: the configured build's export)."""
    from pipeline.config import load_config

    export = Path(argv[0]) if argv else Path(load_config()["build_dir"]) / "export"
    try:
        words = pl.read_parquet(export / WORDS_FILE, columns=[Col.word, Col.definition], glob=False)
    except (OSError, pl.exceptions.PolarsError) as e:
        print(f"audit: no export to audit in {export} ({e.__class__.__name__}); run make build first", file=sys.stderr)
        return 2
    sys.stdout.write(report(words, read_sample(SAMPLE)))
    if EVERYDAY.exists():
        sys.stdout.write(everyday_report(words, read_sample(EVERYDAY)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
