"""The offensive flag in two levels, offensive and vulgar_sense.

Unit tests of stages/rules/offensive.py on tiny explained inputs (a few words, WordNet's real files for the
morphology's lemmas), the hand-made reference itself (tests/data/offensive_reference.tsv, an oracle
written from knowledge, checked here against the real word list), and a hypothesis property: whatever the
reviewed list says, the two levels never overlap and a form follows its base. The reference's recall on
raw/ is checked in tests/integration/test_end_to_end.py, on the full build.
"""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings, strategies as st

from conftest import lexicon_of
from support.paths import DATA, ROOT
from pipeline.errors import InputFormatError
from stages.rules.offensive import cuss_ratings, offensive_words, reviewed_list
from stages.rules.morphology import morphology
from stages.sources.wordnet import exception_lists, sense_domains, senses

REFERENCE = DATA / "offensive_reference.tsv"
# Words of the tests below: FUCK and its forms; SPICES, a form of SPIC and of SPICE; COCK, whose main
# sense is innocent; TESTED, a form of TESTE and TEST; POOFTER, in no dictionary source here.
WORDS = [
    "FUCK",
    "FUCKED",
    "FUCKER",
    "FUCKERS",
    "FUCKING",
    "SPIC",
    "SPICE",
    "SPICES",
    "COCK",
    "COCKS",
    "TESTE",
    "TESTED",
    "TEST",
    "POOFTER",
    "POOFTERS",
    "KUMQUAT",
    "CAT",
]


@pytest.fixture(scope="module")
def wordnet() -> dict[str, bytes]:
    return {f"wordnet/{p.name}": p.read_bytes() for p in (ROOT / "raw" / "wordnet").iterdir() if p.is_file()}


@pytest.fixture(scope="module")
def wordnet_senses(wordnet) -> pl.DataFrame:
    return senses(wordnet)


def flags(wordnet, wordnet_senses, listed: str, cuss: str = "", words: list[str] = WORDS) -> dict[str, str]:
    """word -> 'offensive', 'vulgar_sense' or '' for `words`, with a reviewed list and a cuss file."""
    lexicon = lexicon_of(words, words)
    cuss_file = {"cuss.js": f"export const cuss = {{\n{cuss}}}\n".encode()}
    domains, forms = sense_domains(wordnet, wordnet_senses), morphology(lexicon["word"], exception_lists(wordnet))
    listed_file = {"offensive.txt": listed.encode()}
    table, _ = offensive_words(lexicon, domains, None, listed_file, wordnet_senses, cuss_file, forms)
    assert not (table["offensive"] & table["vulgar_sense"]).any()  # the two levels never overlap
    levels = table.select(
        pl.when("offensive")
        .then(pl.lit("offensive"))
        .when("vulgar_sense")
        .then(pl.lit("vulgar_sense"))
        .otherwise(pl.lit(""))
        .alias("level")
    )["level"]
    return dict(zip(lexicon["word"], levels))


def test_forms_of_an_offensive_word_are_offensive_unless_another_base_is_innocent(wordnet, wordnet_senses):
    got = flags(wordnet, wordnet_senses, "")
    # WordNet labels FUCK's main sense (vulgarism); its forms follow (FUCKERS by way of FUCKER).
    assert {w for w in WORDS if got[w] == "offensive"} == {"FUCK", "FUCKED", "FUCKER", "FUCKERS", "FUCKING"}
    # COCK: the main sense (the verb "tilt", tagged most) is innocent, a noun sense obscene; so is SPIC's
    # ("spic and span", an adjective the corpus tagged). COCKS and SPICES follow, but SPICES is SPICE's too.
    assert got["COCK"] == got["COCKS"] == got["SPIC"] == "vulgar_sense"
    assert got["SPICES"] == got["SPICE"] == ""


