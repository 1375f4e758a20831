"""Stages 4 and 5: links and groups, by hand on the tiny lists and against brute force."""

from __future__ import annotations

import gzip

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from support import brute
from conftest import groups_of, lexicon_of
from support.paths import DATA
from stages.s04_links import build_links
from stages.s05_groups import components

TINY_CSW = [
    "CAT",
    "COT",
    "DOT",
    "DOG",
    "COG",
    "CATS",
    "CORD",
    "CORED",
    "CORDED",
    "HELLO",
    "HELO",
    "ZYZZYVA",
    "MICE",
    "MOUSE",
    "BARK",
    "BARKED",
    "COLD",
]
TINY_OWL = [w for w in TINY_CSW if w != "COT"]


def named_links(lexicon: pl.DataFrame, links: pl.DataFrame) -> set[tuple[str, str, str]]:
    words = lexicon["word"].to_list()
    return {(words[s], words[d], k) for s, d, k in links.rows()}


def named_groups(lexicon: pl.DataFrame, groups: pl.DataFrame, column: str) -> dict[str, int]:
    return {w: g for w, g in zip(lexicon["word"], groups[column]) if g is not None}


def test_tiny_links_by_hand():
    lex = lexicon_of(TINY_CSW, TINY_OWL)
    links = build_links(lex)["links"]
    assert named_links(lex, links) == {
        ("CAT", "COT", "sub"),
        ("COG", "COT", "sub"),
        ("COG", "DOG", "sub"),
        ("COT", "DOT", "sub"),
        ("DOG", "DOT", "sub"),
        ("COLD", "CORD", "sub"),
        ("CAT", "CATS", "indel"),
        ("CORD", "CORED", "indel"),
        ("CORDED", "CORED", "indel"),
        ("HELLO", "HELO", "indel"),  # either L deleted: one link
    }
    assert links.select("src", "dst").rows() == sorted(links.select("src", "dst").rows())
    assert (links["src"] < links["dst"]).all()


def test_tiny_groups_by_hand():
    lex = lexicon_of(TINY_CSW, TINY_OWL)
    groups = groups_of(lex, build_links(lex)["links"])
    # Alphabetical ids: BARK 0, BARKED 1, CAT 2, CATS 3, COG 4, COLD 5, CORD 6, CORDED 7, CORED 8,
    # COT 9, DOG 10, DOT 11, HELLO 12, HELO 13, MICE 14, MOUSE 15, ZYZZYVA 16.
    assert groups["group_csw"].to_list() == [0, 1, 2, 3, 2, 4, 4, 5, 6, 2, 2, 2, 7, 8, 9, 10, 11]
    # Without COT, CAT is cut off from COG-DOG-DOT among OWL words.
    assert groups["group_owl"].to_list() == [0, 1, 2, 3, 4, 5, 5, 6, 7, None, 4, 4, 8, 9, 10, 11, 12]
    # Edit mode joins CAT-CATS, COLD-CORD-CORED-CORDED, HELLO-HELO.
    assert groups["group_csw_edit"].to_list() == [0, 1, 2, 2, 2, 3, 3, 3, 3, 2, 2, 2, 4, 4, 5, 6, 7]
    assert groups["group_owl_edit"].to_list() == [0, 1, 2, 2, 3, 4, 4, 4, 4, None, 3, 3, 5, 5, 6, 7, 8]


def test_knuth_five_letter_words_match_the_published_graph():
    """Knuth's 5,757 words: 14,135 links and 853 components (The Stanford GraphBase; NetworkX example)."""
    lines = gzip.decompress((DATA / "words_dat.txt.gz").read_bytes()).decode().splitlines()
    words = [line[:5] for line in lines if not line.startswith("*")]
    lex = lexicon_of(words, words)
    links = build_links(lex)["links"]
    assert links.height == 14_135 and set(links["kind"]) == {"sub"}
    groups = groups_of(lex, links)
    assert groups["group_csw"].n_unique() == 853


