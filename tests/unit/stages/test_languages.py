"""Issue 45's wiring: a build in one language (config `language`, docs/languages.md) through stages 1-7 and
`ladders solve`: the config's keys, each language's folding on a tiny explained list through stage 1, links
and groups over Polish words against brute force, FreeDict glosses, Zipf levels, the typed-word rule. The builds
through the CLI (a real slice of each list, tests/data/lang/, end to end): tests/integration/test_language_builds.py."""

from __future__ import annotations

import gzip
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support import brute
from conftest import groups_of
from support.paths import DATA, ROOT
from pipeline.config import load_config
from pipeline.errors import InputFormatError
from ladders.solve.question import UnknownWord, normalise
from stages.s01_lexicon import build_lexicon
from stages.s03_rareness import build_rareness
from stages.s04_links import build_links, digits

LANG = DATA / "lang"
WORDFREQ = "package:wordfreq/data/large_{}.msgpack.gz"


def folded(code: str, text: str, drop: bool = False, name: str = "list.txt") -> list[str]:
    """Stage 1's words, in id order, for one plain list in `code`'s alphabet."""
    data = gzip.compress(text.encode()) if name.endswith(".gz") else text.encode()
    entry = {"file": name, "format": "plain", **({"drop_capitalised": True} if drop else {})}
    return build_lexicon({name: data}, {"x": entry}, language=code)["lexicon"]["word"].to_list()


# Each list explained: what folds into what, what merges, and the alphabet's order of the ids.
EXPLAINED = [
    # Spanish keeps Ñ (after N: NINO, NIÑO, ÑU, then O...) and folds Á and Ü; ÁRBOL and árbol are one word.
    (
        "es",
        "zorro\npingüino\nÁrbol\nárbol\nniño\nnino\nñu\n",
        False,
        ["ARBOL", "NINO", "NIÑO", "ÑU", "PINGUINO", "ZORRO"],
    ),
    # Polish keeps its nine letters, each right after its base letter (Ą after A, Ź and Ż after Z).
    ("pl", "żaba\nźle\nzab\nłza\nąb\nab\n", False, ["AB", "ĄB", "ŁZA", "ZAB", "ŹLE", "ŻABA"]),
    # German keeps Ä Ö Ü (after A O U), writes ß as SS, keeps capitalised nouns.
    ("de", "Straße\nÖfen\nOfen\nÄpfel\nApfel\n", False, ["APFEL", "ÄPFEL", "OFEN", "ÖFEN", "STRASSE"]),
    # French ignores accents (élève and élevé are one word) and writes Œ as OE.
    ("fr", "œuvre\nélève\nélevé\nça\n", False, ["CA", "ELEVE", "OEUVRE"]),
    # Dutch: the ligature ĳ is I J; a capitalised line (a name) is left out; é folds to E.
    ("nl", "ĳs\nijs\nAmsterdam\ncafé\n", True, ["CAFE", "IJS"]),
    # English: A-Z either case, as always.
    ("en", "cat\nCAT\nzoo\n", False, ["CAT", "ZOO"]),
]


@pytest.mark.parametrize(("code", "text", "drop", "expected"), EXPLAINED, ids=[e[0] for e in EXPLAINED])
def test_each_language_folds_its_tiny_list_in_stage_one(code, text, drop, expected):
    assert folded(code, text, drop) == expected


def test_a_gz_list_is_read_decompressed_and_length_counts_letters():
    assert folded("pl", "żółw\nźle\n", name="list.txt.gz") == ["ŹLE", "ŻÓŁW"]
    from pipeline.columns import WORDS

    length = next(c for c in WORDS if c.name == "length").derive(pl)
    assert pl.DataFrame({"word": ["ŻÓŁW", "CAT"]}).select(length).to_series().to_list() == [4, 3]


def test_a_letter_outside_the_alphabet_names_file_line_and_character():
    with pytest.raises(InputFormatError) as got:
        folded("es", "gato\ngarçon\n")
    message = str(got.value)
    assert message.startswith("list.txt, line 2: 'garçon' is not a word of the Spanish alphabet")
    assert "U+00E7 LATIN SMALL LETTER C WITH CEDILLA, character 4" in message
    # English keeps its own message, byte for byte.
    with pytest.raises(InputFormatError, match=r"line 1: 'café' is not a word of letters A-Z \('é', column 4\)"):
        folded("en", "café\n")


POLISH = "AĄBCĆŁŃÓŚŹŻ"  # enough letters of Polish's 32, most of them outside Latin-1, for links to be common


def polish_lexicon(words: list[str]) -> pl.DataFrame:
    data = "\n".join(words).encode()
    lexicons = {"csw": {"file": "a.txt", "format": "plain"}, "owl": {"file": "b.txt", "format": "plain"}}
    return build_lexicon({"a.txt": data, "b.txt": data}, lexicons, language="pl")["lexicon"]


