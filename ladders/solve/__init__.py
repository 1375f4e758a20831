"""Solving ladders on an export: pure graph search (search.py), the reference solver (solver.py) with the
group it searches (group.py) and the rules and refusals of a question (question.py), and the puzzle
generator (puzzle.py)."""
