"""The checks of `ladders verify`, by what they look at (files, links, groups, words) over one view of
the export (export.py); ladders/artifact/verify.py lists them by code and runs them."""
