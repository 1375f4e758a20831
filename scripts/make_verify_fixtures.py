#!/usr/bin/env python3
"""Write tests/fixtures/verify/: one tiny export per `ladders verify` code.

`make fixtures` runs this. It builds tests/data/tiny (plus COTS and DOTS, so
that the edit links have a swap to make) with the real pipeline, keeps that export as
`good/`, and writes one damaged copy per check. Each copy breaks one invariant
and then covers its tracks the way a careful tamperer would: the columns the column table derives
from others are recomputed (E006 aside), groups.parquet
and ladder.sqlite are rebuilt from the damaged words.parquet, and manifest.json
is rehashed, so that only the broken invariant is left for verify to find.
Where an invariant cannot break alone (a neighbour list that loses a word is
also incomplete), the fixture's README row says which other code comes along.
tests/unit/ladders/artifact/test_verify_fixtures.py holds what each fixture must report.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.config import load_config  # noqa: E402
from pipeline.io import parquet_bytes  # noqa: E402
from ladders.compose import runner  # noqa: E402
from pipeline.columns import (  # noqa: E402
    GROUPS_FILE,
    LONGEST_FILE,
    MANIFEST_FILE,
    SQLITE_FILE,
    WORDS_FILE,
    Col,
    derived_columns,
    group_columns,
    in_column,
    lexicons_of,
)  # noqa: E402
from ladders.artifact.contract import link_pairs  # noqa: E402
from pipeline.sqlite import sqlite_bytes  # noqa: E402
from stages.s06_analysis import build_analysis  # noqa: E402
from stages.s07_export import build_group_table  # noqa: E402

OUT = ROOT / "tests" / "fixtures" / "verify"
TINY = ROOT / "tests" / "data" / "tiny"


def build_good(work: Path) -> Path:
    shutil.copytree(TINY, work / "tiny")
    csw = work / "tiny" / "csw.txt"
    csw.write_text(csw.read_text() + "COTS\nDOTS\n")  # CSW only: edit links to swap
    (work / "tiny" / "config.toml").write_text(
        'csw = "csw.txt"\nowl = "owl.txt"\nscowl = "scowl"\nwordnet = "wordnet"\nsupplement = "supplement.txt"\n'
        'gcide = "gcide"\noffensive = "offensive.txt"\ncuss = "cuss.js"\nmain_senses = "main_senses.tsv"\nbuild_dir = "build"\n'
    )
    runner(load_config(work / "tiny" / "config.toml")).build()
    return work / "tiny" / "build" / "export"


class Fixture:
    """A copy of the good export, damaged in memory and written back with its tracks covered."""

    def __init__(self, good: Path, name: str):
        self.folder = OUT / name
        shutil.copytree(good, self.folder)
        self.words = pl.read_parquet(self.folder / WORDS_FILE)
        self.manifest = json.loads((self.folder / MANIFEST_FILE).read_text())

    def id(self, word: str) -> int:
        return self.words.filter(pl.col(Col.word) == word)[Col.id].item()

    def set_list(self, column: str, word: str, neighbours: list[str], ascending: bool = True) -> None:
        ids = [self.id(w) for w in neighbours]
        ids = sorted(ids) if ascending else ids
        self.words = self.words.with_columns(
            pl.when(pl.col(Col.word) == word).then(pl.lit(ids, pl.List(pl.UInt32))).otherwise(column).alias(column)
        )

    def neighbours(self, column: str, word: str) -> list[str]:
        names = self.words[Col.word].to_list()
        return [names[i] for i in self.words.filter(pl.col(Col.word) == word)[column].item()]

    def swap_link(self, column: str, old: tuple[str, str], new: tuple[str, str]) -> None:
        """Replace the link old[0]-old[1] by new[0]-new[1] on both sides."""
        unlink(self, column, *old)
        for a, b in (new, new[::-1]):
            self.set_list(column, a, self.neighbours(column, a) + [b])

    def write(
        self,
        groups: pl.DataFrame | None = None,
        sqlite: bool = True,
        rehash: bool = True,
        longest: bool = True,
        derive: bool = True,
    ) -> None:
        if derive:  # the columns the table computes from others (length, ...) follow the damage
            self.words = self.words.with_columns(**derived_columns())
        (self.folder / WORDS_FILE).write_bytes(parquet_bytes(self.words))
        groups = build_group_table(self.words) if groups is None else groups
        (self.folder / GROUPS_FILE).write_bytes(parquet_bytes(groups))
        if longest:
            (self.folder / LONGEST_FILE).write_bytes(parquet_bytes(self._longest()))
            self.manifest["files"][LONGEST_FILE]["rows"] = self._longest().height
        if sqlite:
            (self.folder / SQLITE_FILE).write_bytes(sqlite_bytes(self.words))  # the lists as they are
        self.manifest["files"][WORDS_FILE]["rows"] = self.words.height
        self.manifest["files"][GROUPS_FILE]["rows"] = groups.height
        if rehash:
            for name, entry in self.manifest["files"].items():
                entry["sha256"] = hashlib.sha256((self.folder / name).read_bytes()).hexdigest()
        (self.folder / MANIFEST_FILE).write_text(json.dumps(self.manifest, indent=2, sort_keys=True) + "\n")

    def _longest(self) -> pl.DataFrame:
        """longest.parquet recomputed by stage 6 from the damaged words, as a tamperer would."""
        pairs = link_pairs(self.words).filter(pl.col(Col.src) < pl.col(Col.dst))
        names = lexicons_of(self.words.columns)
        return build_analysis(
            self.words.select(Col.id, Col.word),
            pairs,
            self.words.select(Col.id, *map(in_column, names), *group_columns(names).values()),
            {name: {} for name in names},  # every lexicon analysed afresh
        )["longest"]


def regroup(f: Fixture, column: str, mapping: dict[int, int]) -> None:
    f.words = f.words.with_columns(pl.col(column).replace(mapping))


def e001(f: Fixture) -> None:
    f.write(rehash=True)
    f.manifest["files"][GROUPS_FILE]["sha256"] = "0" * 64
    f.write(rehash=False)


def e002(f: Fixture) -> None:
    f.words = f.words.with_columns(pl.lit(0, pl.Int8).alias("extra"))
    f.write()


def e003(f: Fixture) -> None:
    f.words = f.words.with_columns(pl.col(Col.word).replace({"ZYZZYVA": "zyzzyva"}))
    f.write()


def e004(f: Fixture) -> None:
    f.write()
    (f.folder / "notes.txt").write_text("a file the manifest does not list\n")


def e005(f: Fixture) -> None:
    f.words = f.words.with_columns(pl.when(pl.col(Col.word) == "DOG").then(None).otherwise(Col.brit).alias(Col.brit))
    f.write()


def e006(f: Fixture) -> None:
    f.words = f.words.with_columns(
        pl.when(pl.col(Col.word) == "ZYZZYVA").then(6).otherwise(Col.length).alias(Col.length)
    )
    f.write(derive=False)


def e101(f: Fixture) -> None:
    f.set_list(Col.links, "COT", [w for w in f.neighbours(Col.links, "COT") if w != "CAT"])  # one side only
    f.write()


def e102(f: Fixture) -> None:
    f.set_list(Col.links, "CAT", f.neighbours(Col.links, "CAT") + ["CAT"])
    f.write()


def e103(f: Fixture) -> None:
    f.set_list(Col.links, "COT", sorted(f.neighbours(Col.links, "COT"), reverse=True), ascending=False)
    f.write()


def e104(f: Fixture) -> None:
    # every degree and every group, in CSW and in OWL (which lacks COT), stay as they were
    f.swap_link(Col.links, ("COT", "DOT"), ("COT", "DOG"))
    f.swap_link(Col.links, ("DOG", "COG"), ("DOT", "COG"))
    f.write()


def e105(f: Fixture) -> None:
    f.swap_link(Col.edit_links, ("COT", "COTS"), ("COT", "DOTS"))  # COTS and DOTS are not OWL words:
    f.swap_link(Col.edit_links, ("DOT", "DOTS"), ("DOT", "COTS"))  # OWL's edit groups see no change
    f.write()


def e106(f: Fixture) -> None:
    f.manifest["counts"]["owl_not_in_csw"] += 1
    f.write()


def e107(f: Fixture) -> None:
    # ZYZZYVA (no SCOWL level, no links) made an everyday word in a singleton group of its own, numbered
    # last as its word is: every group stays connected and in order; the manifest counts it.
    for column in ("group_everyday", "group_everyday_edit"):
        last = f.words[column].max() + 1
        f.words = f.words.with_columns(
            pl.when(pl.col(Col.word) == "ZYZZYVA").then(last).otherwise(pl.col(column)).cast(pl.UInt32).alias(column)
        )
    f.words = f.words.with_columns(pl.col("in_everyday") | (pl.col(Col.word) == "ZYZZYVA"))
    for entry in f.manifest["lexicons"]:
        entry["words"] += entry["name"] == "everyday"
    f.manifest["counts"]["everyday_words"] += 1
    f.write()


def unlink(f: Fixture, column: str, a: str, b: str) -> None:
    for x, y in ((a, b), (b, a)):
        f.set_list(column, x, [w for w in f.neighbours(column, x) if w != y])


def e108(f: Fixture) -> None:
    # A link of the cycle COT-DOT-DOG-COG, so CSW's groups hold; OWL lacks COT and everyday lacks COG.
    unlink(f, Col.links, "COT", "COG")
    f.write()


def e109(f: Fixture) -> None:
    unlink(f, Col.edit_links, "COT", "COTS")  # COTS stays in COT's edit group through CATS and DOTS
    f.write()


def e201(f: Fixture) -> None:
    # ZYZZYVA (the last word, so the last group id) joins MOUSE's group: numbering stays 0..n-1
    source, target = (f.words.filter(pl.col(Col.word) == w)[Col.group_csw].item() for w in ("ZYZZYVA", "MOUSE"))
    regroup(f, Col.group_csw, {source: target})
    f.write()


def e202(f: Fixture) -> None:
    regroup(f, Col.group_csw, {0: 1, 1: 0})
    f.write()


def e203(f: Fixture) -> None:
    groups = build_group_table(f.words)
    groups = groups.with_columns(
        pl.when(pl.int_range(pl.len()) == 0).then(pl.col(Col.size) + 1).otherwise(Col.size).alias(Col.size)
    )
    f.write(groups=groups)


def e204(f: Fixture) -> None:
    longest = f._longest()
    longest = longest.with_columns(
        pl.when(pl.int_range(pl.len()) == 0).then(pl.col(Col.diameter) + 1).otherwise(Col.diameter).alias(Col.diameter)
    )
    (f.folder / LONGEST_FILE).write_bytes(parquet_bytes(longest))
    f.write(longest=False)


def e301(f: Fixture) -> None:
    f.words = f.words.with_columns(
        pl.when(pl.col(Col.word) == "DOG").then(pl.lit(7, pl.UInt32)).otherwise(Col.rareness).alias(Col.rareness)
    )
    f.write()


def e401(f: Fixture) -> None:
    f.write()
    con = sqlite3.connect(f.folder / SQLITE_FILE)
    con.execute("DROP INDEX words_group_csw")
    con.commit()
    con.close()
    f.write(sqlite=False)


def flag(f: Fixture, column: str, word: str, value: bool) -> None:
    f.words = f.words.with_columns(
        pl.when(pl.col(Col.word) == word).then(pl.lit(value)).otherwise(column).alias(column)
    )


def e501(f: Fixture) -> None:
    flag(f, Col.vulgar_sense, "DOT", True)  # DOT is offensive (tests/data/tiny/offensive.txt)
    f.write()


def e502(f: Fixture) -> None:
    flag(f, Col.offensive, "DOTS", False)  # DOTS is a plural of DOT alone
    f.write()


FIXTURES = {
    "E001": ("the manifest's sha256 of groups.parquet is wrong", e001),
    "E002": ("words.parquet has a column the contract lacks", e002),
    "E003": ("the last word, ZYZZYVA, is written in lower case", e003),
    "E004": ("a file the manifest does not list, notes.txt", e004),
    "E005": ("DOG's `brit` is null, which the column table does not allow", e005),
    "E006": ("ZYZZYVA's `length` is 6, not the 7 its rule gives (a word in no group of two)", e006),
    "E101": ("COT no longer lists CAT; CAT still lists COT (E108 too: COT's list is short)", e101),
    "E102": ("CAT lists itself (E108 too: one link more than the word list gives)", e102),
    "E103": ("COT's links in descending order", e103),
    "E104": ("COT-DOT and DOG-COG replaced by COT-DOG and DOT-COG: every degree and group as before", e104),
    "E105": ("edit links COT-COTS and DOT-DOTS replaced by COT-DOTS and DOT-COTS", e105),
    "E106": ("the manifest counts one more OWL word outside CSW", e106),
    "E107": ("ZYZZYVA, beyond SCOWL level 35, made an everyday word in a group of its own", e107),
    "E108": ("the link COT-COG removed from both lists and from ladder.sqlite", e108),
    "E109": ("the edit link COT-COTS removed from both lists and from ladder.sqlite", e109),
    "E201": (
        "ZYZZYVA put in MOUSE's CSW group, with groups.parquet rebuilt to match (E204 too: a group "
        "that is not connected has no pair at its diameter)",
        e201,
    ),
    "E202": ("CSW groups 0 and 1 swap their ids, with groups.parquet rebuilt to match", e202),
    "E203": ("groups.parquet's first group one word larger than words.parquet says", e203),
    "E204": ("longest.parquet's first group one step longer than its pair is apart", e204),
    "E301": ("DOG's rareness 7 where its SCOWL level gives another", e301),
    "E401": ("ladder.sqlite lost its index on group_csw", e401),
    "E501": ("DOT, offensive, also flagged vulgar_sense", e501),
    "E502": ("DOTS, the plural of the offensive DOT, not offensive", e502),
}

README = """# verify fixtures

One tiny export per `ladders verify` code, written by
`scripts/make_verify_fixtures.py` (`make fixtures`); do not edit them by hand.
`good/` is the real pipeline's export of tests/data/tiny plus COTS and DOTS.
Every other folder is `good/` with one invariant broken, and its tracks
covered: groups.parquet, longest.parquet and ladder.sqlite rebuilt from the
damaged words.parquet and manifest.json rehashed, so that only the broken invariant is
left to find. tests/unit/ladders/artifact/test_verify_fixtures.py says what each must report.

| folder | damage |
|---|---|
"""


def main() -> None:
    if OUT.exists():
        shutil.rmtree(OUT)
    OUT.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as work:
        good = build_good(Path(work))
        shutil.copytree(good, OUT / "good")
        for code, (_, damage) in FIXTURES.items():
            damage(Fixture(good, code))
    rows = "".join(f"| {code} | {what} |\n" for code, (what, _) in FIXTURES.items())
    (OUT / "README.md").write_text(README + rows)
    print(f"wrote {len(FIXTURES) + 1} exports into {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
