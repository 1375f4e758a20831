"""Issue 3: NASPA and Collins lists with definitions, parsed (stage 1) and resolved (stage 2)."""
from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import DATA
from pipeline.errors import InputFormatError
from stages.definition_lines import PARTS_OF_SPEECH, parse_definition
from stages.s01_lexicon import build_lexicon, read_list
from stages.s02_definitions import build_definitions

WORDNET = {f"wordnet/{p.name}": p.read_bytes() for p in (DATA / "tiny/wordnet").iterdir()}
SUPPLEMENT = {"supplement.txt": (DATA / "tiny/supplement.txt").read_bytes()}


def build(csw: bytes, fmt: str = "auto", lenient: bool = False) -> dict:
    return build_lexicon({"list.txt": csw}, {"owl.txt": b"AA\n"}, fmt, "plain", lenient)


def definitions(csw: bytes) -> dict[str, tuple[str, str]]:
    lex = build(csw)["lexicon"]
    table = build_definitions(lex, WORDNET, SUPPLEMENT, ["csw", "owl", "wordnet"])["definitions"]
    return {w: (d, s) for w, d, s in table.select("word", "definition", "definition_source").rows()}


def sense(text, pos, inflection=None, **fields):
    base = {"text": text, "pos": pos, "inflection": inflection, "origin": None, "also": [], "root": None,
            "link_word": None, "link_pos": None, "synonyms": [], "runon_of": None}
    return base | fields


def test_naspa_parses_into_senses():
    result = build((DATA / "naspa.txt").read_bytes())
    assert "list.txt: 17 words (naspa, detected), 0 duplicate lines, 1 run-on forms added" in result["notes"]
    senses = dict(result["lexicon"].select("word", "csw_senses").rows())
    assert senses["AA"] == [sense("rough, cindery lava", "n", "-S")]
    assert senses["AM"] == [sense("<be=v>", "v", link_word="BE", link_pos="v")]
    assert senses["BE"] == [sense("to have actuality", "v", "AM, ARE, IS, WAS, WERE, BEEN, BEING"),
                            sense("to exist", "v")]
    assert senses["BI"] == [sense("a {bisexual=n}", "n", "-S", synonyms=[{"word": "BISEXUAL", "pos": "n"}])]
    assert senses["AAL"] == [sense("(Hindi) the Indian mulberry tree, also AL", "n", "-S", origin="Hindi",
                                   also=["AL"])]
    assert senses["BET"] == [sense("to wager", "v", "BET or BETTED, BETTING, BETS")]
    assert senses["ADD"] == [sense("to join or unite", "v", "-ED, -ING, -S")]
    assert senses["ADDABLE"] == [sense("", "adj", runon_of="ADD")]  # run-on form, no line of its own
    assert senses["ADDIBLE"] == [sense("<add=v>", "adj", link_word="ADD", link_pos="v")]  # its own line wins


def test_naspa_definitions_resolved_and_markup_free():
    got = definitions((DATA / "naspa.txt").read_bytes())
    assert got["AA"] == ("rough, cindery lava [n -S]", "csw")
    assert got["AM"] == ("BE, to have actuality [v]", "csw-link")
    assert got["AE"] == ("one (being a single entity) [adj]", "csw-link")  # ONE's first *adjective* sense
    assert got["BI"] == ("a bisexual (a person attracted to both sexes) [n -S]", "csw-link")
    assert got["ADDABLE"] == ("from ADD, to join or unite [adj]", "csw-link")
    assert got["ADDIBLE"] == ("ADD, to join or unite [adj]", "csw-link")
    assert got["ILL"] == ("not well [adj ILLER, ILLEST] / evil [n -S]", "csw")
    assert got["QUOTE"] == ("a \u201csaying\u201d repeated [n -S]", "csw")
    assert got["CYCA"] == ("CYCB, CYCA [n]", "csw-link")  # the cycle is cut where it closes
    assert got["LOST"] == ("NOWHERE [v]", "csw")  # a link to a missing word leaves the word alone
    for text, _ in got.values():
        assert not set(text) & set("{}<>")


def test_link_problems_are_counted():
    lex = build((DATA / "naspa.txt").read_bytes())["lexicon"]
    notes = build_definitions(lex, WORDNET, SUPPLEMENT, ["csw"])["notes"]
    assert "csw: 2 link cycles (cut)" in notes
    assert "csw: 1 links to words the list lacks" in notes


def test_collins_roots_and_origins():
    result = build((DATA / "collins.txt").read_bytes())
    assert "list.txt: 5 words (collins, detected), 0 duplicate lines" in result["notes"]
    senses = dict(result["lexicon"].select("word", "csw_senses").rows())
    assert senses["ABACI"] == [sense("ABACUS, (Latin) a counting frame", "n", root="ABACUS", origin="Latin")]
    assert senses["AAHED"] == [sense("AAH, to exclaim in surprise", "v", root="AAH")]
    assert definitions((DATA / "collins.txt").read_bytes())["ABACI"] == ("ABACUS, (Latin) a counting frame [n]", "csw")


