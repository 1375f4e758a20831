"""Solving ladders on an export: pure graph search (search.py) and the reference solver (solver.py)."""
