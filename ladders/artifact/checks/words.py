"""Verify's checks of what each word holds against how the manifest says it was made: the lexicons (E106,
E107), rareness under the manifest's table (E301), and the offensive and vulgar_sense flags (E501, E502).

Each check takes an `Export` (checks/export.py) and returns the lines of what is wrong (empty: it holds);
verify prints its docstring when it fails, and up to EXAMPLES of the lines. E502 alone uses stage code: it proposes a
word's base forms by stage 2's own morphology (through ladders/compose.py), as the rule it checks is
stated in those terms.
"""

from __future__ import annotations

import polars as pl

from pipeline.columns import Col, in_column
from ladders.artifact.checks.export import EXAMPLES, Export


def owl_within_csw(e: Export) -> list[str]:
    """OWL words outside CSW differ from the count the manifest records"""
    if not {Col.in_csw, Col.in_owl} <= set(e.words.columns):
        return []
    outside = e.words.filter(pl.col(Col.in_owl) & ~pl.col(Col.in_csw))
    expected = e.manifest.get("counts", {}).get("owl_not_in_csw", 0)
    if outside.height == expected:
        return []
    return [f"{outside.height} OWL words not in CSW, manifest says {expected}"] + outside[Col.word].head(
        EXAMPLES
    ).to_list()


def lexicons_as_made(e: Export) -> list[str]:
    """a lexicon's words disagree with how the manifest says it was made (its count; a derived lexicon without an add-list holds a word its parent lacks, or a word beyond its SCOWL filter)"""
    bad = []
    for entry in e.manifest.get("lexicons", []):
        name, flag = entry.get("name"), in_column(entry.get("name", ""))
        if flag not in e.words.columns:
            bad.append(f"{name}: no column {flag}")
            continue
        held = e.words.filter(pl.col(flag))
        if held.height != entry.get("words"):
            bad.append(f"{name}: {held.height:,} words, the manifest says {entry.get('words')}")
        if "add" in entry:
            continue  # an add-list's words may be anywhere
        if "from" in entry and in_column(entry["from"]) in e.words.columns:
            stray = held.filter(~pl.col(in_column(entry["from"])))[Col.word]
            bad += [f"{name}: {w} is not in {entry['from']}" for w in stray.head(EXAMPLES)]
        if "max_scowl_level" in entry:
            # scowl_level is the lowest of every list, main or variant: at most the main lists' level.
            beyond = held.filter(
                pl.col(Col.scowl_level).is_null() | (pl.col(Col.scowl_level) > entry["max_scowl_level"])
            )
            bad += [
                f"{name}: {w} is beyond SCOWL level {entry['max_scowl_level']}" for w in beyond[Col.word].head(EXAMPLES)
            ]
    return bad


def rareness_follows_levels(e: Export) -> list[str]:
    """rareness disagrees with scowl_level under the manifest's rareness table"""
    table = e.manifest.get("config", {}).get("rareness_by_level")
    if not table:
        return ["manifest has no config.rareness_by_level"]
    expected = e.words[Col.scowl_level].replace_strict(
        {int(k): v for k, v in table.items() if k != "absent"}, default=table["absent"], return_dtype=pl.UInt32
    )
    wrong = e.words.filter(pl.Series(expected).ne_missing(e.words[Col.rareness]))
    return [
        f"{w}: level {lv}, rareness {r}"
        for w, lv, r in wrong.select(Col.word, Col.scowl_level, Col.rareness).head(EXAMPLES).rows()
    ]


def offensive_and_vulgar_sense_disjoint(e: Export) -> list[str]:
    """a word is flagged both offensive and vulgar_sense (the levels never overlap)"""
    both = e.words.filter(pl.col(Col.offensive) & pl.col(Col.vulgar_sense))
    return [f"{w}: offensive and vulgar_sense" for w in both[Col.word].head(EXAMPLES)]


def forms_of_offensive_words_offensive(e: Export) -> list[str]:
    """a form of an offensive word is not offensive (not cleared in the reviewed list either)"""
    # The stage's own morphology (WordNet's suffix rules) proposes the bases; only proposals that are words
    # of the export count, and a form is one of an offensive word when every such base is offensive (SPICES
    # is SPICE's as well as SPIC's). The manifest names the words the reviewed list keeps clean.
    from ladders.compose import proposed_bases

    words = e.words.select(Col.word, Col.offensive)
    cleared = set(e.manifest.get("offensive_cleared", []))
    bases = (
        proposed_bases(words[Col.word])
        .join(words.rename({Col.word: "base"}), on="base")
        .group_by(Col.word)
        .agg(
            pl.col(Col.offensive).all().alias("all_bad"), pl.col("base").filter(Col.offensive).first().alias("bad_base")
        )
    )
    wrong = (
        bases.filter("all_bad")
        .join(words, on=Col.word)
        .filter(~pl.col(Col.offensive) & ~pl.col(Col.word).is_in(sorted(cleared)))
        .sort(Col.word)
    )
    return [f"{w}: a form of {b}" for w, b in wrong.select(Col.word, "bad_base").head(EXAMPLES).rows()]
