"""pipeline/config.py's one list of raw-input keys, read by the config checks, the export's manifest and NOTICE.
Config files read through the CLI: tests/integration/test_config_files.py."""

from __future__ import annotations


def test_the_raw_input_keys_are_declared_once():
    """pipeline/config.py's RAW_INPUTS is the one list of raw-input keys: the config checks each, the
    export's manifest digests each (beside the lexicons' files) and NOTICE says what each carries."""
    from ladders.artifact.notice import CARRIED_BY
    from ladders.compose import stages
    from pipeline.config import KEYS, LEGACY_LISTS, LEXICON_FILES, PATH_KEYS, RAW_INPUTS

    assert PATH_KEYS == tuple(RAW_INPUTS) and set(PATH_KEYS) <= set(KEYS)
    export = next(s for s in stages() if s.name == "export")
    assert export.digests == (LEXICON_FILES, *PATH_KEYS)
    assert tuple(CARRIED_BY) == (*LEGACY_LISTS, *PATH_KEYS)
