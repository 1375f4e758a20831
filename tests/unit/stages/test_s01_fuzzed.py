"""Stage 1's list reader fuzzed (hypothesis): random bytes and random definition lines parse or raise
InputFormatError, never anything else. Killed runs, concurrent runs and write failures:
tests/integration/test_faults.py."""

from __future__ import annotations


from hypothesis import given, settings
from hypothesis import strategies as st


from pipeline.errors import InputFormatError
from stages.s01_lexicon import read_list


@settings(max_examples=300, deadline=5000)  # a hang fails; slowness on a loaded machine does not
@given(st.binary(max_size=400), st.sampled_from(["auto", "plain", "naspa", "collins"]), st.booleans())
def test_fuzzed_lists_parse_or_raise_input_format_error(data, fmt, lenient):
    try:
        read_list("csw", {"fuzz.txt": data}, fmt, lenient)
    except InputFormatError:
        pass


@settings(max_examples=300, deadline=5000)  # a hang fails; slowness on a loaded machine does not
@given(
    st.lists(
        st.one_of(
            st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabc <>{}[]=/:,.()-\t", max_size=40),
            st.sampled_from(
                [
                    "AA rough lava [n -S]",
                    "AM <be=v> [v]",
                    "AE {one=adj} [adj]",
                    "ADD to join [v] : ADDABLE [adj]",
                    "AAHED\tAAH, to exclaim [v]",
                    "# comment",
                    "",
                ]
            ),
        ),
        max_size=12,
    ),
    st.sampled_from(["auto", "naspa", "collins"]),
    st.booleans(),
)
def test_fuzzed_definition_lines_parse_or_raise_input_format_error(lines, fmt, lenient):
    try:
        read_list("csw", {"fuzz.txt": "\n".join(lines).encode()}, fmt, lenient)
    except InputFormatError:
        pass