@pytest.mark.parametrize("line, message", [
    ("AM <be=v [v]", "unclosed link (a {, }, < or > without its partner)"),
    ("AE one [adj] [adj]", "two brackets in one sense (expected one [part of speech] at its end)"),
    ("AH to exclaim [x -ED]", "unknown part of speech 'x' in the bracket (expected one of n, v, adj, adv"),
    ("AL an East Indian tree", "no [part of speech] bracket at the end of the sense"),
    ("A2 a bad word [n]", "expected a word of letters A-Z, one space and its definition"),
    ("AW {weird} [interj]", "unknown markup '{weird}' (expected {word=pos} or <word=pos>)"),
    ("AM <be=q> [v]", "unknown part of speech 'q' in link <be=q>"),
])
def test_bad_definition_line_names_file_line_reason_and_text(line, message):
    with pytest.raises(InputFormatError) as err:
        build(f"AA lava [n]\n{line}\n".encode(), "naspa")
    assert str(err.value).startswith(f"list.txt, line 2: {message}")
    assert str(err.value).endswith(f", in {line!r}")


def test_lenient_skips_and_lists_every_bad_line():
    result = build((DATA / "naspa_bad.txt").read_bytes(), lenient=True)
    skipped = result["skipped"]
    assert skipped["line"].to_list() == [5, 7, 9, 11, 13, 15, 17]
    assert skipped["file"].unique().to_list() == ["list.txt"]
    assert result["lexicon"].filter(pl.col("csw_senses").is_not_null())["word"].to_list() == [
        "AA", "AB", "AD", "AG", "AI", "AN", "AR", "AT", "AX"]
    assert any(n.startswith("7 lines skipped, listed in 01_skipped.parquet") for n in result["notes"])


def test_strict_build_stops_at_the_first_bad_line():
    with pytest.raises(InputFormatError, match=r"list.txt, line 5: unclosed link .*\(6 more bad lines; --lenient"):
        build((DATA / "naspa_bad.txt").read_bytes())


def test_mixed_formats_cannot_be_detected():
    with pytest.raises(InputFormatError, match=r"list.txt: cannot tell its format, its first lines disagree "
                                               r"\(line 2 looks collins; line 1 looks naspa\)"):
        build(b"AA lava [n]\nAB\tmuscle [n]\n")


def test_forced_format_overrides_detection():
    assert read_list("csw", {"l": b"AA\nAB\n"}, "plain", False)[0]["word"].to_list() == ["AA", "AB"]
    with pytest.raises(InputFormatError, match="expected a word of letters A-Z, a TAB and its definition"):
        read_list("csw", {"l": b"AA lava [n]\n"}, "collins", False)


# --- property: whatever a NASPA writer produces parses back to the same senses ---------------

lower_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
upper_word = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=8)
pos = st.sampled_from(PARTS_OF_SPEECH)
inflection = st.one_of(st.none(), st.sampled_from(["-S", "-ED, -ING, -S", "BET or BETTED, BETTING, BETS"]))


@st.composite
def a_sense(draw) -> dict:
    p, infl = draw(pos), draw(inflection)
    if draw(st.booleans()):
        target, tpos = draw(lower_word), draw(pos)
        return sense(f"<{target}={tpos}>", p, infl, link_word=target.upper(), link_pos=tpos)
    words = draw(st.lists(lower_word, min_size=1, max_size=6))
    synonyms = draw(st.lists(st.tuples(lower_word, pos), max_size=2))
    words += [f"{{{w}={q}}}" for w, q in synonyms]
    origin = draw(st.one_of(st.none(), st.sampled_from(["Hindi", "Latin", "Old English"])))
    also = draw(st.lists(upper_word, max_size=2))
    text = (f"({origin}) " if origin else "") + " ".join(words) + (", also " + ", ".join(also) if also else "")
    return sense(text, p, infl, origin=origin, also=also,
                 synonyms=[{"word": w.upper(), "pos": q} for w, q in synonyms])


def write_naspa(senses: list[dict], runons: list[tuple[str, str]]) -> str:
    text = " / ".join(f"{s['text']} [{s['pos']}{' ' + s['inflection'] if s['inflection'] else ''}]" for s in senses)
    return text + ("".join(f" : {w} [{p}]" for w, p in runons[:1]) + "".join(f", {w} [{p}]" for w, p in runons[1:]))


@settings(max_examples=300, deadline=None)
@given(st.lists(a_sense(), min_size=1, max_size=4), st.lists(st.tuples(upper_word, pos), max_size=2))
def test_written_naspa_definitions_parse_back(senses, runons):
    parsed, parsed_runons = parse_definition("HEAD", write_naspa(senses, runons))
    assert parsed == senses
    assert [(w, s["pos"], s["runon_of"]) for w, s in parsed_runons] == [(w, p, "HEAD") for w, p in runons]
