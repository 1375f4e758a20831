"""Lists with definitions as the real files write them (issues 3 and 10): parsed by stage 1, rendered by stage 2.

A word is never lost because of its definition: definition-level trouble keeps
the word with the cleanest text and lists a warning; only word-level trouble
is an error.
"""

from __future__ import annotations

import polars as pl
import pytest

from conftest import two_lists
from support.paths import DATA
from pipeline.errors import InputFormatError
from stages.s01_lexicon import read_list
from stages.s02_definitions import build_definitions

WORDNET = {f"wordnet/{p.name}": p.read_bytes() for p in (DATA / "tiny/wordnet").iterdir()}
SUPPLEMENT = {"supplement.txt": (DATA / "tiny/supplement.txt").read_bytes()}


def build(csw: bytes, fmt: str = "auto", lenient: bool = False) -> dict:
    return two_lists({"list.txt": csw}, {"owl.txt": b"AA\n"}, fmt, "plain", lenient)


def definitions(csw: bytes, fmt: str = "auto") -> dict[str, tuple[str, str]]:
    lex = build(csw, fmt)["lexicon"]
    table = build_definitions(lex, WORDNET, SUPPLEMENT, ["csw"])["definitions"]
    return {w: (d, s) for w, d, s in table.select("word", "definition", "definition_source").rows()}


def sense(text, pos, inflection=None, **fields):
    base = {
        "text": text,
        "pos": pos,
        "inflection": inflection,
        "origin": None,
        "also": [],
        "root": None,
        "link_word": None,
        "link_pos": None,
        "synonyms": [],
        "runon_of": None,
    }
    return base | fields


def test_naspa_parses_into_senses():
    result = build((DATA / "naspa.txt").read_bytes())
    assert "list.txt: 17 words (naspa, detected), 0 duplicate lines, 16 defined, 1 run-on form added" in result["notes"]
    senses = dict(result["lexicon"].select("word", "csw_senses").rows())
    assert senses["AA"] == [sense("rough, cindery lava", "n", "-S")]
    assert senses["AM"] == [sense("<be=v>", "v", link_word="BE", link_pos="v")]
    assert senses["AE"] == [
        sense("{one=adj}", "adj", link_word="ONE", link_pos="adj", synonyms=[{"word": "ONE", "pos": "adj"}])
    ]
    assert senses["BE"] == [
        sense("to have actuality", "v", "AM, ARE, IS, WAS, WERE, BEEN, BEING"),
        sense("to exist", "v"),
    ]
    assert senses["BI"] == [sense("a {bisexual=n}", "n", "-S", synonyms=[{"word": "BISEXUAL", "pos": "n"}])]
    assert senses["AAL"] == [sense("(Hindi) the Indian mulberry tree, also AL", "n", "-S", origin="Hindi", also=["AL"])]
    assert senses["BET"] == [sense("to wager", "v", "BET or BETTED, BETTING, BETS")]
    assert senses["ADD"] == [sense("to join or unite", "v", "-ED, -ING, -S")]
    assert senses["ADDABLE"] == [sense("", "adj", runon_of="ADD")]  # run-on form, no line of its own
    assert senses["ADDIBLE"] == [sense("<add=v>", "adj", link_word="ADD", link_pos="v")]  # its own line wins


def test_naspa_definitions_resolved_linearly_and_markup_free():
    got = definitions((DATA / "naspa.txt").read_bytes())
    assert got["AA"] == ("rough, cindery lava [n -S]", "csw")
    assert got["AM"] == ("BE, to have actuality [v]", "csw-link")
    assert got["AE"] == ("ONE, being a single entity [adj]", "csw-link")  # ONE's first *adjective* sense
    assert got["BI"] == ("a bisexual [n -S]", "csw")  # inline: just the word, no nested definition
    assert got["ADDABLE"] == ("from ADD, to join or unite [adj]", "csw-link")
    assert got["ADDIBLE"] == ("ADD, to join or unite [adj]", "csw-link")
    assert got["ILL"] == ("not well [adj ILLER, ILLEST] / evil [n -S]", "csw")
    assert got["QUOTE"] == ("a \u201csaying\u201d repeated [n -S]", "csw")
    assert got["CYCA"] == ("CYCB [n]", "csw")  # the cycle never reaches a text: just the word named
    assert got["LOST"] == ("NOWHERE [v]", "csw")  # a link to a missing word leaves the word alone
    for text, _ in got.values():
        assert not set(text) & set("{}<>")


