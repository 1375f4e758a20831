"""summary.txt, the export's report for people, and the definition counts the manifest repeats.

Not a stage, and no files: stage 7 (stages/s07_export.py) calls it with the frames it has built and
writes the text. Reads
- words: words.parquet's rows (the columns used: id, word, length, degree, scowl_level, definition,
  definition_source, offensive, vulgar_sense, and in_<name> of each lexicon, the first lexicon's groups
  and ladders being the ones shown);
- group_table: groups.parquet's rows (lexicon, mode, group_id, size, length, example);
- longest: 06_longest's rows (lexicon, mode, group_id, length, diameter, start, end);
- problems: the counts of skipped word-list lines, definition warnings and remove-list words no list
  holds (skipped_lines, definition_warnings, remove_list_strays).
`summary` gives the text: words per length, the first lexicon's groups per length with the largest, its
longest ladder per length, the most-linked words per length, definition coverage (overall, by kind, per
source, per SCOWL band and source), the offensive and vulgar_sense counts, the word-list problems, and
the words of SCOWL level <= LACKING_LEVEL without a definition. `coverage_by_band` (band str, words,
defined, a count per source) and `definition_counts` ({by_kind, by_source}: {name: words}) are the
manifest's `counts.definitions` and `counts.definitions_made` too.
"""

from __future__ import annotations

import textwrap

import polars as pl

from pipeline.columns import Col, in_column, lexicons_of
from pipeline.wording import counted, warnings_text


# How a definition was made, read off its `definition_source` (stage 2): a list's own text (`csw`,
# `owl`, `supplement`, perhaps through a link: `csw-link`), a dictionary's entry for the word itself
# (`wordnet`, `gcide`), an inflection of a verified base (`wordnet-inflection`: `past tense of HOLD: ...`)
# or a derivation by a judged rule (`gcide-derived`: `un- (not) + BATED: ...`).
DEFINITION_KINDS = ("own list", "headword", "inflection", "derivation")


def definition_kind(source):
    """A polars expression: the DEFINITION_KINDS entry for a `definition_source` expression (null: none)."""
    return (
        pl.when(source.is_null())
        .then(None)
        .when(source.str.ends_with("-inflection"))
        .then(pl.lit("inflection"))
        .when(source.str.ends_with("-derived"))
        .then(pl.lit("derivation"))
        .when(source.is_in(["wordnet", "gcide"]))
        .then(pl.lit("headword"))
        .otherwise(pl.lit("own list"))
    )


LACKING_LEVEL = 35  # every word this common should have a definition: the summary lists those that do not


def coverage_by_band(words: pl.DataFrame) -> pl.DataFrame:
    """Per SCOWL band (<=35, 40-50, 55-60, 70-80, 95/none): words, defined, and a count per source."""
    level = pl.col(Col.scowl_level)
    band = (
        pl.when(level <= 35)
        .then(pl.lit("<=35"))
        .when(level <= 50)
        .then(pl.lit("40-50"))
        .when(level <= 60)
        .then(pl.lit("55-60"))
        .when(level <= 80)
        .then(pl.lit("70-80"))
        .otherwise(pl.lit("95/none"))
    )
    framed = words.select(band.alias("band"), Col.definition_source)
    order = ["<=35", "40-50", "55-60", "70-80", "95/none"]
    totals = (
        pl.DataFrame({"band": order})
        .join(
            framed.group_by("band").agg(
                pl.len().alias("words"), pl.col(Col.definition_source).count().alias("defined")
            ),
            on="band",
            how="left",
        )
        .fill_null(0)
    )
    per_source = framed.drop_nulls(Col.definition_source)
    if per_source.height == 0:
        return totals
    counts = per_source.pivot(
        on=Col.definition_source,
        index="band",
        values=Col.definition_source,
        aggregate_function="len",
        sort_columns=True,
    )
    return totals.join(counts, on="band", how="left").fill_null(0)


def definition_counts(words: pl.DataFrame) -> dict[str, dict[str, int]]:
    """Defined words by kind (a list's own, headword, inflection, derivation) and by source, so that coverage is
    read beside how each definition was made (precision: `make audit`)."""
    made = words.select(Col.definition_source, definition_kind(pl.col(Col.definition_source)).alias("made"))
    return {
        "by_kind": {k: v for k, v in made["made"].drop_nulls().value_counts().sort("made").rows()},
        "by_source": {
            k: v for k, v in made[Col.definition_source].drop_nulls().value_counts().sort(Col.definition_source).rows()
        },
    }


def summary(
    words: pl.DataFrame,
    group_table: pl.DataFrame,
    problems: dict[str, int],
    longest: pl.DataFrame,
    common_level: int,
    shown: str | None = None,
) -> str:
    """summary.txt; `common_level` the highest SCOWL level labelled common (config `rareness_labels`); `shown`
    the lexicon whose groups and longest ladders are shown (default: the first)."""
    names = lexicons_of(words.columns)
    # The groups and longest ladders shown are the first lexicon's (csw by default), or a language's own list.
    first = shown if shown in names else names[0]
    out = ["Word-ladder dictionary summary", ""]
    out += _words_per_length(words, names)
    out += _groups_per_length(group_table, first)
    out += _longest_per_length(longest, first)
    out += _most_linked(words)
    out += _coverage(words, common_level)
    out += _coverage_per_band(words)
    out += _flagged(words)
    out += _problems(problems)
    out += _lacking(words)
    return "\n".join(out) + "\n"


