"""The word-ladder dictionary pipeline: orchestration, configuration and IO.

The numbered stages live in the sibling package `stages`; this package runs
them (registry, staleness lock, atomic Parquet IO) and holds the CLI.
"""
