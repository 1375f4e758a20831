"""NOTICE, the release's file of where each input came from, under which licence, and which columns of the
export carry its text.

Reads the export's manifest (its inputs by key, with sha256; its lexicons) and words.parquet's
`definition_source` (how many definitions each input gave); for each input, the first SOURCES.md in its
folder or above it (origin and licence, matched by sha256); WordNet's licence header and cuss's licence
file. Every input is found through the config (input_paths): a path key by its path, a word list by its
label in the manifest (the path as the config writes it, resolved against the config's folder, whatever
the current folder).
Writes nothing: `notice` returns the text, ladders/artifact/release.py writes it. Every value from the export
or an input (a list's path or name, a definition source, a SOURCES.md cell, a licence file's lines) goes
through `plain`: control and invisible characters as visible `\\u001b` escapes, and no line break of its own.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.columns import WORDS_FILE
from ladders.artifact.contract import read_manifest
from pipeline.config import LEXICON_FILES

# What each input is and which columns carry it. The same values are in ladder.sqlite, the MySQL dump and
# the web folder's data.
CARRIED_BY = {
    "csw": "`word` and `in_csw` (and what is computed from the words: `length`, the links, the groups); "
    "`definition` where `definition_source` is `csw` or begins `csw-`",
    "owl": "`in_owl` (and the owl groups); `definition` where `definition_source` is `owl` or begins `owl-`",
    "scowl": "`scowl_level`, `rareness`, `usa`, `brit`: facts read from the lists, none of their text",
    "wordnet": "`definition` where `definition_source` is `wordnet` or begins `wordnet-`; "
    "WordNet's usage labels also set some `offensive` and `vulgar_sense` flags",
    "gcide": "`definition` where `definition_source` is `gcide` or begins `gcide-`; "
    "GCIDE's usage labels also set some `offensive` and `vulgar_sense` flags",
    "supplement": "`definition` where `definition_source` is `supplement` or begins `supplement-`",
    "offensive": "`offensive` and `vulgar_sense` of the words it lists",  # not a column: the config key
    "cuss": "`offensive` of words no dictionary here labels: its ratings, none of its text",
    "main_senses": "which sense of `definition` comes first: its choices, none of its text",
    "wordfreq": "`scowl_level` and `rareness` of the words SCOWL rates everyday that wordfreq rarely sees, and "
    "so which words are everyday (`in_everyday`, the `common` label): its frequencies, none of its text; "
    "in a language build (rareness_source wordfreq), every word's `scowl_level` and `rareness`",
    "freedict": "`definition` where `definition_source` begins `freedict-`: English glosses, shown as translations",
}
WORDFREQ_NOTICE = (
    "wordfreq 3.1.1 (PyPI), by Robyn Speer: its code is under the Apache License 2.0 and its data under "
    "Creative Commons Attribution-ShareAlike 4.0 (CC BY-SA 4.0), built from Wikipedia, subtitles (OpenSubtitles, "
    "SUBTLEX), news, books (Google Books Ngrams), web text (OSCAR) and other sources its README names. Only "
    "a threshold on its frequencies shapes the columns above; no frequency value is exported."
)
SCOWL_NOTICE = (
    "SCOWL (Spell Checker Oriented Word Lists) is Copyright Kevin Atkinson, with parts by the other "
    'authors its Copyright file names. Its notice: "Permission to use, copy, modify, distribute and sell '
    "these word lists, the associated scripts, the output created from the scripts, and its documentation "
    "for any purpose is hereby granted without fee, provided that the above copyright notice appears in all "
    "copies and that both that copyright notice and this permission notice appear in supporting "
    "documentation. Kevin Atkinson makes no representations about the suitability of this array for any "
    'purpose. It is provided "as is" without express or implied warranty." The full notice is SCOWL\'s '
    "Copyright file (in the Debian package scowl: /usr/share/doc/scowl/copyright)."
)
GPL_NOTE = (
    "GCIDE (the GNU Collaborative International Dictionary of English) is under the GNU General Public "
    "License, version 3 or later. The definitions counted above are GCIDE text or made from it, so they, "
    "and every file that holds them, pass on under the GPL-3+ with their source: GCIDE's dictd files "
    "(Debian package dict-gcide). To release without them, leave `gcide` out of `definition_sources`."
)
OWN_LIST = (
    "Not listed in a SOURCES.md beside it: a list of your own, whose licence is yours to honour. Collins "
    "Scrabble Words and the NASPA Word List are licensed; a release built from them may be passed on only "
    "as that licence allows."
)


def plain(value) -> str:
    """A value as inert plain text on one line: pipeline/terminal.py's inert, and the newline it keeps
    escaped too (a list's path holding a newline and `# Heading` started a heading of its own)."""
    from pipeline.terminal import inert

    return inert(str(value)).replace("\n", "\\u000a")


def name_text(value) -> str:
    """A name from outside (an input's file name, a lexicon's, a definition source's) as inert text in NOTICE,
    whose headings are Markdown: plain, and the characters Markdown and HTML act on backslash-escaped, as
    CHANGES.md writes them (diff.md): an add-list named `<img src=x>` or `[c](https://evil)` renders as
    written, never as an image or a link."""
    return "".join("\\" + c if c in "\\`*{}[]<>()#+!|~&:" else c for c in plain(value))


def _listed_sources(path: Path) -> dict[str, tuple[str, str]]:
    """sha256 -> (origin, licence) from the first SOURCES.md in the input's folder or above it: the table
    rows of raw/SOURCES.md (`| path | package | version | path in package | sha256 | licence |`) and
    its list of files written for the project (`- `path`: what (LICENCE); sha256 `...``)."""
    import re

    for folder in [path, *path.parents] if path.is_dir() else path.parents:
        sources = folder / "SOURCES.md"
        if not sources.is_file():
            continue
        found = {}
        for line in sources.read_text(encoding="utf-8").splitlines():
            cells = [c.strip().replace("`", "") for c in line.strip().strip("|").split("|")]
            if len(cells) == 6 and re.fullmatch(r"[0-9a-f]{64}", cells[4]):
                found[cells[4]] = (f"{cells[1]} {cells[2]}", cells[5])
            hand = re.match(r"- `([^`]+)`: .*\(([^()]+)\); sha256 `([0-9a-f]{64})`", line)
            if hand:
                found[hand[3]] = ("written for this project", hand[2])
        return found
    return {}


def _wordnet_licence(folder: Path) -> str:
    """The licence WordNet's data files carry in their first lines (`  1 This software ...`)."""
    import re

    lines = []
    try:
        with open(folder / "data.noun", encoding="utf-8", errors="replace") as f:
            for line in f:
                numbered = re.match(r"  \d+ ?(.*)", line)
                if not numbered:
                    break
                lines.append(numbered[1].rstrip())
    except OSError:
        return ""
    return "\n".join(lines).strip()


def _licence_file(path: Path) -> str:
    for name in ("license", "LICENSE", "license.txt", "LICENSE.txt"):
        if (path.parent / name).is_file():
            return (path.parent / name).read_text(encoding="utf-8", errors="replace").strip()
    return ""


def notice(export: Path, inputs: dict[str, Path]) -> str:
    """NOTICE: for each input of the export's manifest, its files' origin and licence (from the first
    SOURCES.md in its folder or above it, matched by sha256), the columns that carry it and, for
    definitions, how many come from it."""
    import polars as pl

    from pipeline.columns import Col

    manifest = read_manifest(export)
    # The word lists are one input of stage 1 (every file the lexicons name): each is shown under the name
    # of the lexicon it makes (an add or remove list under its file name), with its own path.
    named = {lex["file"]: lex["name"] for lex in manifest.get("lexicons", []) if "file" in lex}
    by_key: dict[str, list[str]] = {}
    lists: set[str] = set()
    for path, entry in manifest.get("inputs", {}).items():
        key = entry["key"]
        if key == LEXICON_FILES:
            key = named.get(path, Path(path).name)
            inputs = {**inputs, key: inputs.get(path, Path(path))}
            lists.add(key)
        by_key.setdefault(key, []).append(entry["sha256"])
    words = pl.read_parquet(export / WORDS_FILE, columns=[Col.definition_source], glob=False)
    sources = words[Col.definition_source]
    made = sources.drop_nulls().value_counts(sort=True, name="n").rows()
    out = [
        "NOTICE: what this release is made from, under which licence, and where each input's text is.",
        "",
        "Columns are those of words.parquet; ladder.sqlite, ladder-mysql.sql.gz and web.tar.gz (data/) hold "
        "the same values, so the same licences apply to them.",
    ]
    for key in sorted(by_key):
        path = inputs.get(key)
        listed = _listed_sources(path) if path else {}
        found = {listed[d] for d in by_key[key] if d in listed}
        carried = CARRIED_BY.get(key) or (
            f"`in_{name_text(key)}` and its groups"
            if key in named.values()
            else "the words of the lexicons it is added to"
        )
        out += [
            "",
            f"## {name_text(key)}",
            "",
            f"Carried by: {carried if key in lists else CARRIED_BY.get(key, 'no column of the export')}.",
        ]
        defined = [(s, n) for s, n in made if s.split("-")[0] == key]
        if defined:
            out.append("Definitions from it: " + ", ".join(f"{n:,} ({name_text(s)})" for s, n in defined) + ".")
        if found and len(found) == 1 and all(d in listed for d in by_key[key]):
            origin, licence = found.pop()
            out.append(f"From: {plain(origin)}. Licence: {plain(licence)}.")
        elif found:
            out.append("Some of its files are listed in SOURCES.md, not all: check the licence of the others.")
        elif key == "wordfreq":  # a file of an installed package, pinned in pyproject.toml: no SOURCES.md
            out.append(WORDFREQ_NOTICE)
        else:
            out.append(OWN_LIST if key in lists else "Not listed in a SOURCES.md: check its licence.")
        if key == "gcide" and defined:
            out.append(GPL_NOTE)
        if key == "scowl":
            out.append(SCOWL_NOTICE)
        text = (
            _wordnet_licence(path)
            if key == "wordnet" and path
            else _licence_file(path)
            if key == "cuss" and path
            else ""
        )
        if text:
            out += ["", *("    " + plain(line) if line else "" for line in text.splitlines())]
    return "\n".join(out) + "\n"


def input_paths(config, export: Path) -> dict[str, Path]:
    """The config's path of each input key the export's manifest names, and of each word list by its label
    (the manifest's path as written in the config: `raw/lexicons/sowpods.txt`)."""
    keys = {entry["key"] for entry in read_manifest(export).get("inputs", {}).values()} - {LEXICON_FILES}
    return {key: config.path(key) for key in sorted(keys) if key in config.values} | config.lexicon_files()