def test_link_problems_are_counted():
    lex = build((DATA / "naspa.txt").read_bytes())["lexicon"]
    notes = build_definitions(lex, WORDNET, SUPPLEMENT, ["csw"])["notes"]
    assert "csw: 2 link chains that never reach a text (cycles, cut)" in notes
    assert "csw: 1 links to words the list lacks" in notes


def test_chain_of_pure_links_reaches_the_first_text():
    got = definitions(b"AX <bx=n> [n]\nBX {cx=n} [n]\nCX <dx=v> [n]\nDX to go [v] / a going [n]\n")
    assert got["AX"] == ("BX, to go [n]", "csw-link")  # BX -> CX -> DX's first *verb* sense
    assert got["CX"] == ("DX, to go [n]", "csw-link")


def test_collins_roots_and_origins():
    result = build((DATA / "collins.txt").read_bytes())
    assert "list.txt: 5 words (collins, detected), 0 duplicate lines, 5 defined" in result["notes"]
    senses = dict(result["lexicon"].select("word", "csw_senses").rows())
    assert senses["ABACI"] == [sense("ABACUS, (Latin) a counting frame", "n", root="ABACUS", origin="Latin")]
    assert senses["AAHED"] == [sense("AAH, to exclaim in surprise", "v", root="AAH")]
    assert definitions((DATA / "collins.txt").read_bytes())["ABACI"] == ("ABACUS, (Latin) a counting frame [n]", "csw")


# --- the real files' quirks, one explained line each -------------------------------------------
# (line, format, the word's definition after stage 2, the warning's reason or None)
QUIRKS = [
    # OWL.txt: run-on forms after " : " with a tilde part of speech
    ("ADD to combine [v -ED, -ING, -S] : ADDABLE ~adj", "naspa", "to combine [v -ED, -ING, -S]", None),
    # OWL.txt: multiword part of speech, mapped to `article`
    ("AN used before a vowel sound [indefinite_article]", "naspa", "used before a vowel sound [article]", None),
    # OWL.txt / OSPD5.txt: full inflected forms in the bracket
    (
        "MOUSE a small rodent [n MICE] / to catch mice [v MOUSED, MOUSING, MOUSES]",
        "naspa",
        "a small rodent [n MICE] / to catch mice [v MOUSED, MOUSING, MOUSES]",
        None,
    ),
    # OWL.txt: a run-on form between two senses
    ("WRY contorted [adj] : WRYLY ~adv / to contort [v -ED]", "naspa", "contorted [adj] / to contort [v -ED]", None),
    # CSW21: no space between part of speech and inflection
    ("AAL\ta shrub [n-S]", "collins", "a shrub [n -S]", "no space after the part of speech in [n-S]"),
    # CSW21: an unknown part of speech, kept as written
    ("ABB\ta yarn [vj]", "collins", "a yarn [vj]", "unknown part of speech 'vj' (kept as written)"),
    ("AH\tan exclamation [int]", "collins", "an exclamation [int]", "unknown part of speech 'int' (kept as written)"),
    # CSW21: two senses, only the second with its bracket
    (
        "FATWA\tan Islamic religious decree / to issue a fatwa [v -ED, -ING, -S]",
        "collins",
        "an Islamic religious decree / to issue a fatwa [v -ED, -ING, -S]",
        "a sense without its [part of speech] bracket (kept without one)",
    ),
    # CSW21: a bracket left open
    (
        "VEGGY\tvegetarian [adj VEGGIER, VEGGIEST [adj]",
        "collins",
        "vegetarian [adj]",
        "a bracket doubled or left open (the last one kept)",
    ),
    # CSW21: << >> as literal text
    (
        "DOUBLE\ttwo of <<something>> [n -S]",
        "collins",
        "two of something [n -S]",
        "unknown markup or an unclosed link (markup removed)",
    ),
    # CSW21: a sense ending in a full stop after its bracket
    ("ZOBO\ta kind of ox [n -S].", "collins", "a kind of ox [n -S]", "text after the bracket"),
    # CSW21: a bracket holding only forms
    ("ANTA\ta pilaster [ANTAS]", "collins", "a pilaster [ANTAS]", "no part of speech in the bracket (ANTAS)"),
    # an unclosed link: the word and the text stay
    ("AM <be=v [v]", "naspa", "be=v [v]", "unknown markup or an unclosed link (markup removed)"),
    # a sense with no bracket at all
    (
        "AL an East Indian tree",
        "naspa",
        "an East Indian tree",
        "a sense without its [part of speech] bracket (kept without one)",
    ),
    # OSPD5.txt: a link to two words at once
    (
        "PHYLA <phylon and phylum=n> [n]",
        "naspa",
        "phylon and phylum [n]",
        "unknown markup or an unclosed link (markup removed)",
    ),
]


