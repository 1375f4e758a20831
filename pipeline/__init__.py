"""The engine of the word-ladder dictionary pipeline: configuration (and its checks), the stage registry and
the runner (with its scheduler, schedule.py, and a stage's steps, execute.py), the build folder and its lock,
atomic IO (Parquet, SQLite), errors and progress, and the column table (columns.py). It imports no stage
(their module names are handed in) and nothing of the product (ladders/), but for __main__.py, the launcher
of `python -m pipeline`, which runs the product's CLI.
"""
