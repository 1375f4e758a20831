"""Stages 2 and 3 on the tiny fixture: SCOWL levels and flags, WordNet definitions."""

from __future__ import annotations

import pytest

from conftest import NO_WORDFREQ, lexicon_of, two_lists
from support.paths import DATA
from pipeline.config import load_config
from pipeline.errors import InputFormatError
from stages.s02_definitions import build_definitions
from stages.s03_rareness import build_rareness

TABLE = load_config()["rareness_by_level"]  # the project's default table
LABELS = load_config()["rareness_labels"]  # common (everyday) up to 35
SUPPLEMENT = {"supplement.txt": (DATA / "tiny/supplement.txt").read_bytes()}


def folder(name: str) -> dict[str, bytes]:
    return {f"{name}/{p.name}": p.read_bytes() for p in sorted((DATA / "tiny" / name).iterdir())}


def rows_by_word(df, *columns):
    return {row[0]: row[1:] for row in df.select("word", *columns).rows()}


def test_levels_flags_and_rareness():
    lex = lexicon_of(["CAT", "DOG", "COT", "DOT", "COG", "HELO", "CAFE", "ZYZZYVA"], ["CAT"])
    result = build_rareness(lex, folder("scowl"), NO_WORDFREQ, TABLE, LABELS, 0)
    got = rows_by_word(result["rareness"], "scowl_level", "rareness", "usa", "brit")
    assert got == {
        "CAT": (10, 1, True, True),  # english-words.10; its possessive line is dropped
        "DOG": (10, 1, True, True),  # in .10 and .35: the lowest level wins
        "COT": (35, 4, True, True),
        "DOT": (20, 1, True, False),  # american only
        "COG": (40, 20, False, True),  # british only
        "HELO": (80, 2_000_000, False, False),  # variant_1 at 70 counts one level higher; neither flag
        "CAFE": (None, 2_000_001, False, False),  # only café (Latin-1) is listed: no match
        "ZYZZYVA": (None, 2_000_001, False, False),
    }
    assert "1 file ignored (not <category>-words.<level>): scowl/README" in result["notes"]


def test_rareness_follows_the_configured_table():
    table = dict(TABLE, **{"10": 7, "absent": 99})
    lex = lexicon_of(["CAT", "ZYZZYVA"], ["CAT"])
    got = rows_by_word(build_rareness(lex, folder("scowl"), NO_WORDFREQ, table, LABELS, 0)["rareness"], "rareness")
    assert got == {"CAT": (7,), "ZYZZYVA": (99,)}


def test_variant_only_words_count_above_their_list_level():
    """SCOWL's variant lists put spellings such as SHOON (variant_2 at 20) and IKON (variant_1 at 20) at
    everyday levels; counted from the everyday level up one level per grade, they are never everyday.
    A word also in a main list keeps the main list's level (COLOR: american 10 beats variant_1 10)."""
    scowl = {
        "s/english-words.10": b"cat\n",
        "s/american-words.10": b"color\n",
        "s/british_variant_1-words.10": b"color\n",
        "s/variant_2-words.20": b"shoon\n",
        "s/variant_1-words.20": b"ikon\n",
        "s/australian_variant_1-words.50": b"fooe\n",
        "s/variant_3-words.10": b"tyme\n",
        "s/variant_3-words.80": b"zeds\n",
        "s/english-words.60": b"zeds\n",
    }
    lex = lexicon_of(["CAT", "COLOR", "SHOON", "IKON", "FOOE", "TYME", "ZEDS"], ["CAT"])
    got = rows_by_word(build_rareness(lex, scowl, NO_WORDFREQ, TABLE, LABELS, 0)["rareness"], "scowl_level", "rareness")
    assert got == {
        "CAT": (10, 1),
        "COLOR": (10, 1),
        "SHOON": (50, 200),  # 35 + two levels
        "IKON": (40, 20),  # 35 + one level
        "FOOE": (55, 2_000),  # a regional variant_1 at 50: one level up
        "TYME": (55, 2_000),  # variant_3: three levels above 35
        "ZEDS": (60, 20_000),  # its main-list entry (60) is lower than its variant one (95)
    }
    # The everyday level is the config's: with common = 20, variant_1 at 20 counts 35.
    lowered = build_rareness(lex, scowl, NO_WORDFREQ, TABLE, dict(LABELS, common=20), 0)["rareness"]
    assert rows_by_word(lowered, "scowl_level")["IKON"] == (35,)


