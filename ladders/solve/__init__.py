"""Solving ladders on an export: pure graph search (search.py), the reference solver (solver.py) and the
puzzle generator (puzzle.py)."""
