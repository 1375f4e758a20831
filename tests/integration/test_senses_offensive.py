"""WordNet senses a player can trust, GCIDE as a source, the offensive flag.

These read the real raw/wordnet and raw/gcide files (about a second each): the
facts checked are facts of those files.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import polars as pl
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import lexicon_of
from support.paths import DATA, ROOT
from support import brute
from stages.sources import gcide
from stages.sources.gcide_dictd import entries
from stages.s02_definitions import build_definitions
from stages.sources.wordnet import glosses, offensive_lemmas, tables

RAW = ROOT / "raw"


def folder(name: str, root: Path = RAW) -> dict[str, bytes]:
    return {f"{name}/{p.name}": p.read_bytes() for p in (root / name).iterdir()}


@pytest.fixture(scope="module")
def wordnet() -> dict[str, bytes]:
    return folder("wordnet")


@pytest.fixture(scope="module")
def wordnet_glosses(wordnet) -> dict[str, str]:
    read = tables(wordnet)
    table = glosses(read["wordnet_senses"], read["wordnet_domains"]).sort("lemma", "rank")
    return {
        lemma: " / ".join(g) for lemma, g in table.group_by("lemma", maintain_order=True).agg(pl.col("gloss")).rows()
    }


# Each of these took a capitalised sense (a proper noun or an abbreviation) before: the key word of
# the right sense, and a word of the wrong one.
RIGHT_SENSES = [
    ("doe", "female", "federal"),
    ("nice", "pleasant", "France"),
    ("heron", "wading bird", "mathematician"),
    ("same", "similar", "nomadic"),
    ("hippo", "herbivorous", "Numidian"),
    ("affirm", "", "racehorse"),
    ("cold", "temperature", "Cold War"),
    ("bob", "", "Robert"),
    ("may", "", "month"),
    ("jack", "", "Jackson"),
    ("china", "porcelain", "Asia"),
    ("turkey", "bird", "Republic"),
]


@pytest.mark.parametrize("lemma, right, wrong", RIGHT_SENSES, ids=[r[0] for r in RIGHT_SENSES])
def test_no_capitalised_sense_is_a_words_meaning(wordnet_glosses, lemma, right, wrong):
    gloss = wordnet_glosses.get(lemma, "")
    assert right in gloss
    assert wrong not in gloss


def test_words_with_only_capitalised_senses_get_no_wordnet_definition(wordnet_glosses):
    # BA: barium and a degree; only written Ba and BA in WordNet.
    assert "ba" not in wordnet_glosses and "affirmed" not in wordnet_glosses


def test_parts_of_speech_come_in_order_of_their_tags(wordnet_glosses):
    assert wordnet_glosses["cold"].startswith("having a low or inadequate temperature")  # adj before n
    # WALK's noun has more tagged senses (10), its verb more tags (cntlist.rev): the verb leads.
    assert wordnet_glosses["walk"].startswith("use one's feet to advance")


def test_offensive_lemmas_are_wordnets_domain_members(wordnet):
    got = set(offensive_lemmas(wordnet)["lemma"])
    names = ("data.noun", "data.verb", "data.adj", "data.adv")
    expected = brute.domain_members_by_hand(wordnet["wordnet/data.noun"], *(wordnet[f"wordnet/{n}"] for n in names))
    assert got == expected
    assert {"kike", "wetback", "motherfucker", "faggot", "wog"} <= got


def test_gcide_entries_are_clean_and_short():
    dictionary = entries(folder("gcide"))
    table = gcide.glosses(dictionary)
    got = dict(table.filter(pl.col("pos") == "n").select("lemma", "gloss").rows())
    assert got["heron"] == "Any wading bird of the genus Ardea and allied genera, of the family Ardeidae."
    assert table["gloss"].str.len_chars().max() <= 300
    assert table.filter(pl.col("gloss").str.contains(r"[{}\\]|\[1913|--[A-Z]")).height == 0
    flagged = set(gcide.offensive_lemmas(dictionary))
    assert "nigger" in flagged
    assert "cock" not in flagged  # the rooster first; a later sense is vulgar


def test_gcide_defines_what_wordnet_lacks_and_marks_base_forms(tmp_path):
    lex = lexicon_of(["COT", "COTS", "COG"], ["COT"])
    tiny = DATA / "tiny"
    result = build_definitions(
        lex,
        folder("wordnet", tiny),
        folder("supplement.txt", tiny) if False else {"s.txt": b"AND joining words [conj]\n"},
        ["wordnet", "gcide"],
        gcide=folder("gcide", tiny),
        offensive={"o.txt": b"COG offensive test\nCOT clean test\n"},
    )
    got = {
        w: (d, s, o)
        for w, d, s, o in result["definitions"].select("word", "definition", "definition_source", "offensive").rows()
    }
    assert got["COT"][1] == "gcide" and got["COT"][0].endswith("[n]")
    assert got["COTS"][1] == "gcide-inflection" and got["COTS"][0].startswith("plural of COT: ")
    assert got["COG"][2] is True and got["COT"][2] is False


def test_gcide_dictzip_damage_is_one_line(tmp_path):
    from pipeline.errors import InputFormatError

    with pytest.raises(InputFormatError, match="GCIDE gcide.dict.dz: not a dictzip file"):
        entries({"g/gcide.index": b"Cot\tA\tB\n", "g/gcide.dict.dz": b"not gzip"})
    with pytest.raises(InputFormatError, match="GCIDE folder has no file gcide.index"):
        entries({"g/gcide.dict.dz": gzip.compress(b"x")})


B64_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def b64(n: int) -> str:
    digits = ""
    while True:
        digits = B64_DIGITS[n % 64] + digits
        n //= 64
        if n == 0:
            return digits


def entries_by_hand(index: str, text: bytes) -> list[tuple[str, str, int]]:
    """The dictd lookup spelled out in Python: each kept line's bytes, decoded with U+FFFD for bad bytes."""
    rows = []
    for number, line in enumerate(index.split("\n"), start=1):
        head, _, rest = line.partition("\t")
        if not head.isascii() or not head.isalpha():
            continue
        offset, _, length = rest.partition("\t")
        start, size = (sum(B64_DIGITS.index(c) * 64**i for i, c in enumerate(reversed(f))) for f in (offset, length))
        rows.append((head.lower(), text[start : start + size].decode("utf-8", errors="replace"), number))
    return rows