def test_wordnet_definitions_exact_and_by_base_form():
    lex = lexicon_of(
        [
            "CAT",
            "CATS",
            "COLD",
            "BARK",
            "BARKED",
            "BARKS",
            "MOUSE",
            "MICE",
            "HELLO",
            "HELLOS",
            "ZYZZYVA",
            "ICECREAM",
            "COLDS",
        ],
        ["CAT"],
    )
    result = build_definitions(lex, folder("wordnet"), SUPPLEMENT, ["csw", "owl", "wordnet"])
    got = rows_by_word(result["definitions"], "definition", "definition_source")
    assert {w: got[w] for w in ("CAT", "CATS", "COLD", "BARKED", "BARKS", "MICE", "HELLOS", "ZYZZYVA", "ICECREAM")} == {
        "CAT": ("feline mammal usually having thick soft fur [n]", "wordnet"),  # first sense, example cut
        "CATS": ("plural of CAT: feline mammal usually having thick soft fur [n]", "wordnet-inflection"),
        "COLD": ("a mild viral infection [n] / having a low temperature [adj]", "wordnet"),
        "BARKED": ("past tense of BARK: speak in an unfriendly tone [v]", "wordnet-inflection"),
        "BARKS": ("plural of BARK: a noise made by a dog [n]", "wordnet-inflection"),  # nouns before verbs
        "MICE": ("plural of MOUSE: any of numerous small rodents [n]", "wordnet-inflection"),  # noun.exc
        "HELLOS": ("plural of HELLO: an expression of greeting [n]", "wordnet-inflection"),
        "ZYZZYVA": (None, None),
        "ICECREAM": (None, None),  # WordNet's ice_cream is a collocation, not this word
    }


def test_an_inflection_needs_its_base_in_the_lexicon():
    """CATS is `plural of CAT` only where CAT is a word of the lexicon: a base the lists lack is no base."""
    lex = lexicon_of(["CATS", "ZYZZYVA"], ["CATS"])
    got = rows_by_word(build_definitions(lex, folder("wordnet"), SUPPLEMENT, ["wordnet"])["definitions"], "definition")
    assert got["CATS"] == (None,)


def test_list_text_comes_before_wordnet_in_configured_order():
    lex = two_lists({"csw": b"CAT CSW says cat [n]\nDOG canine [n]\n"}, {"owl": b"CAT\n"}, "auto", "auto")["lexicon"]
    both = build_definitions(lex, folder("wordnet"), SUPPLEMENT, ["csw", "wordnet"])["definitions"]
    assert rows_by_word(both, "definition", "definition_source")["CAT"] == ("CSW says cat [n]", "csw")
    wordnet_first = build_definitions(lex, folder("wordnet"), SUPPLEMENT, ["wordnet", "csw"])["definitions"]
    assert rows_by_word(wordnet_first, "definition_source")["CAT"] == ("wordnet",)


def test_missing_wordnet_file_is_named():
    files = {k: v for k, v in folder("wordnet").items() if not k.endswith("data.verb")}
    with pytest.raises(InputFormatError, match="WordNet folder has no file data.verb"):
        build_definitions(lexicon_of(["CAT"], ["CAT"]), files, SUPPLEMENT, ["wordnet"])


def test_supplement_defines_function_words_before_wordnet():
    lex = lexicon_of(["AM", "AND", "BE", "CAT", "COLD"], ["CAT"])
    got = rows_by_word(
        build_definitions(lex, folder("wordnet"), SUPPLEMENT, ["supplement", "wordnet"])["definitions"],
        "definition",
        "definition_source",
    )
    assert got == {
        "AM": ("BE, to exist [v]", "supplement-link"),
        "AND": ("joining words [conj]", "supplement"),
        "BE": ("to exist [v]", "supplement"),
        "CAT": ("a definition from the supplement [n]", "supplement"),  # first in the configured order
        "COLD": ("a mild viral infection [n] / having a low temperature [adj]", "wordnet"),
    }


def test_bad_supplement_line_is_named():
    bad = {"supplement.txt": b"AND joining words [conj]\nTHE the [zz]\n"}
    with pytest.raises(InputFormatError, match=r"supplement.txt, line 2: unknown part of speech 'zz'"):
        build_definitions(lexicon_of(["AND"], ["AND"]), folder("wordnet"), bad, ["supplement"])
