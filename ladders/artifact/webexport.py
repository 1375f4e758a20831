"""`ladders export-web DIR`: a static solver page and the compact data it fetches.

Reads an export: words.parquet, the manifest (its lexicons and label cut-offs), and for the puzzles
ladder.sqlite and longest.parquet (through `ladders puzzle`'s generator). Writes into DIR:
- index.html, the scripts (SCRIPTS: words.js .. app.js), style.css: the page (ladders/web/), plain
  HTML/CSS/JS;
- data/manifest.json: the page's version, the export's lexicons (the page's list selector), the label
  names, `everyday` (the number of the label whose words cost 1 in the common-word ladder: `common`'s),
  `puzzle_lexicon` (the lexicon play mode keeps to), `alphabet` (the export's manifest's, or English's for an
  export written before it: its `table` is the page's typed-word rule, docs/languages.md), the bucket fields read as positions, SPAN, the page's bytes and the names of the files below,
  which hold a hash of their content in their name (a browser may keep them forever);
- data/i/*: the word index, a file per length and first letter: `words`, `ids` (delta-coded) and
  `bucket` of each;
- data/b/*: buckets of whole substitution groups (every lexicon's, joined where they share a word) of one
  length, up to BUCKET words unless one group is larger: `ids` (delta-coded), `words`, each column the
  column table (pipeline/columns.py) sends as `values` (rareness, degree, every group column: one per word), `label`
  (0 common .. 3 obscure, from the manifest's cut-offs), each column it sends as `positions` (offensive,
  vulgar_sense: the positions in the bucket of the flagged words; data/manifest.json names them), the substitution links as lengths
  and delta-coded positions in the bucket, the insert/delete links as lengths and delta-coded ids, and
  `defs`: the names of its definition files;
- data/defs/*: definitions, CHUNK words of a bucket a file (null: none);
- data/s/*: for each edit group of SPAN ids, the buckets it spans when more than one;
- data/puzzles.*.json: puzzles drawn by `ladders puzzle`'s generator in `puzzle_lexicon` (start, end,
  length, steps, difficulty), for play mode (an empty list: the page shows no play section);
- data/files.*.json: every file with its size, for "keep for offline use";
- sw.js: the service worker, its cache named by the version (a hash of the page's files and of every
  data file above but the listing and the manifest, which name it);
- a gzip copy beside every file (NAME.gz), for servers that send precompressed files.
So a first visit fetches a few hundred KB before its first ladder, not the whole list (tests/integration/test_web.py
holds the byte budgets).
Its CPU time grows with the page's bytes (bench/web_scale.py measures a quarter, a half and all of raw/).
export-web writes these into a page folder through ladders/artifact/webfolder.py (its rules there);
`ladders build --with web` swaps them in as <build dir>/web/ (ladders/targets.py).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import polars as pl

from pipeline import progress
from pipeline.columns import EVERYDAY_LABEL, LADDER_COSTS, WORDS, Col, group_columns, words_columns
from ladders.artifact.contract import alphabet_entry, export_alphabet, export_file, export_lexicons, label_cutoffs
from pipeline import io

BUCKET = 2_048  # words per bucket of small groups: one fetch brings a few hundred groups of a length
SPAN = 4_096  # edit groups per file of the buckets they span
EVERYDAY = EVERYDAY_LABEL  # the rareness label whose words are everyday (the config's rareness_labels.common)
CHUNK = 256  # definitions per file: a ladder's rungs need a few of these, not a bucket's whole text
PAGE = Path(__file__).resolve().parent.parent / "web"
# The page's scripts, in the order index.html loads them: plain scripts sharing one global scope, each
# using what the ones before it declare (app.js, last, starts the page).
SCRIPTS = ("words.js", "search.js", "view.js", "solve.js", "play.js", "offline.js", "app.js")
SHELL = ("index.html", *SCRIPTS, "style.css")


def _json(value) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _named(files: dict[str, bytes], folder: str, stem: str, data: bytes) -> str:
    """Put `data` at a name holding its content's hash (cacheable forever); the name."""
    name = f"{folder}/{stem}.{hashlib.sha256(data).hexdigest()[:16]}.json"
    files[name] = data
    return name