def _words_per_length(words: pl.DataFrame, names: tuple[str, ...]) -> list[str]:
    per_length = (
        words.group_by(Col.length)
        .agg(pl.len().alias("words"), *[pl.col(in_column(name)).sum().alias(name) for name in names])
        .sort(Col.length)
    )
    heading = f"{'length':>6} {'words':>9} "  # not a column: a heading
    out = ["Words per length", heading + " ".join(f"{name:>9}" for name in names)]
    return out + [f"{row[0]:>6} " + " ".join(f"{n:>9,}" for n in row[1:]) for row in per_length.rows()]


def _groups_per_length(group_table: pl.DataFrame, first: str) -> list[str]:
    out = [
        "",
        f"{first.upper()} groups per length (substitution links only)",
        f"{'length':>6} {'groups':>9} {'largest':>9}  example of the largest",  # not a column: a heading
    ]
    sub = (
        group_table.filter((pl.col(Col.lexicon) == first) & (pl.col(Col.mode) == "sub"))
        .sort(Col.size, Col.group_id, descending=[True, False])
        .group_by(Col.length, maintain_order=True)
        .agg(pl.len().alias("groups"), pl.col(Col.size).first(), pl.col(Col.example).first())
        .sort(Col.length)
    )
    return out + [f"{n:>6} {g:>9,} {s:>9,}  {e}" for n, g, s, e in sub.rows()]


def _longest_per_length(longest: pl.DataFrame, first: str) -> list[str]:
    out = [
        "",
        f"Longest {first.upper()} ladder per length (substitution links; the first pair at that many steps)",
        f"{'length':>6} {'steps':>9}  from - to",  # not a column: a heading
    ]
    far = (
        longest.filter((pl.col(Col.lexicon) == first) & (pl.col(Col.mode) == "sub") & pl.col(Col.length).is_not_null())
        .sort(Col.diameter, Col.group_id, descending=[True, False])
        .group_by(Col.length, maintain_order=True)
        .first()
        .sort(Col.length)
    )
    return out + [
        f"{n:>6} {d:>9,}  {a} - {b}" for n, d, a, b in far.select(Col.length, Col.diameter, Col.start, Col.end).rows()
    ]


def _most_linked(words: pl.DataFrame) -> list[str]:
    out = ["", "Most-linked words per length (substitution links)"]
    top = (
        words.select(Col.id, Col.word, Col.length, Col.degree)
        .sort(Col.degree, Col.id, descending=[True, False])
        .group_by(Col.length, maintain_order=True)
        .head(3)
        .sort(Col.length, maintain_order=True)
    )
    for (length,), rows in top.group_by(Col.length, maintain_order=True):
        out.append(f"{length:>6}  " + ", ".join(f"{w} ({d})" for w, d in rows.select(Col.word, Col.degree).rows()))
    return out


def _coverage(words: pl.DataFrame, common_level: int) -> list[str]:
    out = ["", "Definition coverage"]
    # Only the columns needed are filtered or sorted here and below: a whole row carries its definition.
    common = words.select(Col.scowl_level, Col.definition).filter(pl.col(Col.scowl_level) <= common_level)
    for label, frame in (("all words", words), (f"SCOWL level <= {common_level}", common)):
        have = frame[Col.definition].is_not_null().sum()
        out.append(f"  {label}: {have:,} of {frame.height:,} ({have / max(frame.height, 1):.1%})")
    kinds = definition_counts(words)
    out.append("  by kind: " + ", ".join(f"{kind} {n:,}" for kind, n in kinds["by_kind"].items()))
    return out + [f"  from {source}: {n:,}" for source, n in kinds["by_source"].items()]


def _coverage_per_band(words: pl.DataFrame) -> list[str]:
    bands = coverage_by_band(words)
    sources = [c for c in bands.columns if c not in ("band", "words", "defined")]
    out = [
        "",
        "Definition coverage per SCOWL band (words defined, then by source)",
        f"  {'band':<8} {'words':>8} {'defined':>8} {'share':>7}  " + " ".join(f"{s:>14}" for s in sources),
    ]
    for row in bands.rows(named=True):
        out.append(
            f"  {row['band']:<8} {row['words']:>8,} {row['defined']:>8,} "
            f"{row['defined'] / max(row['words'], 1):>7.1%}  " + " ".join(f"{row[s]:>14,}" for s in sources)
        )
    return out


def _flagged(words: pl.DataFrame) -> list[str]:
    return [
        f"  offensive words flagged: {words[Col.offensive].sum():,}; "
        f"everyday words with a vulgar sense: {words[Col.vulgar_sense].sum():,}"
    ]


def _problems(problems: dict[str, int]) -> list[str]:
    return [
        "",
        "Word-list problems (01_skipped.parquet, 01_warnings.parquet)",
        f"  {counted(problems['skipped_lines'], 'word-list line')} skipped (--lenient)"
        + "".join(
            f", {text}"
            for text in [
                warnings_text(
                    problems["definition_warnings"] + problems["remove_list_strays"], problems["remove_list_strays"]
                )
            ]
            if text
        ),
    ]


def _lacking(words: pl.DataFrame) -> list[str]:
    lacking = words[Col.word].filter((words[Col.scowl_level] <= LACKING_LEVEL) & words[Col.definition].is_null())
    out = ["", f"Words of SCOWL level <= {LACKING_LEVEL} without a definition: {lacking.len():,}"]
    return out + textwrap.wrap(" ".join(lacking), width=100, initial_indent="  ", subsequent_indent="  ")
