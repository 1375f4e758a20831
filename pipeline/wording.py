"""How a count or a size is said in a line for people: "1 group", "2 groups", "0 words", "2.3 MB".

The one pluralising rule of the stages' notes and the commands' lines (a noun's plural given where it is not
the noun plus s), and the one name of each kind of warning a build lists. Reads and writes nothing; it shapes
messages only, no byte of a stage's output (so no stage declares it).
"""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and the noun, singular for exactly one: counted(1, "group") is "1 group", counted(1200, "line")
    "1,200 lines"."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def warnings_text(total: int, strays: int) -> str:
    """A build's warnings (01_warnings.parquet: `total`, of which `strays` are remove-list words that no list
    holds) named for what they are: "2 definition warnings (words kept), 1 remove-list word that no list
    holds"; "" for none."""
    from pipeline.schemas import STRAY

    parts = [f"{counted(total - strays, 'definition warning')} (words kept)"] if total > strays else []
    return ", ".join(parts + ([counted(strays, STRAY, STRAY.replace("word that", "words that"))] if strays else []))


def words(n: int) -> str:
    """counted(n, "word"): "1 word", "2 words"."""
    return counted(n, "word")  # not a column: the noun


def links(n: int) -> str:
    """counted(n, "link"): "1 link", "2 links"."""
    return counted(n, "link")  # not a column: the noun


def size_text(n: int) -> str:
    """A size in bytes as people read it: "512 bytes", "1 byte", "14.2 kB", "2.3 MB" (powers of 1,000)."""
    if n < 1000:
        return counted(n, "byte")
    for unit in ("kB", "MB", "GB"):
        n /= 1000
        if n < 1000 or unit == "GB":
            return f"{n:.1f} {unit}"
    raise AssertionError("unreachable")
