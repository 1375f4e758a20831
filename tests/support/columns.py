"""Two columns the column table does not hold, `score` (a float) and `maybe` (a nullable integer), with values
each backend must carry unchanged: the round trip of the column table's tests and of the MySQL dump's."""

from __future__ import annotations

from pipeline.columns import WORDS, Column

# Values a lossy encoder changes: 1.5 (an Int64 cast made it 1), 0.1 and 2/3 (not exact in decimal
# text of a few digits), 1e-300 and 1e22 (exponents), a negative, a null; ints up to u32's top, a null.
SCORES = [1.5, 0.1, 2 / 3, 1e-300, 1e22, -123456789.125, None]
MAYBES = [0, 7, None, 4_294_967_295, None, 1, 2]
EXTRA = (
    Column("score", "f64", True, "values", "value", "a test float", "test", "-"),
    Column("maybe", "u32", True, "values", "value", "a test nullable integer", "test", "-"),
)
TABLE = WORDS + EXTRA