def test_the_reviewed_list_overrides_the_sources_and_stops_a_form(wordnet, wordnet_senses):
    got = flags(wordnet, wordnet_senses, "FUCK vulgar_sense test\nFUCKED clean test\nSPIC offensive test\n")
    assert got["FUCK"] == "vulgar_sense" and got["FUCKED"] == ""
    # FUCKER's base is no longer offensive, and as a WordNet lemma of its own it takes no vulgar_sense;
    # FUCKING's own main sense is labelled (WordNet's vulgarism domain).
    assert got["FUCKER"] == got["FUCKERS"] == "" and got["FUCKING"] == "offensive"
    assert got["SPIC"] == "offensive" and got["SPICES"] == ""  # SPICE still innocent


def test_a_form_takes_its_base_flag_only_with_the_flagged_meaning(wordnet, wordnet_senses):
    """DYKE's slur sense is a noun (WordNet): DYKES can be it, DYKED and DYKING ("enclose with a dike") cannot.
    A word the reviewed list clears clears its regular forms, whatever cuss says (BLUEGUMS)."""
    words = ["DYKE", "DYKES", "DYKED", "DYKING", "BLUEGUM", "BLUEGUMS", "FUCK", "FUCKING"]
    listed = "DYKE vulgar_sense a bank; also a slur\nBLUEGUM clean a eucalyptus\n"
    got = flags(wordnet, wordnet_senses, listed, cuss="  bluegums: 2,\n  bluegum: 2,\n", words=words)
    assert got["DYKE"] == got["DYKES"] == "vulgar_sense"
    assert got["DYKED"] == got["DYKING"] == ""
    assert got["BLUEGUM"] == got["BLUEGUMS"] == ""
    assert got["FUCK"] == got["FUCKING"] == "offensive"  # an offensive base's forms are offensive (verify E502)
    # Without the list, cuss's rating stands for BLUEGUMS (no dictionary source knows it).
    assert flags(wordnet, wordnet_senses, "", cuss="  bluegums: 2,\n", words=words)["BLUEGUMS"] == "offensive"


def test_cuss_twos_flag_only_words_no_dictionary_knows(wordnet, wordnet_senses):
    got = flags(wordnet, wordnet_senses, "", cuss="  poofter: 2,\n  kumquat: 2,\n  teste: 1,\n  cat: 2,\n")
    assert got["POOFTER"] == got["POOFTERS"] == "offensive"  # in no dictionary source; then its plural
    assert got["KUMQUAT"] == got["CAT"] == ""  # cuss rates them 2, but WordNet knows an innocent sense
    assert got["TESTE"] == got["TESTED"] == ""  # rated 1: unsure, so nothing


def test_reviewed_list_lines_need_a_level_and_a_reason():
    assert reviewed_list("o.txt", b"# comment\nDOT offensive a stand-in\n\nCOG clean why not\n") == {
        "DOT": "offensive",
        "COG": "clean",
    }
    for bad, line in (
        (b"DOT offensive\n", 1),
        (b"# c\nDOT rude a reason\n", 2),
        (b"-DOT # old format\n", 1),
        (b"DOT offensive  #\n", 1),
        (b"D0T offensive why\n", 1),
        (b"DOT clean a\ndot offensive b\n", 2),
    ):
        with pytest.raises(InputFormatError, match=rf"^o.txt, line {line}: "):
            reviewed_list("o.txt", bad)


def test_cuss_file_damage_is_one_line_naming_the_line():
    good = b"/** x */\nexport const cuss = {\n  abc: 2,\n  'two words': 1,\n  brea5t: 2,\n  zed: 0\n}\n"
    assert cuss_ratings({"c.js": good}) == {"ABC": 2, "ZED": 0}
    with pytest.raises(InputFormatError, match=r"^c.js, line 3: expected `word: 0\|1\|2,`"):
        cuss_ratings({"c.js": b"export const cuss = {\n  abc: 2,\n  abc: 7,\n}\n"})
    with pytest.raises(InputFormatError, match="never closed"):
        cuss_ratings({"c.js": b"export const cuss = {\n  abc: 2,\n"})
    with pytest.raises(InputFormatError, match="not cuss's index.js"):
        cuss_ratings({"c.js": b"\x00\xff binary"})


