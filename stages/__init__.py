"""The numbered stages, one module each, in DAG order (STAGE_MODULES); the readers of raw inputs they use
in stages/sources/, the rule tables in stages/rules/, the reports for people in stages/reports/. Only
ladders/compose.py imports this package outside it: it hands STAGE_MODULES to the engine."""

STAGE_MODULES = (
    "stages.s01_lexicon",
    "stages.s02_definitions",
    "stages.s03_rareness",
    "stages.s04_links",
    "stages.s05_groups",
    "stages.s06_analysis",
    "stages.s07_export",
)