@pytest.mark.parametrize("line, fmt, definition, reason", QUIRKS, ids=[q[0].split()[0] for q in QUIRKS])
def test_real_quirk_keeps_the_word_strictly(line, fmt, definition, reason):
    word = line.split()[0]
    result = build(f"{line}\n".encode(), fmt)
    assert word in result["lexicon"]["word"].to_list()
    assert result["warnings"]["reason"].to_list() == ([reason] if reason else [])
    assert definitions(f"{line}\n".encode(), fmt)[word][0] == definition


def test_runon_forms_tilde_bracket_and_several():
    lex = build(
        b"AWN a bristle [n -S] : AWNED, AWNLESS, AWNY ~adj\n"
        b"BOLD daring [adj] : BOLDLY ~adv, BOLDISH ~adj\n"
        b"DIM obscure [adj] : DIMMISH [adj] / to make dim [v]\n"
    )["lexicon"]
    runons = {w: s[0]["pos"] for w, s in lex.select("word", "csw_senses").rows() if s and s[0]["runon_of"]}
    assert runons == {
        "AWNED": "adj",
        "AWNLESS": "adj",
        "AWNY": "adj",
        "BOLDLY": "adv",
        "BOLDISH": "adj",
        "DIMMISH": "adj",
    }


def test_bare_words_mixed_with_defined_lines_are_naspa_even_after_50_bare_lines():
    bare = "".join(f"ABANDONER{chr(65 + i % 26)}{chr(65 + i // 26)}\n" for i in range(60))
    result = build((bare + "AA rough lava [n -S]\nZYZZYVA a weevil [n -S]\n").encode())
    assert result["notes"][0].startswith("list.txt: 62 words (naspa, detected), 0 duplicate lines, 2 defined")
    assert result["lexicon"].filter(pl.col("csw_senses").is_null()).height == 60


def test_two_formats_in_one_file_name_their_lines():
    with pytest.raises(
        InputFormatError,
        match=r"list.txt: cannot tell its format, it mixes two formats "
        r"\(line 2 looks naspa; line 3 looks collins\)",
    ):
        build(b"AA\nAB lava [n]\nAD\tmuscle [n]\n")


def test_scores_lists_give_their_words():
    # CSW21-Playability.txt: whole and decimal scores
    result = build(b"542388 QI\n346375 re\n98483.7 AM\n289218 IN\n")
    assert result["lexicon"]["word"].to_list() == ["AA", "AM", "IN", "QI", "RE"]
    assert "list.txt: 4 words (scores, detected), 0 duplicate lines" in result["notes"]
    with pytest.raises(InputFormatError, match=r"list.txt, line 2: expected a score, a space and a word"):
        build(b"542388 QI\nQI 542388\n", "scores")


@pytest.mark.parametrize(
    "line, message",
    [
        ("A2 a bad word [n]", "'A2' is not a word of letters A-Z ('2', column 2)"),
        ("C\u00c9LLO a cello [n]", "'C\u00c9LLO' is not a word of letters A-Z ('\u00c9', column 2)"),
        ("A" * 65 + " a long word [n]", f"'{'A' * 60}...' has 65 letters (at most 64)"),
    ],
)
def test_word_level_trouble_is_an_error_naming_line_and_character(line, message):
    with pytest.raises(InputFormatError) as err:
        build(f"AA lava [n]\n{line}\n".encode(), "naspa")
    assert str(err.value) == f"list.txt, line 2: {message} (--lenient skips such lines and lists them)"


