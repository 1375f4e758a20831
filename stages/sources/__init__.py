"""Readers of raw inputs the stages use: word lists (wordlists), WordNet (wordnet), GCIDE (gcide)."""
