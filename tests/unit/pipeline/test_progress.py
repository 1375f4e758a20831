"""Progress without a terminal (issue 42, item 21): a plain line every few seconds where stderr is a log, none
with --quiet, none for work shorter than that. The clock is a fake one the test moves: no sleeps."""

from __future__ import annotations


from pipeline import progress


def test_plain_lines_every_few_seconds_when_stderr_is_not_a_terminal(fake_clock, capsys):
    progress.configure(False, terminal=False)
    assert progress.mode() == "plain"
    seen = []
    for i in progress.track(range(10), "links"):
        fake_clock[0] += 2.0  # each item takes 2 s
        seen.append(i)
    assert seen == list(range(10))
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["links: 3 of 10 (30%)", "links: 6 of 10 (60%)", "links: 9 of 10 (90%)"]


def test_no_line_for_short_work_nor_with_quiet(fake_clock, capsys):
    progress.configure(False, terminal=False)
    with progress.counter(3, "puzzles") as one_more:
        for _ in range(3):
            fake_clock[0] += 1.0
            one_more()
    assert capsys.readouterr().err == ""
    progress.configure(True, terminal=False)
    with progress.counter(3, "puzzles") as one_more:
        for _ in range(3):
            fake_clock[0] += 10.0
            one_more()
    assert capsys.readouterr().err == ""


def test_a_counter_and_a_piece_of_work_say_where_they_are(fake_clock, capsys):
    progress.configure(False, terminal=False)
    with progress.counter(4, "puzzles") as one_more:
        for _ in range(4):
            fake_clock[0] += 3.0
            one_more()
    with progress.working("release") as step:
        for what in ("words.parquet", "ladder.sqlite", "web.tar.gz"):
            fake_clock[0] += 6.0
            step(f"packing {what}")
    assert capsys.readouterr().err.splitlines() == [
        "puzzles: 2 of 4 (50%)",
        "puzzles: 4 of 4 (100%)",
        "release: packing words.parquet (6 s)",
        "release: packing ladder.sqlite (12 s)",
        "release: packing web.tar.gz (18 s)",
    ]


def test_the_scheduler_says_which_stages_still_run(fake_clock):
    """While a stage runs, the scheduler's thread says so every few seconds of the (fake) clock: the stage here
    moves the clock 11 s on and waits until the line was said (no sleep, no race: it waits on the line)."""
    import threading
    from pathlib import Path

    from ladders.compose import stages
    from pipeline.schedule import Report, Scheduler

    progress.configure(False, terminal=False)
    links = next(s for s in stages() if s.name == "links")
    lines, said = [], threading.Event()

    def echo(line: str) -> None:
        lines.append(line)
        if line.startswith("still running"):
            said.set()

    def run_one(stage):
        fake_clock[0] += 11.0
        assert said.wait(60), lines
        return Report(stage, "ran", 1, 0.0)

    scheduler = Scheduler(1, echo, threading.RLock(), threading.Event(), lambda: None, Path("export"))
    assert scheduler.run([links], {"links": set()}, run_one, {}) is None
    assert lines[0] == "still running: 4 links (11 s)" and lines[-1].startswith("4 links ")
