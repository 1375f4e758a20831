"""Text made inert before it reaches a terminal: the one escaping function of every command's output.

A list's author writes the definitions, and a terminal acts on some characters
instead of showing them: ESC and the other C0 controls (colours, cursor moves,
OSC 8 hyperlinks, `ESC c` reset), DEL, the C1 controls (0x9B is an 8-bit CSI),
and invisible formatting characters that reorder or hide text (bidi overrides
and isolates, zero-width characters, Unicode tags). Stage 1 removes them from
the lists' definitions; `inert` makes whatever still comes (from another
source, a hand-edited export, a file name) visible instead of active.

Every such character but the newline becomes a JSON escape, `\\u001b`
(characters beyond U+FFFF as their two JSON surrogate escapes), so one function
serves plain lines and JSON output alike: inside a JSON string the escape reads
back as the same character.
"""

from __future__ import annotations

import re

# The one rule of unsafe characters, what a terminal may act on or hide: these Unicode categories.
UNSAFE_CATEGORIES = ("Cc", "Cf", "Zl", "Zp")
# The rule as a pattern of polars' (Rust) regex, which knows the categories: stage 1 removes these from
# the lists' definitions and texts (stages/sources/wordlists.py).
UNSEEN = "[" + "".join(rf"\p{{{category}}}" for category in UNSAFE_CATEGORIES) + "]"
# The rule for Python's re, which does not: UNSAFE_CATEGORIES (Unicode 14, Python 3.11's unicodedata) but
# the newline, spelled out; the test suite checks this class against unicodedata and against UNSEEN, so a
# newer Unicode's additions show as a failure.
UNSAFE = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f"
    "\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f"
    # and lone surrogates: the bytes of a file name that are not UTF-8 (Python's surrogateescape), which no
    # output encoding can write
    "\ud800-\udfff]"
)


def _escape(match: re.Match) -> str:
    code = ord(match[0])
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def inert(text: str) -> str:
    """`text` with every control and invisible formatting character but the newline written as `\\uXXXX`."""
    return UNSAFE.sub(_escape, text)