@settings(max_examples=25, deadline=None)
@given(st.dictionaries(st.sampled_from(WORDS), st.sampled_from(["offensive", "vulgar_sense", "clean"]), max_size=8))
def test_levels_never_overlap_and_listed_words_get_their_level(wordnet, wordnet_senses, listed):
    got = flags(wordnet, wordnet_senses, "".join(f"{w} {lvl} drawn by hypothesis\n" for w, lvl in listed.items()))
    for word, level in listed.items():
        assert got[word] == ("" if level == "clean" else level)
    # A form whose only word base is offensive is offensive, unless listed.
    if got["FUCKER"] == "offensive" and "FUCKERS" not in listed:
        assert got["FUCKERS"] == "offensive"


def reference() -> pl.DataFrame:
    return pl.read_csv(REFERENCE, separator="\t", comment_prefix="#")


def test_reference_is_big_enough_explained_and_every_word_is_in_csw():
    ref = reference()
    csw = set((ROOT / "raw" / "lexicons" / "sowpods.txt").read_text().upper().split())
    assert ref.columns == ["word", "level", "reason", "origin"]
    assert ref["word"].is_unique().all() and set(ref["word"]) <= csw
    assert ref["reason"].str.len_chars().min() > 5 and ref["origin"].str.len_chars().min() > 5
    offensive, dual, clean = (ref.filter(pl.col("level") == lvl) for lvl in ("offensive", "vulgar_sense", "clean"))
    assert offensive.height >= 200 and offensive.height + dual.height + clean.height == ref.height
    assert dual.filter(pl.col("origin") == "judged").height >= 40  # 40 dual-use words, not counting forms
    assert offensive.filter(~pl.col("origin").str.starts_with("judged")).height >= 100  # forms, NASPA's words
    # NASPA's decisions, each word judged at one of the three levels: over 500 words, every level used.
    naspa = ref.filter(pl.col("origin").str.contains("naspa: "))
    assert naspa.height >= 500 and set(naspa["level"]) == {"offensive", "vulgar_sense", "clean"}
    # The dual-use words NASPA kept (for their other senses) are vulgar_sense, not offensive.
    levels = dict(ref.select("word", "level").rows())
    assert {levels[w] for w in ("KAFFIR", "SAMBO", "GOOK", "KRAUT", "DYKE", "BITCH")} == {"vulgar_sense"}


def test_wordnet_domain_check_and_reference_agree_where_they_overlap(wordnet):
    """WordNet's own domain lists (read by hand in test_senses_offensive, not by the stage's code) as a
    second opinion on the reference: well-known members sit at the level the reference gives them."""
    from support.brute import domain_members_by_hand

    names = ("data.noun", "data.verb", "data.adj", "data.adv")
    members = {
        w.upper()
        for w in domain_members_by_hand(wordnet["wordnet/data.noun"], *(wordnet[f"wordnet/{n}"] for n in names))
    }
    ref = dict(reference().select("word", "level").rows())
    assert {"NIGGER", "KIKE", "WOP", "MOTHERFUCKER"} <= {w for w in members if ref.get(w) == "offensive"}
    assert {"ASS", "COCK", "QUEER", "SPADE"} <= {w for w in members if ref.get(w) == "vulgar_sense"}


def test_solver_strict_level_is_a_superset_of_clean():
    from ladders.solve.question import CLEAN_LEVELS, SolveError, clean_level

    assert set(CLEAN_LEVELS["on"]) < set(CLEAN_LEVELS["strict"]) and CLEAN_LEVELS["off"] == ()
    assert clean_level(True) == "on" and clean_level(False) == "off" and clean_level("strict") == "strict"
    with pytest.raises(SolveError, match="unknown clean level 'rude'"):
        clean_level("rude")