def _deltas(values: list[int]) -> list[int]:
    """Ascending ids as differences from the previous one (small numbers: fewer bytes)."""
    return [b - a for a, b in zip([0, *values], values)]


def _buckets(words: pl.DataFrame, columns: list[str]) -> list[list[int]]:
    """Word ids by bucket: whole substitution groups (of every lexicon's sub `columns`, joined where they
    share a word) packed by length, so that a substitution search needs one bucket and a bucket holds only
    words of one length."""
    import numpy as np
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    # The joined groups are the components of a graph of the words and each column's groups, a word linked
    # to its group in each column (a word in none is alone). In numpy and scipy, not a union-find over
    # Python tuples: that held about 170 MiB, the peak of `ladders release`.
    n, src, dst, nodes = words.height, [], [], words.height
    for column in columns:
        labels = words[column]
        held = np.flatnonzero(labels.is_not_null().to_numpy())
        group = labels.drop_nulls().cast(pl.Int64).to_numpy()
        src.append(held)
        dst.append(nodes + group)
        nodes += int(group.max()) + 1 if len(group) else 0
    edges = np.concatenate([np.zeros(0, np.int64), *src]), np.concatenate([np.zeros(0, np.int64), *dst])
    graph = coo_matrix((np.ones(len(edges[0]), np.int8), edges), shape=(nodes, nodes))
    if not n:
        return []
    # Numbered afresh over the words' components alone (a group id no word holds is a component too).
    component = np.unique(connected_components(graph, directed=False)[1][:n], return_inverse=True)[1].ravel()
    # A joined group's words in id order; groups ordered by the length and id of their first word.
    first = np.full(component.max() + 1, n, np.int64)
    np.minimum.at(first, component, np.arange(n))
    sizes = np.bincount(component, minlength=len(first))
    lengths = words[Col.length].cast(pl.Int64).to_numpy()
    order = np.lexsort((first, lengths[first]))
    bucket_of_group = np.zeros(len(first), np.int64)
    bucket, filled, length = -1, 0, None
    for g, size, g_length in zip(order.tolist(), sizes[order].tolist(), lengths[first[order]].tolist()):
        if bucket < 0 or filled + size > BUCKET or g_length != length:
            bucket, filled, length = bucket + 1, 0, g_length
        bucket_of_group[g] = bucket
        filled += size
    bucket_of_word = bucket_of_group[component]
    ids = np.argsort(bucket_of_word, kind="stable")  # ascending ids within each bucket
    return [part.tolist() for part in np.split(ids, np.flatnonzero(np.diff(bucket_of_word[ids])) + 1)]


PUZZLES = {"lengths": (3, 4, 5, 6), "steps": (3, 4, 5, 6), "count": 12, "seed": 27, "prefer": "csw"}


def puzzle_lexicon(lexicons) -> str:
    """The lexicon the page's puzzles keep to: CSW when the export holds it, else its first lexicon (an export
    of other lists altogether still plays)."""
    return PUZZLES["prefer"] if PUZZLES["prefer"] in lexicons else next(iter(lexicons))


def page_puzzles(export: Path) -> list[dict]:
    """The page's puzzles of this export, in the lexicon its play mode keeps to: what export-web writes to
    data/puzzles.*.json, and what `ladders puzzle --daily` picks the date's puzzle from."""
    return _puzzles(export, puzzle_lexicon(export_lexicons(export)))


def _puzzles(export: Path, lexicon: str) -> list[dict]:
    """The page's puzzles, drawn here by `ladders puzzle`'s own generator (common and clean words of
    `lexicon`, substitutions): a fixed set, so that the page needs no longest-ladder table and every visitor
    gets the same puzzle on a date. Lengths and steps with no such puzzle are left out."""
    from ladders.solve.puzzle import puzzles
    from ladders.solve.question import SolveError
    from ladders.solve.solver import Ladders

    from pipeline import progress

    ladders, found = Ladders.open(export), []
    for length, steps in progress.track(
        [(n, s) for n in PUZZLES["lengths"] for s in PUZZLES["steps"]], "export-web: puzzles (letters, steps)"
    ):
        try:
            drawn = puzzles(
                ladders,
                length,
                steps,
                lexicon,
                common=True,
                clean="strict",
                seed=PUZZLES["seed"],
                count=PUZZLES["count"],
            )
        except SolveError:
            continue
        found += [
            {
                "start": p.start,  # not a column: the page's names
                "end": p.end,  # not a column: the page's names
                "length": length,  # not a column: the page's names
                "steps": p.steps,
                "difficulty": p.difficulty,
            }
            for p in drawn
        ]
    return found


