"""The product: everything that reads build/export/ (the CLI, the solver and puzzles, the SQLite/MySQL/web
writers of the artifact, verify, diff, audit, release). It uses the engine (pipeline/) and its column table;
`compose` is the one module that hands the numbered stages (stages/) to the engine."""