# Small alphabets and lengths so that random lists are dense with links.
word = st.text(alphabet="abc", min_size=1, max_size=4)
# Mostly words in both lists, some in one only (an OWL word missing from CSW is allowed, and counted).
dictionary = st.lists(
    st.tuples(word, st.sampled_from(["both", "both", "csw", "owl"])), min_size=1, max_size=40, unique_by=lambda t: t[0]
)


def split(entries: list[tuple[str, str]]) -> tuple[list[str], list[str]]:
    csw = [w.upper() for w, where in entries if where != "owl"]
    owl = [w.upper() for w, where in entries if where != "csw"]
    return csw or owl[:1], owl or csw[:1]


@settings(max_examples=200, deadline=None)
@given(dictionary)
def test_links_equal_brute_force(entries):
    csw, owl = split(entries)
    lex = lexicon_of(csw, owl)
    assert named_links(lex, build_links(lex)["links"]) == brute.links(sorted(set(csw) | set(owl)))


def near(base: str, edits: list[tuple[int, int]]) -> list[str]:
    """The base word and variants of it: each edit changes (kind 0), deletes (1) or doubles (2) the letter at
    a position, or changes it and the last letter (3: not a link to the base, but shares most of its letters)."""
    words = {base}
    flip = {"A": "B", "B": "A"}
    for kind, at in edits:
        i = at % len(base)
        if kind == 0:
            words.add(base[:i] + flip[base[i]] + base[i + 1 :])
        elif kind == 1:
            words.add(base[:i] + base[i + 1 :])
        elif kind == 2:
            words.add(base[:i] + base[i] + base[i:])
        elif i != len(base) - 1:
            words.add(base[:i] + flip[base[i]] + base[i + 1 : -1] + flip[base[-1]])
    return sorted(words)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="AB", min_size=11, max_size=29), st.lists(st.tuples(st.integers(0, 3), st.integers(0, 40))))
def test_links_of_long_words_equal_brute_force(base, edits):
    """Words of 10 to 30 letters that differ in a letter or two: keys of one to three integer columns (13
    letters each), the changed or deleted letter on either side of a column's edge."""
    words = near(base, edits)
    lex = lexicon_of(words, words)
    assert named_links(lex, build_links(lex)["links"]) == brute.links(words)


@settings(max_examples=200, deadline=None)
@given(dictionary)
def test_groups_equal_breadth_first_search(entries):
    csw, owl = split(entries)
    lex = lexicon_of(csw, owl)
    groups = groups_of(lex, build_links(lex)["links"])
    edges = brute.links(sorted(set(csw) | set(owl)))
    for column, members, kinds in [
        ("group_csw", set(csw), {"sub"}),
        ("group_owl", set(owl), {"sub"}),
        ("group_csw_edit", set(csw), {"sub", "indel"}),
        ("group_owl_edit", set(owl), {"sub", "indel"}),
    ]:
        assert named_groups(lex, groups, column) == brute.groups(csw, edges, members, kinds), column


def numbered(n: int, edges: set[tuple[int, int]]) -> list[int]:
    group = brute.groups([], {(a, b, "link") for a, b in edges}, set(range(n)), {"link"})
    return [group[node] for node in range(n)]


@st.composite
def graphs(draw) -> tuple[int, list[tuple[int, int]]]:
    """Random graphs (self-loops and repeated links included), and paths and stars whose node
    numbers are shuffled (a path carries a label one link a round at worst)."""
    n = draw(st.integers(0, 60))
    if n < 2:
        return n, [(0, 0)] * draw(st.integers(0, n))
    shape = draw(st.sampled_from(["random", "path", "star"]))
    if shape == "random":
        return n, draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n))
    order = draw(st.permutations(range(n)))
    hub = [order[0]] * (n - 1) if shape == "star" else order[:-1]
    return n, list(zip(hub, order[1:]))


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_components_equal_breadth_first_search(graph):
    import numpy as np

    n, edges = graph
    src, dst = (np.array(side, dtype=np.uint32) for side in zip(*edges)) if edges else (np.zeros(0, np.uint32),) * 2
    assert components(n, src, dst).tolist() == numbered(n, set(edges))
