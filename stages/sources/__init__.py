"""Readers of raw inputs the stages use: word lists (wordlists, with the definition grammar of NASPA and
Collins lists in definition_grammar), WordNet (wordnet), GCIDE (gcide_dictd reads its files, gcide parses
the entries and chooses senses, gcide_text cleans and cuts a sense's text)."""
