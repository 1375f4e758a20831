"""Properties of the list formats' reading (stages/sources/wordlists.py, definition_grammar.py) on random lines
(hypothesis): no line of any shape loses its word, NASPA definitions written from random senses parse back,
and the fast splitters agree with the plain regular expressions they replace."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import two_lists
from stages.sources.definition_grammar import PARTS_OF_SPEECH
from stages.sources.wordlists import read_wordlist
from test_definition_formats import sense


# --- properties ----------------------------------------------------------------------------------

line_word = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12)
any_rest = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), max_size=60)


@settings(max_examples=300, deadline=5000)
@given(
    st.lists(st.tuples(line_word, st.sampled_from([" ", "\t"]), any_rest), min_size=1, max_size=8),
    st.sampled_from(["naspa", "collins"]),
)
def test_no_line_of_any_shape_loses_its_word(rows, fmt):
    text = "\n".join(f"{w}{sep}{rest}" for w, sep, rest in rows)
    result = two_lists({"l.txt": text.encode()}, {"o.txt": b"AA\n"}, fmt, "plain")
    words = set(result["lexicon"].filter(pl.col("list_csw"))["word"])
    assert {w.upper() for w, _, _ in rows} <= words
    assert result["skipped"].height == 0


lower_word = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
upper_word = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=2, max_size=8)
pos = st.sampled_from(PARTS_OF_SPEECH)
inflection = st.one_of(st.none(), st.sampled_from(["-S", "-ED, -ING, -S", "BET or BETTED, BETTING, BETS", "MICE"]))


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
    return sense(text, p, infl, origin=origin, also=also, synonyms=[{"word": w.upper(), "pos": q} for w, q in synonyms])


def write_naspa(senses: list[dict], runons: list[tuple[str, str]], tilde: bool) -> str:
    text = " / ".join(f"{s['text']} [{s['pos']}{' ' + s['inflection'] if s['inflection'] else ''}]" for s in senses)
    items = [f"{w} ~{p}" if tilde else f"{w} [{p}]" for w, p in runons]
    return text + (" : " + ", ".join(items) if items else "")


@settings(max_examples=300, deadline=5000)
@given(st.lists(a_sense(), min_size=1, max_size=4), st.lists(st.tuples(upper_word, pos), max_size=2), st.booleans())
def test_written_naspa_definitions_parse_back(senses, runons, tilde):
    wl = read_wordlist("l.txt", f"HEAD {write_naspa(senses, runons, tilde)}\n".encode(), "naspa")
    assert wl.errors.height == 0 and wl.warnings.height == 0
    head, *rest = wl.entries.rows(named=True)
    assert head["senses"] == senses
    assert [(r["word"], r["senses"][0]["pos"], r["senses"][0]["runon_of"]) for r in rest] == [
        (w, p, "HEAD") for w, p in runons
    ]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab []\t", max_size=12), min_size=1, max_size=20))
def test_word_rest_and_last_bracket_match_the_plain_regular_expressions(texts):
    """The faster expressions of wordlists and the definition grammar (two anchored patterns for word and
    rest, the last of all brackets) against the plain regular expressions they replaced, on texts of blanks
    and brackets."""
    from stages.sources.definition_grammar import last_bracket
    from stages.sources.wordlists import split_lines

    lines = ["WORD" + t for t in texts]
    frame = pl.DataFrame(
        {"line": list(range(1, len(lines) + 1)), "text": lines}, schema={"line": pl.UInt32, "text": pl.String}
    )
    split, _ = split_lines(frame, "naspa")
    plain = frame.with_columns(
        pl.col("text").str.extract_groups(r"^(?P<word>[^ \t]*)[ \t]*(?P<rest>.*)$").alias("p")
    ).unnest("p")
    assert split["word"].to_list() == plain["word"].to_list()
    assert split["rest"].to_list() == [r or None for r in plain["rest"].to_list()]
    got = frame.select(last_bracket(pl.col("text")))["text"].to_list()
    assert got == frame["text"].str.extract(r"^.*\[([^\[\]]*)\]", 1).to_list()


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.lists(
            st.sampled_from(
                [
                    "a thing [n]",
                    " : ",
                    "ABC",
                    ", ",
                    "DEF",
                    " ~v",
                    " [v -ED]",
                    "x",
                    " ",
                    "é",
                    " : ABC ~v",
                    " : DEF [v -ED]",
                    "é : ABC ~v",
                    " : ABC, DEF ~n",
                    " : DEF [é]",
                ]
            ),
            max_size=8,
        ).map("".join),
        min_size=1,
        max_size=12,
    )
)
def test_runon_forms_split_like_the_plain_pattern(segments):
    """split_runons, which searches only the segments holding " : " and those for the run-on forms at
    their end, gives the same groups as SEGMENT on every segment (é: the sense is cut in characters)."""
    from stages.sources.definition_grammar import SEGMENT, split_runons

    frame = pl.DataFrame(
        {
            "line": [i // 3 for i in range(len(segments))],
            "k": [i % 3 for i in range(len(segments))],
            "segment": segments,
        },
        schema={"line": pl.UInt32, "k": pl.UInt32, "segment": pl.String},
    )
    plain = frame.with_columns(pl.col("segment").str.strip_chars().str.extract_groups(SEGMENT).alias("g")).unnest("g")
    assert split_runons(frame).equals(plain)
