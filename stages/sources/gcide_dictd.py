"""GCIDE's dictd files read into one row per entry, for stages/sources/gcide.py to parse.

Not a stage. Reads the folder named by config key `gcide` (the runner hands over its files as bytes):
gcide.index (`headword<TAB>offset<TAB>length`, numbers in dictd's base 64) and gcide.dict.dz (dictzip,
which gzip reads whole). `entries` gives (`lemma` str, the headword in lower case; `entry` str, the text
the index points at; `order` u32, the index line), one row per index key that is a single word of letters
A-Z; phrases, hyphenated words and the 00-database entries are left out. A file missing, not dictzip or
over 2 GiB decompressed, an index not UTF-8 or a malformed offset or length (a digit not of base 64, more
than MAX_DIGITS digits) is an InputFormatError naming it; an offset or length past the end of the text is
cut at the end (the entry comes out empty or short).

`read_dictd` is the reading itself, for any dictd dictionary (stages/sources/freedict.py reads FreeDict's
with it): the files by name, the headwords kept by a pattern, the name messages call the dictionary by.
"""

from __future__ import annotations

import gzip
import zlib
from typing import TYPE_CHECKING

import polars as pl

from pipeline.errors import InputFormatError

if TYPE_CHECKING:
    import numpy as np

B64 = {c: i for i, c in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}
MAX_DIGITS = 10  # 64 ** 10 = 2 ** 60: more digits is damage, not a bigger file


def _b64(digits: pl.Expr, width: int) -> pl.Expr:
    """dictd's base-64 numbers (`A` = 0, `/` = 63, most significant first); null when a digit is not one."""
    value = pl.lit(0, pl.Int64)
    for i in range(width):
        digit = digits.str.slice(i, 1).replace_strict(B64, default=None, return_dtype=pl.Int64)
        value = pl.when(digits.str.len_bytes() > i).then(value * 64 + digit).otherwise(value)
    return value


def _file(files: dict[str, bytes], name: str, label: str = "GCIDE") -> bytes:
    data = next((d for path, d in files.items() if path.rsplit("/", 1)[-1] == name), None)
    if data is None:
        raise InputFormatError(f"{label} folder has no file {name} (have: {', '.join(sorted(files)) or 'nothing'})")
    return data


def _slices(text: bytes, start: np.ndarray, size: np.ndarray, where: str = "GCIDE gcide.dict.dz") -> pl.Series:
    """text[start:start + size] for each row, decoded as bytes.decode(errors="replace") does (bytes that are
    not UTF-8 become U+FFFD), as a String column."""
    import numpy as np

    # Plain slices, not Arrow views into `text`: building views needs pyarrow, whose libraries alone add
    # about 50 MiB to the resident set of every stage after stage 0 in a build's one process (only the
    # export needs pyarrow). The copy costs stage 0 about as much time as the views did.
    if len(text) >= 1 << 31:  # the same bound as before: a GCIDE this large is damage (the real one is 40 MB)
        raise InputFormatError(f"{where}: larger than 2 GiB once decompressed")
    start = np.minimum(start, len(text))
    size = np.minimum(size, len(text) - start)
    ends = (start + size).tolist()
    return pl.Series(
        "entry", [text[a:b].decode("utf-8", errors="replace") for a, b in zip(start.tolist(), ends)], pl.String
    )


def entries(files: dict[str, bytes]) -> pl.DataFrame:
    """(`lemma`, `entry`, `order`): the text of every single-word headword's entry, in index order
    (`order`: the index line)."""
    # Phrases, hyphenated words, the 00-database entries; words no one will look up.
    rows = read_dictd(files, "gcide.index", "gcide.dict.dz", "GCIDE", r"^[A-Za-z]+$")
    return rows.select(pl.col("head").str.to_lowercase().alias("lemma"), "entry", "order")


def read_dictd(files: dict[str, bytes], index_name: str, dict_name: str, label: str, keep: str) -> pl.DataFrame:
    """(`head`, `entry`, `order`): each index line whose headword matches `keep`, with the text it points at,
    in index order (`order`: the index line); errors name `label` and the file."""
    try:
        text = gzip.decompress(_file(files, dict_name, label))
        index = _file(files, index_name, label).decode("utf-8")
    except (OSError, EOFError, zlib.error) as e:
        raise InputFormatError(f"{label} {dict_name}: not a dictzip file ({e})") from None
    except UnicodeDecodeError as e:
        raise InputFormatError(f"{label} {index_name}: not UTF-8 text (offset {e.start})") from None
    fields = pl.col("line").str.splitn("\t", 3)
    rows = (
        pl.Series("line", [index])
        .str.split("\n")
        .explode()
        .to_frame()
        .with_row_index("order", offset=1)
        .select(
            "order",
            pl.col("line"),
            fields.struct.field("field_0").alias("head"),
            # Leading zeros (A) say nothing: only the digits after them count towards MAX_DIGITS.
            fields.struct.field("field_1").fill_null("").str.strip_chars_start("A").alias("at_b64"),
            fields.struct.field("field_2").fill_null("").str.strip_chars_start("A").alias("bytes_b64"),
        )
        .filter(pl.col("head").str.contains(keep))
    )
    digits = pl.max_horizontal(pl.col("at_b64", "bytes_b64").str.len_bytes())
    width = min(rows.select(digits.max()).item() or 0, MAX_DIGITS + 1)
    rows = rows.with_columns(_b64(pl.col("at_b64"), width).alias("at"), _b64(pl.col("bytes_b64"), width).alias("bytes"))
    bad = rows.filter(pl.col("at").is_null() | pl.col("bytes").is_null() | (digits > MAX_DIGITS))
    if bad.height:
        number, line = bad.row(0)[:2]
        raise InputFormatError(f"{label} {index_name}, line {number}: bad offset in {line[:60]!r}")
    entry = _slices(text, rows["at"].to_numpy(), rows["bytes"].to_numpy(), f"{label} {dict_name}")
    return rows.select("head", entry, "order")
