"""The plain-Python oracle the build is judged by: the folklore way to find the links (a dict from each
wildcard pattern C*T, and each deletion, to its words) and the groups (union-find), no library.

bench.py calls `star_words` and `union_find_groups` in its own process (links + groups against stages 4
and 5), and runs this file as a whole process beside each cold build: `python bench/oracle.py FILE...`
reads each word list (one word a line, as raw/'s), finds its links and its groups by substitution and
by any edit, and prints the counts as one JSON line. Nothing is written.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def star_words(words: list[str]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The folklore method: a dict from each wildcard pattern (C*T) and each deletion to its words."""
    patterns: dict[str, list[str]] = {}
    for w in words:
        for i in range(len(w)):
            patterns.setdefault(w[:i] + "*" + w[i + 1 :], []).append(w)
    sub = [(a, b) for group in patterns.values() for i, a in enumerate(group) for b in group[i + 1 :]]
    listed = set(words)
    indel = {(w[:i] + w[i + 1 :], w) for w in words for i in range(len(w)) if w[:i] + w[i + 1 :] in listed}
    return sub, sorted(indel)


def union_find_groups(words: list[str], links: list[tuple[str, str]]) -> int:
    parent = {w: w for w in words}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in links:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    return len({find(w) for w in words})


def main(files: list[str]) -> dict:
    counts = {}
    for file in files:
        words = sorted({w.upper() for w in Path(file).read_text().split()})
        sub, indel = star_words(words)
        counts[Path(file).name] = {
            "words": len(words),
            "sub": len(sub),
            "indel": len(indel),
            "groups_sub": union_find_groups(words, sub),
            "groups_edit": union_find_groups(words, sub + indel),
        }
    return counts


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1:])))