def named(lexicon: pl.DataFrame, links: pl.DataFrame) -> set[tuple[str, str, str]]:
    words = lexicon["word"].to_list()
    return {(min(words[s], words[d]), max(words[s], words[d]), k) for s, d, k in links.rows()}


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text(alphabet=POLISH, min_size=1, max_size=5), min_size=1, max_size=40, unique=True))
def test_polish_links_and_groups_equal_brute_force(words):
    lexicon = polish_lexicon(words)
    links = build_links(lexicon, "pl")["links"]
    edges = brute.links(sorted(words))
    assert named(lexicon, links) == edges
    groups = groups_of(lexicon, links)
    for column, kinds in (("group_csw", {"sub"}), ("group_csw_edit", {"sub", "indel"})):
        ours = dict(zip(lexicon["word"], groups[column]))
        theirs = brute.groups(words, edges, set(words), kinds)
        # Same partition: two words share a group in one iff in the other.
        assert {frozenset(w for w in words if ours[w] == ours[v]) for v in words} == {
            frozenset(w for w in words if theirs[w] == theirs[v]) for v in words
        }


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="ĄŻ", min_size=11, max_size=30), st.integers(0, 29), st.integers(0, 29))
def test_polish_links_of_long_words_cross_key_columns(base, change, delete):
    """Words past one int64 key column (12 letters of base 33), a letter changed or deleted anywhere."""
    assert digits(len("AĄBCĆDEĘFGHIJKLŁMNŃOÓPRSŚTUWYZŹŻ") + 1) == 12 and digits(27) == 13
    i, j = change % len(base), delete % len(base)
    words = sorted({base, base[:i] + ("Ą" if base[i] == "Ż" else "Ż") + base[i + 1 :], base[:j] + base[j + 1 :]})
    lexicon = polish_lexicon(words)
    assert named(lexicon, build_links(lexicon, "pl")["links"]) == brute.links(words)


def test_freedict_glosses_are_translations_and_english_is_unchanged():
    from stages.s02_definitions import build_definitions

    lexicon = pl.DataFrame(
        {"id": [0, 1, 2], "word": ["NIÑO", "PATO", "ZZZ"]}, schema={"id": pl.UInt32, "word": pl.String}
    )
    files = {p.name: p.read_bytes() for p in (LANG / "freedict").glob("freedict-spa-eng.*")}
    table = build_definitions(lexicon, {}, {}, ["freedict"], freedict=files, language="es")["definitions"]
    assert table["definition"].to_list() == ["(English) bairn, child, infant", "(English) duck", None]
    assert table["definition_source"].to_list() == ["freedict-spa-eng", "freedict-spa-eng", None]
    assert not table["offensive"].any() and not table["vulgar_sense"].any()


def test_levels_from_wordfreq_look_words_up_as_the_list_spells_them():
    from pipeline.config_checks import resolve

    path = resolve(Path.cwd(), WORDFREQ.format("es"))
    lexicon = build_lexicon({"l.txt": "árbol\ncasa\nxqzvw\n".encode()}, {"es": {"file": "l.txt"}}, language="es")
    lexicon = lexicon["lexicon"]
    defaults = load_config(ROOT / "languages" / "es.toml")
    got = build_rareness(
        lexicon,
        {},
        {path.name: path.read_bytes()},
        defaults["rareness_by_level"],
        defaults["rareness_labels"],
        2.25,
        rareness_source="wordfreq",
        language="es",
        lexicon_files={"l.txt": "árbol\ncasa\nxqzvw\n".encode()},
        lexicons={"es": {"file": "l.txt"}},
    )["rareness"]
    levels = dict(zip(got["word"], got["scowl_level"]))
    # ÁRBOL is found as `árbol` (Zipf 4.58: level 10); `arbol`, the folded spelling, is rarer (3.50: level 35).
    assert levels["ARBOL"] == 10 and levels["CASA"] == 10 and levels["XQZVW"] is None
    assert got["rareness"].to_list() == [1, 1, defaults["rareness_by_level"]["absent"]]


def test_the_typed_word_rule_reads_the_alphabet():
    from pipeline.alphabet import alphabet

    spanish = alphabet("es")
    assert normalise(" nin\u0303o\t", spanish) == "NIÑO"  # NFD typed, NFC read
    assert normalise("Árbol", spanish) == "ARBOL"
    with pytest.raises(UnknownWord) as got:
        normalise("garçon", spanish)
    assert got.value.exit_code == 10 and "U+00E7" in str(got.value)
    with pytest.raises(UnknownWord, match="not a word of letters A-Z"):
        normalise("niño")  # English, as before


@pytest.mark.parametrize("code", ["es", "nl", "pl", "fr", "de"])
def test_the_language_configs_are_accepted_as_written(code):
    config = ROOT / "languages" / f"{code}.toml"
    if not (
        ROOT
        / "raw"
        / code
        / "freedict-{}-eng.index".format({"es": "spa", "nl": "nld", "pl": "pol", "fr": "fra", "de": "deu"}[code])
    ).exists():
        pytest.skip(f"raw/{code}/ not fetched (make raw-lang LANG={code})")
    if not (ROOT / "raw" / code / ("words.txt.gz" if code in ("es", "nl") else "words.txt")).exists():
        pytest.skip(f"raw/{code}/ not fetched (make raw-lang LANG={code})")
    values = load_config(config)
    assert values["language"] == code and values["definition_sources"] == ["freedict"]
    assert values["wordfreq"].endswith(f"large_{code}.msgpack.gz") and "scowl" not in values.values


def test_a_damaged_or_oversized_gz_list_is_one_error():
    from stages.sources.wordlists import decompressed

    with pytest.raises(InputFormatError, match="list.txt.gz: not a gzip file"):
        decompressed("list.txt.gz", b"not gzip")
    with pytest.raises(InputFormatError, match="over 100 bytes decompressed"):
        decompressed("list.txt.gz", gzip.compress(b"a\n" * 1000), limit=100)
    assert decompressed("list.txt.gz", gzip.compress(b"a\n" * 50), limit=100) == b"a\n" * 50


def test_the_stages_that_fold_or_key_words_go_stale_when_the_alphabet_table_changes():
    from pipeline.alphabet import TABLE
    from ladders.compose import stages

    folding = {"lexicon", "definitions", "rareness", "links", "export"}
    assert {s.name for s in stages() if TABLE in s.code_files()} >= folding