def _labels(words: pl.DataFrame, cutoffs: dict) -> list[int]:
    """Each word's label number: 0 (common) .. len(cutoffs) (obscure: beyond the last SCOWL cut-off, or
    not in SCOWL)."""
    label = pl.lit(len(cutoffs))
    for number, top in reversed(list(enumerate(cutoffs.values()))):
        label = pl.when(pl.col(Col.scowl_level) <= top).then(number).otherwise(label)
    return words.select(label.alias("label"))["label"].to_list()


def _page_columns(words: pl.DataFrame, cutoffs: dict, sent: list[str]) -> dict[str, list]:
    """The words' fields the page's files are cut from, as lists by word id: word, label, the `sent`
    columns, the substitution (`sub`) and insert/delete (`indel`) links, and the definition."""
    return {
        Col.word: words[Col.word].to_list(),
        "label": _labels(words, cutoffs),
        **{column: words[column].to_list() for column in sent},
        "sub": words[Col.links].to_list(),
        "indel": words[Col.edit_links].to_list(),
        Col.definition: words[Col.definition].to_list(),
    }


def _bucket_file(
    files: dict[str, bytes], n: int, ids: list[int], columns: dict[str, list], values: list[str], positions: list[str]
) -> str:
    """Put bucket `n` (word `ids`) and its definition files into `files`; the bucket's name."""
    position = {i: p for p, i in enumerate(ids)}
    # A substitution group stays in its bucket; a link between an OWL-only and a CSW-only word (no
    # lexicon's search may step on it) would leave it, and is left out.
    sub = [sorted(position[u] for u in columns["sub"][i] or [] if u in position) for i in ids]
    indel = [sorted(columns["indel"][i] or []) for i in ids]
    defs = [
        _named(files, "data/defs", f"{n}-{k}", _json([columns[Col.definition][i] for i in ids[start : start + CHUNK]]))
        for k, start in enumerate(range(0, len(ids), CHUNK))
    ]
    bucket = {
        "ids": _deltas(ids),
        "words": [columns[Col.word][i] for i in ids],
        **{c: [columns[c][i] for i in ids] for c in (*values, "label")},
        **{c: [p for p, i in enumerate(ids) if columns[c][i]] for c in positions},
        "sub_len": [len(s) for s in sub],
        "sub": [d for s in sub for d in _deltas(s)],
        "indel_len": [len(s) for s in indel],
        "indel": [d for s in indel for d in _deltas(s)],
        "defs": defs,
        "chunk": CHUNK,
    }
    return _named(files, "data/b", str(n), _json(bucket))


def _index_files(files: dict[str, bytes], words: list[str], bucket_of: list[int]) -> dict[str, str]:
    """Put the word index into `files`: a file per length and first letter ("4:C"), each word's id and
    bucket; the file names by that key."""
    keys: dict[str, list[int]] = {}
    for i, w in enumerate(words):
        keys.setdefault(f"{len(w)}:{w[:1]}", []).append(i)
    return {
        key: _named(
            files,
            "data/i",
            str(k),
            _json({"words": [words[i] for i in ids], "ids": _deltas(ids), "bucket": [bucket_of[i] for i in ids]}),
        )
        for k, (key, ids) in enumerate(sorted(keys.items()))
    }


def _span_files(files: dict[str, bytes], column: str, groups: list, bucket_of: list[int]) -> list[str]:
    """Edit groups join substitution groups of several lengths: put the buckets each group of `column`
    spans, when more than one, into `files`, SPAN groups a file (an edit search fetches one of them); the
    file names in group order."""
    by_group: dict[int, set[int]] = {}
    for i, g in enumerate(groups):
        if g is not None:
            by_group.setdefault(g, set()).add(bucket_of[i])
    top = max(by_group, default=-1)
    return [
        _named(
            files,
            "data/s",
            f"{column}-{k}",
            _json(
                {
                    str(g): sorted(by_group[g])
                    for g in range(start, min(start + SPAN, top + 1))
                    if len(by_group.get(g, ())) > 1
                }
            ),
        )
        for k, start in enumerate(range(0, top + 1, SPAN))
    ]


