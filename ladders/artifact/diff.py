"""`ladders diff OLD NEW`, and CHANGES.md of a release: what changed between two exports.

Words added and removed per lexicon; links added and removed (by word pairs,
with their kind); for each lexicon and mode, groups that merged, split,
appeared or vanished, matched by their members (ids are renumbered by every
build, so they cannot be compared); words whose rareness, rareness label
(common, uncommon, rare, obscure: each export's own cut-offs), definition or
flags (`offensive`, `vulgar_sense`) changed. The column table's `diff` (pipeline/columns.py) picks the
columns compared as values (`value`) and as flags (`flag`); words, links, groups, the label and the
definitions are compared by this module's own rules for the columns the table marks so. It reads each
export's words.parquet and manifest.json (schema_version, the rareness label cut-offs) only: groups are
matched through words.parquet's group columns. `compare` returns the changes as
frames; `diff_exports` as plain data (the --json output); `describe` as lines
for people; `changes_markdown` as a release's CHANGES.md: a table of counts
(words, links, groups, definitions, flags) and each kind of change with its
count and a few examples.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipeline import io
from pipeline.columns import LINK_KINDS, SCHEMA_VERSION, WORDS, Col, group_columns, in_column, lexicons_of
from ladders.artifact.contract import export_file, label_cutoffs, link_pairs, read_manifest

SHOWN = 5
# From the column table (pipeline/columns.py): the columns compared word by word as values, and as flags.
VALUES = tuple(c.name for c in WORDS if c.diff == "value")  # rareness
FLAGS = tuple(c.name for c in WORDS if c.diff == "flag")  # offensive, vulgar_sense
LABEL = "label"  # not a column: the rareness label a player reads, from scowl_level and the cut-offs
EXAMPLE_WIDTH = 70  # characters of a definition shown in CHANGES.md


def _words(folder: Path) -> pl.DataFrame:
    words = io.read_export_table(export_file(folder))
    label = pl.lit("obscure")  # beyond the last cut-off, or not in SCOWL
    for name, top in reversed(label_cutoffs(folder).items()):
        label = pl.when(pl.col(Col.scowl_level) <= top).then(pl.lit(name)).otherwise(label)
    return words.with_columns(label.alias(LABEL))


def _links(words: pl.DataFrame) -> pl.DataFrame:
    """(`a`, `b`, `kind`) with a < b alphabetically, as word pairs."""
    names = words.select(Col.id, Col.word)
    return (
        link_pairs(words)
        .filter(pl.col(Col.src) < pl.col(Col.dst))
        .join(names.rename({Col.id: Col.src, Col.word: "a"}), on=Col.src)
        .join(names.rename({Col.id: Col.dst, Col.word: "b"}), on=Col.dst)
        .select("a", "b", Col.kind)
    )


def _groups(old: pl.DataFrame, new: pl.DataFrame, column: str) -> dict[str, list]:
    """Groups merged, split, appeared and vanished between two labelings, matched by member words."""

    def described(frame: pl.DataFrame) -> pl.DataFrame:
        return (
            frame.filter(pl.col(column).is_not_null())
            .sort(Col.id)
            .group_by(column, maintain_order=True)
            .agg(pl.col(Col.word).first().alias(Col.example), pl.len().alias(Col.size))
        )

    o = old.select(Col.id, Col.word, column).filter(pl.col(column).is_not_null())
    n = new.select(Col.id, Col.word, column).filter(pl.col(column).is_not_null())
    pairs = (
        o.join(n, on=Col.word, suffix="_new")
        .select(pl.col(column).alias("old"), pl.col(f"{column}_new").alias("new"))
        .unique()
    )
    old_info, new_info = described(old), described(new)

    def name(info: pl.DataFrame, ids: list[int]) -> list[str]:
        rows = dict(
            info.filter(pl.col(column).is_in(ids))
            .select(column, pl.format("{} ({})", Col.example, Col.size))
            .iter_rows()
        )
        return [rows[i] for i in sorted(ids, key=lambda i: rows[i])]

    merged = pairs.group_by("new").agg(pl.col("old")).filter(pl.col("old").list.len() > 1).sort("new")
    split = pairs.group_by("old").agg(pl.col("new")).filter(pl.col("new").list.len() > 1).sort("old")
    return {
        "merged": [{"into": name(new_info, [g])[0], "from": name(old_info, olds)} for g, olds in merged.iter_rows()],
        "split": [{"from": name(old_info, [g])[0], "into": name(new_info, news)} for g, news in split.iter_rows()],
        "appeared": name(new_info, n.filter(~pl.col(column).is_in(pairs["new"].implode()))[column].unique().to_list()),
        "vanished": name(old_info, o.filter(~pl.col(column).is_in(pairs["old"].implode()))[column].unique().to_list()),
    }


def _changed(both: pl.DataFrame, column: str) -> pl.DataFrame:
    """(`word`, `old`, `new`) of the words in both exports whose `column` differs (null counts as a value)."""
    return (
        both.filter(pl.col(column).ne_missing(pl.col(f"{column}_new")))
        .select(Col.word, pl.col(column).alias("old"), pl.col(f"{column}_new").alias("new"))
        .sort(Col.word)
    )


def compare(old: pl.DataFrame, new: pl.DataFrame) -> dict:
    """Every change between two exports' words (as _words reads them): frames, and the groups' lists."""
    result: dict = {"words": {}, "groups": {}}
    # Every lexicon either export holds; one that only one of them holds gains or loses all its words.
    ours, theirs = lexicons_of(old.columns), lexicons_of(new.columns)
    lexicons = tuple(dict.fromkeys(ours + theirs))
    none = pl.DataFrame(schema={Col.word: pl.String})
    for lexicon in lexicons:
        flag = in_column(lexicon)
        before = old.filter(pl.col(flag)).select(Col.word) if flag in old.columns else none
        after = new.filter(pl.col(flag)).select(Col.word) if flag in new.columns else none
        result["words"][lexicon] = {
            "added": after.join(before, on=Col.word, how="anti").sort(Col.word)[Col.word],
            "removed": before.join(after, on=Col.word, how="anti").sort(Col.word)[Col.word],
        }
    old_links, new_links = _links(old), _links(new)
    result["links"] = {  # not a column: the changed word pairs
        "added": new_links.join(old_links, on=["a", "b", Col.kind], how="anti").sort("a", "b"),
        "removed": old_links.join(new_links, on=["a", "b", Col.kind], how="anti").sort("a", "b"),
    }
    for (lexicon, mode), column in group_columns(
        [name for name in lexicons if name in ours and name in theirs]
    ).items():
        result["groups"][f"{lexicon}/{mode}"] = _groups(old, new, column)
    both = old.join(new, on=Col.word, suffix="_new")
    for column, key in (*((c, c) for c in VALUES), (LABEL, "labels"), (Col.definition, "definitions")):
        result[key] = _changed(both, column)
    result["flags"] = pl.concat(
        [_changed(both, flag).select(Col.word, pl.lit(flag).alias("flag"), "old", "new") for flag in FLAGS]
    ).sort(Col.word, "flag")
    return result


def diff_exports(old_dir: Path, new_dir: Path) -> dict:
    c = compare(_words(old_dir), _words(new_dir))
    return {
        "words": {lex: {k: s.to_list() for k, s in w.items()} for lex, w in c["words"].items()},
        "links": {k: [list(r) for r in f.rows()] for k, f in c["links"].items()},  # not a column: as above
        "groups": c["groups"],
        **{key: c[key].to_dicts() for key in (*VALUES, "labels", "definitions", "flags")},
    }


def _some(items: list, shown: int = SHOWN) -> str:
    text = ", ".join(str(i) for i in items[:shown])
    return text + (f", ... ({len(items) - shown:,} more)" if len(items) > shown else "")


def _number(value) -> str:
    return "null" if value is None else f"{value:,}"


def describe(d: dict) -> list[str]:
    lines = []
    for lexicon, w in d["words"].items():
        lines.append(
            f"words {lexicon}: +{len(w['added']):,} -{len(w['removed']):,}"
            + (f"; added {_some(w['added'])}" if w["added"] else "")
            + (f"; removed {_some(w['removed'])}" if w["removed"] else "")
        )
    for label in ("added", "removed"):
        links = d["links"][label]  # not a column: the diff's changed word pairs
        named = [f"{a}-{b} ({k})" for a, b, k in links]
        lines.append(f"links {label}: {len(links):,}" + (f": {_some(named)}" if links else ""))
    for label, g in d["groups"].items():
        counts = ", ".join(f"{len(g[k])} {k}" for k in ("merged", "split", "appeared", "vanished"))
        lines.append(f"groups {label}: {counts}")
        lines += [f"  merged into {m['into']}: {_some(m['from'])}" for m in g["merged"][:SHOWN]]
        lines += [f"  split {s['from']} into {_some(s['into'])}" for s in g["split"][:SHOWN]]
        lines += [f"  appeared: {_some(g['appeared'])}"] if g["appeared"] else []
        lines += [f"  vanished: {_some(g['vanished'])}"] if g["vanished"] else []
    for column in VALUES:
        moved = [f"{r[Col.word]} {_number(r['old'])} -> {_number(r['new'])}" for r in d[column]]
        lines.append(f"{column} changed: {len(moved):,}" + (f": {_some(moved)}" if moved else ""))
    relabelled = [f"{r[Col.word]} {r['old']} -> {r['new']}" for r in d["labels"]]
    lines.append(f"labels changed: {len(relabelled):,}" + (f": {_some(relabelled)}" if relabelled else ""))
    lines.append(
        f"definitions changed: {len(d['definitions']):,}"
        + (f": {_some([r[Col.word] for r in d['definitions']])}" if d["definitions"] else "")
    )
    flagged = [f"{r[Col.word]} {r['flag']} {'set' if r['new'] else 'cleared'}" for r in d["flags"]]
    lines.append(f"flags changed: {len(flagged):,}" + (f": {_some(flagged)}" if flagged else ""))
    return lines


# CHANGES.md -------------------------------------------------------------------------------------------


def counts(words: pl.DataFrame) -> dict[str, int]:
    """The figures CHANGES.md compares, from words.parquet alone, by their row's title (Markdown: a lexicon's
    name through md)."""
    lexicons = lexicons_of(words.columns)
    figures = {f"words {md(lex)}": int(words[in_column(lex)].sum()) for lex in lexicons}
    for column, kind in LINK_KINDS.items():
        figures[f"links {kind}"] = int(words[column].list.len().sum()) // 2  # each link is listed twice
    for (lexicon, mode), column in group_columns(lexicons).items():
        figures[f"groups {md(lexicon)}/{mode}"] = words[column].drop_nulls().n_unique()
    figures["words defined"] = words.height - words[Col.definition].null_count()
    for flag in FLAGS:
        figures[f"{flag} words"] = int(words[flag].sum())
    return figures


# The ASCII characters a value keeps as they are in CHANGES.md; every other ASCII punctuation character is
# backslash-escaped (CommonMark lets any be): HTML (`<`, `&`), links and images (`[`, `]`, `!`), emphasis, code,
# table cells (`|`), headings, and what renderers turn into links without markup (`:` of `https://`, `.` of
# `www.`, `@` of an address). `/`, `(`, `)`, `-`, `,`, `'` and `;` do nothing on their own.
KEPT = frozenset("/()-,';")


def md(value, width: int | None = None) -> str:
    """Any value from an export or a previous release as inert Markdown text on one line: the one escaping
    function of CHANGES.md. Control and invisible characters (the newline too) become visible `\\u001b`
    escapes (pipeline/terminal.py's inert), ASCII punctuation but KEPT is backslash-escaped, and a text
    longer than `width` characters is cut with an ellipsis (before the backslashes are added)."""
    from pipeline.terminal import inert

    text = inert(str(value)).replace("\n", "\\u000a")
    if width is not None and len(text) > width:
        text = text[: width - 1] + "…"
    return "".join(
        "\\" + ch if ch.isascii() and not ch.isalnum() and ch != " " and ch not in KEPT else ch for ch in text
    )


def _text(value) -> str:
    """A definition (or None) as one short line of inert Markdown text."""
    return "(none)" if value is None else md(value, EXAMPLE_WIDTH)


def _examples(items: list[str], total: int) -> str:
    more = f"; {total - len(items):,} more" if total > len(items) else ""
    return (": " + ", ".join(items) + more) if items else ""


def changes_markdown(old_dir: Path | None, new_dir: Path, old_name: str = "the previous release") -> str:
    """CHANGES.md: the counts of `new_dir` beside those of `old_dir` (None: a first release), then each
    kind of change with its count and up to SHOWN examples. A previous release of another schema_version
    (another ladders) is named but not compared: its files have another shape."""
    new = _words(new_dir)
    lines = ["# Changes", ""]
    theirs = None if old_dir is None else read_manifest(old_dir).get("schema_version")
    if old_dir is None or theirs != SCHEMA_VERSION:
        lines.append(
            "First release: no previous release was given, so there is nothing to compare."
            if old_dir is None
            else f"Against {old_name}, which has schema_version {md(theirs)} (this one has {SCHEMA_VERSION}): "
            "the export's files changed shape, so its words are not compared."
        )
        lines += ["", "| | this release |", "|---|---:|"]
        lines += [f"| {k} | {v:,} |" for k, v in counts(new).items()]
        return "\n".join(lines) + "\n"
    old = _words(old_dir)
    c = compare(old, new)
    before, after = counts(old), counts(new)
    lines += [f"Against {old_name}.", "", "| | before | after | change |", "|---|---:|---:|---:|"]
    # A lexicon only one release holds counts 0 in the other.
    rows = dict.fromkeys([*before, *after])
    lines += [
        f"| {k} | {before.get(k, 0):,} | {after.get(k, 0):,} | {after.get(k, 0) - before.get(k, 0):+,} |" for k in rows
    ]
    lines += ["", "## Words", ""]
    for lexicon, w in c["words"].items():
        for kind in ("added", "removed"):
            lines.append(
                f"- {md(lexicon)} {kind}: {len(w[kind]):,}"
                + _examples([md(word) for word in w[kind].head(SHOWN)], len(w[kind]))
            )
    lines += ["", "## Links", ""]
    for kind, frame in c["links"].items():  # not a column: the changed word pairs
        shown = [f"{md(a)}-{md(b)} ({k})" for a, b, k in frame.head(SHOWN).rows()]
        lines.append(f"- {kind}: {frame.height:,}{_examples(shown, frame.height)}")
    lines += ["", "## Groups", ""]
    for label, g in c["groups"].items():
        lines.append(
            f"- {md(label.rpartition('/')[0])}/{label.rpartition('/')[2]}: "
            + ", ".join(f"{len(g[k]):,} {k}" for k in ("merged", "split", "appeared", "vanished"))
        )
        lines += [f"  - merged into {md(m['into'])}: {_some([md(x) for x in m['from']])}" for m in g["merged"][:SHOWN]]
        lines += [f"  - split {md(s['from'])} into {_some([md(x) for x in s['into']])}" for s in g["split"][:SHOWN]]
        lines += [f"  - {kind}: {_some([md(x) for x in g[kind]])}" for kind in ("appeared", "vanished") if g[kind]]
    lines += ["", "## Words in both releases", ""]
    for key, title in (*((c, f"{c} changed") for c in VALUES), ("labels", "labels changed")):
        frame = c[key]
        shown = [
            f"{md(w)} {_number(a)} -> {_number(b)}" if key in VALUES else f"{md(w)} {md(a)} -> {md(b)}"
            for w, a, b in frame.head(SHOWN).rows()
        ]
        lines.append(f"- {title}: {frame.height:,}{_examples(shown, frame.height)}")
    frame = c["flags"]
    shown = [f"{md(w)} {f} {'set' if b else 'cleared'}" for w, f, _, b in frame.head(SHOWN).rows()]
    lines.append(f"- flags changed: {frame.height:,}{_examples(shown, frame.height)}")
    frame = c["definitions"]
    lines.append(f"- definitions changed: {frame.height:,}")
    lines += [f"  - {md(w)}: {_text(a)} -> {_text(b)}" for w, a, b in frame.head(SHOWN).rows()]
    if frame.height > SHOWN:
        lines.append(f"  - {frame.height - SHOWN:,} more")
    return "\n".join(lines) + "\n"
