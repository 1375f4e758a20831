"""pipeline/wording.py: counts, sizes and warnings said in good English (issue 42, item 20). What the commands
say with them: tests/integration/test_front_door.py."""

from __future__ import annotations


def test_counted_says_one_thing_once_and_many_things_in_the_plural():
    from pipeline.wording import counted, size_text, warnings_text

    assert [counted(n, "group") for n in (0, 1, 2, 1200)] == ["0 groups", "1 group", "2 groups", "1,200 groups"]
    assert counted(1, "BFS wave") == "1 BFS wave" and counted(2, "mouse", "mice") == "2 mice"
    assert [size_text(n) for n in (1, 999, 14_200, 2_300_000)] == ["1 byte", "999 bytes", "14.2 kB", "2.3 MB"]
    assert warnings_text(3, 1) == "2 definition warnings (words kept), 1 remove-list word that no list holds"
    assert warnings_text(0, 0) == "" and warnings_text(2, 2) == "2 remove-list words that no list holds"