def _add_page(files: dict[str, bytes], named: dict, puzzles: str) -> None:
    """Add the page (SHELL), the listing of the page and data files (for "keep for offline use"),
    data/manifest.json and sw.js to `files`, then a gzip copy beside each file. `named`: the manifest's
    fields before `span` (lexicons, labels, positions and the data files' names); `puzzles`: their file."""
    data_names = sorted(files)
    for name in SHELL:
        files[name] = (PAGE / name).read_bytes()
    # The version names the whole export: the service worker's cache is named by it.
    version = hashlib.sha256(
        b"".join(n.encode() + b"\0" + hashlib.sha256(files[n]).digest() for n in sorted(files))
    ).hexdigest()[:16]
    listing = _named(files, "data", "files", _json({n: len(files[n]) for n in [*SHELL, *data_names]}))
    files["data/manifest.json"] = _json(
        {
            "version": version,
            **named,
            "span": SPAN,
            "files": listing,
            "puzzles": puzzles,
            "bytes": sum(len(files[n]) for n in [*SHELL, *data_names]),
        }
    )
    files["sw.js"] = (PAGE / "sw.js").read_bytes().replace(b"@VERSION@", version.encode())
    # Precompressed copies beside the data and the page, for a server that sends them to browsers
    # accepting gzip (README: serving the page). mtime 0: the same export gives the same bytes.
    for name in [n for n in files if n.endswith((".json", ".js", ".html", ".css"))]:
        files[name + ".gz"] = gzip.compress(files[name], compresslevel=9, mtime=0)


def web_files(export: Path, table=WORDS) -> dict[str, bytes]:
    """Every file of the page folder, by path relative to it; the buckets' fields by the column `table`."""
    words = io.read_export_table(export_file(export))
    lexicons = export_lexicons(export)
    group_of = group_columns(lexicons)
    cutoffs = label_cutoffs(export)
    # The bucket's fields, from the column table: `values` columns as a list (one per word), `positions`
    # columns as the positions of the words where they are true; `label` is the page's own.
    encoded = words_columns(lexicons, table)
    values = [name for name, c in encoded if c.web == "values"]
    positions = [name for name, c in encoded if c.web == "positions"]
    columns = _page_columns(words, cutoffs, values + positions)
    files: dict[str, bytes] = {}
    buckets = _buckets(words, [column for (_, mode), column in group_of.items() if mode == "sub"])
    bucket_of = [0] * words.height
    del words  # its fields are in `columns` now
    for n, ids in enumerate(buckets):
        for i in ids:
            bucket_of[i] = n
    bucket_names = [
        _bucket_file(files, n, ids, columns, values, positions)
        for n, ids in progress.track(list(enumerate(buckets)), "export-web: buckets")
    ]
    index = _index_files(files, columns[Col.word], bucket_of)
    spans = {
        column: _span_files(files, column, columns[column], bucket_of)
        for (_, mode), column in group_of.items()
        if mode == "edit"
    }
    play = puzzle_lexicon(lexicons)
    named = {
        "lexicons": list(lexicons),
        "labels": [*cutoffs, "obscure"],
        # The label of everyday words: `common`'s cut-off's number; and the common-word rule's cost of a word by
        # its label's number (LADDER_COSTS; a word of another label costs its rareness).
        "everyday": list(cutoffs).index(EVERYDAY) if EVERYDAY in cutoffs else 0,
        "costs": {str(list(cutoffs).index(label)): cost for label, cost in LADDER_COSTS.items() if label in cutoffs},
        "puzzle_lexicon": play,  # the lexicon play mode keeps to (its group column, its words)
        # The typed-word rule's table, as the export's manifest carries it (English's for an older export).
        "alphabet": alphabet_entry(export_alphabet(export)),
        "positions": positions,  # the bucket fields the page reads as sets of positions
        "index": index,
        "buckets": bucket_names,
        "spans": spans,
    }
    # The words and their fields as Python lists (about 100 MiB on raw/) go before the puzzles' solver loads
    # its groups: release peaked there.
    del columns, buckets, bucket_of
    _add_page(files, named, _named(files, "data", "puzzles", _json(_puzzles(export, play))))
    return files
