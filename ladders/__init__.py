"""The product: everything that reads build/export/ (the CLI, the solver and puzzles, the MySQL dump and the
web page made from an export, verify, diff, audit, release; ladder.sqlite itself is written by stage 7
through pipeline/sqlite.py). It uses the engine (pipeline/) and its column table;
`compose` is the one module that hands the numbered stages (stages/) to the engine."""
