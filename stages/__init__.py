"""The numbered stages, one module each, in DAG order (STAGE_MODULES); the readers of raw inputs they use
in stages/sources/, the rule tables in stages/rules/, the reports for people in stages/reports/. Of the
engine and the product, only ladders/compose.py imports this package (it hands STAGE_MODULES to the
engine); tests, bench and scripts take only its public names."""

STAGE_MODULES = (
    "stages.s00_dictionaries",
    "stages.s01_lexicon",
    "stages.s02_definitions",
    "stages.s03_rareness",
    "stages.s04_links",
    "stages.s05_groups",
    "stages.s06_analysis",
    "stages.s07_export",
)