def test_lenient_skips_word_level_trouble_and_keeps_definition_trouble():
    result = build((DATA / "naspa_bad.txt").read_bytes(), lenient=True)
    assert result["skipped"]["line"].to_list() == [15]  # A2: the only word-level problem
    assert result["warnings"]["line"].to_list() == [7, 9, 11, 13, 17, 19]
    defined = result["lexicon"].filter(pl.col("csw_senses").is_not_null())["word"].to_list()
    assert defined == ["AA", "AB", "AD", "AE", "AG", "AH", "AI", "AL", "AM", "AN", "AR", "AS", "AT", "AW", "AX"]


def test_strict_build_stops_only_at_word_level_trouble():
    with pytest.raises(InputFormatError, match=r"list.txt, line 15: 'A2' is not a word of letters A-Z"):
        build((DATA / "naspa_bad.txt").read_bytes())


def test_forced_format_overrides_detection():
    assert read_list("csw", {"l": b"AA\nAB\n"}, "plain", False)[0]["word"].to_list() == ["AA", "AB"]
    with pytest.raises(InputFormatError, match=r"'AA lava \[n\]' is not a word of letters A-Z \(' ', column 3\)"):
        read_list("csw", {"l": b"AA lava [n]\n"}, "plain", False)


def test_links_naming_six_others_render_in_linear_size():
    """Each of 30 words' definitions is a pure link plus inline links to the next six: the seed wrote a
    73,086-character definition for this; rendering is now bounded by two senses' text."""
    words = [f"W{chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(30)]
    lines = []
    for i, w in enumerate(words):
        others = " ".join("{" + words[(i + j) % 30].lower() + "=n}" for j in range(1, 7))
        lines.append(f"{w} <{words[(i + 1) % 30].lower()}=n> [n] / like {others} [n]")
    got = definitions("\n".join(lines).encode())
    assert max(len(d) for d, _ in got.values() if d) < 300
    assert got["WAA"][0] == "WAB [n] / like wab wac wad wae waf wag [n]"  # the pure links form a cycle: cut


# --- the real NASPA files (slices committed in tests/data/real) ---------------------------------


@pytest.mark.parametrize("name", ["owl_slice.txt", "ospd5_slice.txt"])
def test_real_naspa_slice_builds_strictly_with_every_word(name):
    data = (DATA / "real" / name).read_bytes()
    lines = [line for line in data.decode().split("\n") if line.strip()]
    result = two_lists({name: data}, {"owl.txt": b"AA\n"}, "auto", "plain")
    lex = result["lexicon"]
    assert set(line.split(" ")[0] for line in lines) <= set(lex["word"])
    own = {line.split(" ")[0] for line in lines if " " in line}
    table = build_definitions(lex, WORDNET, SUPPLEMENT, ["csw"])["definitions"]
    defined = table.filter(pl.col("word").is_in(own) & pl.col("definition_source").is_not_null())
    assert defined.height >= 0.999 * len(own)
    assert defined.filter(pl.col("definition").str.contains(r"[{}<>=]")).height == 0
    assert defined["definition"].str.len_chars().max() < 400


def test_real_owl_facts():
    data = (DATA / "real" / "owl_slice.txt").read_bytes()
    lex = two_lists({"owl.txt": data}, {"o": b"AA\n"}, "auto", "plain")["lexicon"]
    got = dict(build_definitions(lex, WORDNET, SUPPLEMENT, ["csw"])["definitions"].select("word", "definition").rows())
    assert got["AN"] == "used before words beginning with a vowel sound [article]"
    assert got["AM"].startswith("BE, to have actuality [v]")
    assert got["WRYLY"] == "from WRY, contorted [adv]"  # a run-on form (`: WRYLY ~adv`)
    # A bare-word line: kept with no senses of its own; stage 2 derives it from the list's ABRUPT, and its
    # plural from that. No -er rule was judged right often enough: ABANDONER stays undefined.
    assert lex.filter(pl.col("word") == "ABRUPTNESS")["csw_senses"].to_list() == [None]
    assert got["ABRUPTNESS"] == "the quality of being ABRUPT: rudely brief [n]"
    assert got["ABRUPTNESSES"] == "plural of ABRUPTNESS: the quality of being ABRUPT: rudely brief [n]"
    assert got["ABANDONER"] is None