@settings(max_examples=200, deadline=None)
@given(
    text=st.one_of(st.just(b""), st.binary(max_size=300).map(lambda b: b + "é".encode() + b"plain text" * 3)),
    spans=st.lists(
        st.tuples(
            st.sampled_from(["Cot", "cot", "Heron", "ox", "A", "two words", "x-ray"]),
            st.integers(0, 400),
            st.integers(0, 60),
            st.integers(0, 12),
            st.booleans(),
        ),
        max_size=12,
    ),
)
def test_gcide_entries_slice_the_dictionary_like_python(text, spans):
    """Entries are Arrow string views into the decompressed file: checked against plain slicing and
    decoding, for short (inline) and long entries, spans past the end, bytes that are not UTF-8, an
    empty file, numbers padded with leading zeros (A) and lines with no numbers at all."""
    index = "\n".join(
        f"{head}\t{'A' * pad}{b64(start)}\t{b64(size)}" if numbered else head
        for head, start, size, pad, numbered in spans
    )
    files = {"g/gcide.index": index.encode(), "g/gcide.dict.dz": gzip.compress(text)}
    assert entries(files).rows() == entries_by_hand(index, text)


ENTRY_HEADS = ["Foo \\Foo\\, n. ", "Foo \\Foo\\, v. t. ", "Foo, ", ""]
ENTRY_PARTS = [
    "[Low, vulgar] ",
    "[Low, vulg[a]r] ",
    "[Obs.] ",
    "[Der['o]gatory] ",
    "offensive ",
    "1. A thing. ",
    "2. Another. ",
    "[OE. foo] ",
    "Hi. ",
    "\n          --Milton [vulgar].\n",
    "x",
]


@settings(max_examples=300, deadline=None)
@example(["Foo \\Foo\\, n. [Low, vulg[a]r] A thing."])
@given(
    st.lists(
        st.tuples(st.sampled_from(ENTRY_HEADS), st.lists(st.sampled_from(ENTRY_PARTS), max_size=6)).map(
            lambda e: e[0] + "".join(e[1])
        ),
        max_size=8,
    )
)
def test_gcide_labels_read_only_where_a_label_word_is_spelled_miss_none(bodies):
    """offensive_lemmas parses only entries whose raw text spells a label word (letters perhaps as
    character codes); parsing every entry must flag the same lemmas."""
    table = pl.DataFrame(
        {"lemma": [f"w{i}" for i in range(len(bodies))], "entry": bodies, "order": list(range(len(bodies)))},
        schema={"lemma": pl.String, "entry": pl.String, "order": pl.UInt32},
    )
    every = gcide.parsed(table).filter(pl.col("offensive")).select(pl.col("lemma").unique().sort()).collect()
    assert gcide.offensive_lemmas(table).to_list() == every["lemma"].to_list()


def test_gcide_index_damage_names_the_line():
    from pipeline.errors import InputFormatError

    text = gzip.compress(b"Cot, a small bed.")
    with pytest.raises(InputFormatError, match=r"gcide.index, line 2: bad offset in 'Bed\\tA\\tB!'"):
        entries({"g/gcide.index": b"Cot\tA\tR\nBed\tA\tB!\n", "g/gcide.dict.dz": text})
    with pytest.raises(InputFormatError, match="line 1: bad offset"):
        entries({"g/gcide.index": b"Cot\tBAAAAAAAAAAA\tB\n", "g/gcide.dict.dz": text})  # 64 ** 11


def test_wordnet_synset_lines_of_another_shape_are_named():
    """Only the word pairs of a data line are split (SYNSET_WORDS): upper-case hex digits and a line
    that ends at its pointer count still read; a line without them is an error naming it."""
    from pipeline.errors import InputFormatError
    from stages.sources.wordnet import senses

    tiny = folder("wordnet", DATA / "tiny")
    lines = tiny["wordnet/data.noun"].decode()
    odd = lines.replace("00000200 18 n 01 cat 1 000 |", "00000200 18 n 01 cat A 000 |")
    odd += "00000400 05 n 01 bark 0 000\n"
    table = senses(
        {
            **tiny,
            "wordnet/data.noun": odd.encode(),
            "wordnet/index.noun": tiny["wordnet/index.noun"].replace(b"00000300", b"00000400"),
        }
    )
    assert set(table.filter(pl.col("pos") == "n")["lemma"]) >= {"cat", "bark"}
    assert table.filter(pl.col("lemma") == "cat").height == 2
    with pytest.raises(InputFormatError, match=r"data.noun: not a synset line: '00000500 05 n 01 oops'"):
        senses({**tiny, "wordnet/data.noun": (lines + "00000500 05 n 01 oops\n").encode()})
