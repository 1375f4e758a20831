"""`ladders diff OLD NEW`: what changed between two exports.

Words added and removed per lexicon; links added and removed (by word pairs,
with their kind); for each lexicon and mode, groups that merged, split,
appeared or vanished, matched by their members (ids are renumbered by every
build, so they cannot be compared); words whose rareness or definition
changed. `diff_exports` returns plain data (the --json output);
`describe` turns it into lines for people.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from pipeline import io

from pipeline.artifact.contract import GROUP_COLUMNS, Col, export_file, link_pairs

SHOWN = 5


def _words(folder: Path) -> pl.DataFrame:
    return io.read_export_table(export_file(folder))


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


def _groups(old: pl.DataFrame, new: pl.DataFrame, column: str) -> dict[str, list[dict]]:
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


def diff_exports(old_dir: Path, new_dir: Path) -> dict:
    old, new = _words(old_dir), _words(new_dir)
    result: dict = {"words": {}, "links": {}, "groups": {}}  # not a column: "links" holds the changed word pairs
    for lexicon in ("csw", "owl"):
        before = set(old.filter(pl.col(f"in_{lexicon}"))[Col.word])
        after = set(new.filter(pl.col(f"in_{lexicon}"))[Col.word])
        result["words"][lexicon] = {"added": sorted(after - before), "removed": sorted(before - after)}
    old_links, new_links = _links(old), _links(new)
    for label, frame in (
        ("added", new_links.join(old_links, on=["a", "b", Col.kind], how="anti")),
        ("removed", old_links.join(new_links, on=["a", "b", Col.kind], how="anti")),
    ):
        result["links"][label] = [list(r) for r in frame.sort("a", "b").rows()]  # not a column: as above
    for (lexicon, mode), column in GROUP_COLUMNS.items():
        result["groups"][f"{lexicon}/{mode}"] = _groups(old, new, column)
    both = old.join(new, on=Col.word, suffix="_new")
    changed = both.filter(pl.col(Col.rareness) != pl.col(f"{Col.rareness}_new")).sort(Col.word)
    result[Col.rareness] = [
        {Col.word: w, "old": a, "new": b}
        for w, a, b in changed.select(Col.word, Col.rareness, f"{Col.rareness}_new").rows()
    ]
    changed = both.filter(pl.col(Col.definition).ne_missing(pl.col(f"{Col.definition}_new"))).sort(Col.word)
    result["definitions"] = [
        {Col.word: w, "old": a, "new": b}
        for w, a, b in changed.select(Col.word, Col.definition, f"{Col.definition}_new").rows()
    ]
    return result


def _some(items: list, shown: int = SHOWN) -> str:
    text = ", ".join(str(i) for i in items[:shown])
    return text + (f", ... ({len(items) - shown:,} more)" if len(items) > shown else "")


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
    moved = [f"{r[Col.word]} {r['old']:,} -> {r['new']:,}" for r in d[Col.rareness]]
    lines.append(f"rareness changed: {len(moved):,}" + (f": {_some(moved)}" if moved else ""))
    lines.append(
        f"definitions changed: {len(d['definitions']):,}"
        + (f": {_some([r[Col.word] for r in d['definitions']])}" if d["definitions"] else "")
    )
    return lines
