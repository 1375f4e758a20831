"""What a good config value is: the check of each kind of key, and of one [lexicons.<name>] table.

A key's check takes (key, value as written, the folder its file is in) and returns the value to keep, or
raises ValueError saying what a good value is; config.py's KEYS gives each key its check and names the file
and key in the ConfigError. `lexicon_entry` checks one [lexicons.<name>] table and raises the ConfigError
itself (its `from` is checked once every layer is read, in config.py). The kinds of value: a path to a
file or folder that exists, one of a few names, the definition sources, the rareness table, the label
cut-offs, a bool, a non-empty string. `across_keys` checks what no one key can: the number of lexicons
(at most MAX_LEXICONS) and the everyday lexicon's level, which is rareness_labels.common.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pipeline.columns import MAX_LEXICONS, MYSQL_KEYS
from pipeline.errors import ConfigError

SCOWL_LEVELS = (10, 20, 35, 40, 50, 55, 60, 70, 80, 95)
LEXICON_FORMATS = ("auto", "plain", "naspa", "collins", "scores")
DEFINITION_SOURCES = ("csw", "owl", "supplement", "wordnet", "gcide", "freedict")
RARENESS_SOURCES = ("scowl", "wordfreq")  # stage 3: SCOWL's levels, or wordfreq's Zipf mapped onto them
# A definition source or rareness source -> the raw input it reads (which must not be `false`).
NEEDS = {"supplement": "supplement", "wordnet": "wordnet", "gcide": "gcide", "freedict": "freedict", "scowl": "scowl"}
LEXICON_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")
LEXICON_KEYS = ("file", "format", "from", "add", "remove", "max_scowl_level", "drop_capitalised")


PACKAGE = "package:"  # a path inside an installed Python package: `package:wordfreq/data/large_en.msgpack.gz`


def resolve(base: Path, value: str) -> Path:
    """A path key's file or folder: relative to `base`, or with PACKAGE inside that installed package (found
    by its import name, never imported: nothing of its code runs)."""
    if not value.startswith(PACKAGE):
        return (base / value).resolve()
    import importlib.util

    package, _, inside = value.removeprefix(PACKAGE).partition("/")
    try:
        spec = importlib.util.find_spec(package) if package.isidentifier() else None
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(f"names the package {package!r}, which is not installed here (pip install it)")
    return (Path(next(iter(spec.submodule_search_locations))) / inside).resolve()


def existing(kind: str, droppable: bool = False) -> Callable[[str, Any, Path], Any]:
    """The check of a path to a file (kind "file") or folder ("dir") that exists, relative to `base` (or
    inside an installed package: `package:NAME/PATH`); `droppable`: `false` leaves the input out."""

    def check(key: str, value: Any, base: Path) -> str | bool:
        if droppable and value is False:
            return False
        if not isinstance(value, str) or not value:
            raise ValueError("must be a path (a non-empty string)" + (" or false (left out)" if droppable else ""))
        path = resolve(base, value)
        if kind == "file" and not path.is_file():
            raise ValueError(f"{path} is not a file" if path.exists() else f"{path} does not exist")
        if kind == "dir" and not path.is_dir():
            raise ValueError(f"{path} is not a directory" if path.exists() else f"{path} does not exist")
        return value

    return check


def choice(options: tuple[str, ...]) -> Callable[[str, Any, Path], Any]:
    """The check of a value that must be one of `options`."""

    def check(key: str, value: Any, base: Path) -> str:
        if value not in options:
            raise ValueError(f"must be one of {', '.join(options)}, not {value!r}")
        return value

    return check


def sources(key: str, value: Any, base: Path) -> list[str]:
    # A lexicon's name is a source too (its list's own definitions): checked against the lexicons at the end.
    if (
        not isinstance(value, list)
        or not value
        or any(not isinstance(v, str) or not (v in DEFINITION_SOURCES or LEXICON_NAME.fullmatch(v)) for v in value)
    ):
        raise ValueError(f"must be a non-empty list drawn from {', '.join(DEFINITION_SOURCES)} and lexicon names")
    if len(set(value)) != len(value):
        raise ValueError("names a source twice")
    return value


def rareness(key: str, value: Any, base: Path) -> dict[str, int]:
    """Rareness per SCOWL level plus `absent`; each a positive integer, non-decreasing with level."""
    expected = [str(level) for level in SCOWL_LEVELS] + ["absent"]
    if not isinstance(value, dict):
        raise ValueError("must be a table of level = rareness")
    if sorted(value) != sorted(expected):
        missing = [k for k in expected if k not in value]
        extra = [k for k in value if k not in expected]
        raise ValueError(
            f"must have exactly the keys {', '.join(expected)}"
            + (f"; missing {', '.join(missing)}" if missing else "")
            + (f"; unknown {', '.join(extra)}" if extra else "")
        )
    for k in expected:
        v = value[k]
        if not isinstance(v, int) or isinstance(v, bool) or not 0 < v < 2**32:
            raise ValueError(f"{k} must be an integer from 1 to 2^32-1, not {v!r}")
    ordered = [value[k] for k in expected]
    for (a, b), (x, y) in zip(zip(expected, expected[1:]), zip(ordered, ordered[1:])):
        if y < x:
            raise ValueError(f"must not decrease with level: {b} = {y} is below {a} = {x}")
    return {k: value[k] for k in expected}


def labels(key: str, value: Any, base: Path) -> dict[str, int]:
    """The highest SCOWL level of each rareness label: common <= uncommon <= rare (obscure: beyond).
    `common` is also the everyday level: stage 3 counts variant-only words above it, a common-word ladder
    costs a word at or below it 1, and puzzles start and end on such words."""
    names = ("common", "uncommon", "rare")
    if not isinstance(value, dict) or sorted(value) != sorted(names):
        raise ValueError(f"must be a table with exactly the keys {', '.join(names)} (a SCOWL level each)")
    for name in names:
        if value[name] not in SCOWL_LEVELS:
            raise ValueError(f"{name} must be a SCOWL level ({', '.join(map(str, SCOWL_LEVELS))}), not {value[name]!r}")
    if not value["common"] <= value["uncommon"] <= value["rare"]:
        raise ValueError("must have common <= uncommon <= rare")
    return {name: value[name] for name in names}


def zipf(key: str, value: Any, base: Path) -> float:
    """A frequency on wordfreq's Zipf scale (log10 of occurrences per billion words): 0 to 9."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 9:
        raise ValueError(f"must be a number from 0 to 9 (a Zipf frequency), not {value!r}")
    return float(value)


def language(key: str, value: Any, base: Path) -> str:
    """A language code of pipeline/languages.toml (its alphabet folds every word)."""
    from pipeline.alphabet import alphabets

    codes = list(alphabets())
    if value not in codes:
        raise ValueError(f"must be a language code of pipeline/languages.toml ({', '.join(codes)}), not {value!r}")
    return value


def boolean(key: str, value: Any, base: Path) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, not {value!r}")
    return value


def string(key: str, value: Any, base: Path) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError("must be a non-empty string")
    return value


def lexicon_entry(where: str, entry: Any, base: Path) -> None:
    """One [lexicons.<name>] table's keys and values (its `from` is checked once every layer is read)."""
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: must be a table (file = ... or from = ...) or false to drop it")
    unknown = [k for k in entry if k not in LEXICON_KEYS]
    if unknown:
        raise ConfigError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join(LEXICON_KEYS)})")
    if ("file" in entry) == ("from" in entry):
        raise ConfigError(f"{where}: needs exactly one of file (a word list) and from (another lexicon)")
    try:
        for k in ("file", "add", "remove"):
            if k in entry:
                existing("file")(k, entry[k], base)
        if "format" in entry:
            choice(LEXICON_FORMATS)("format", entry["format"], base)
        if "from" in entry and not isinstance(entry["from"], str):
            raise ValueError("from must be a lexicon's name")
        if "drop_capitalised" in entry and not isinstance(entry["drop_capitalised"], bool):
            raise ValueError(f"drop_capitalised must be true or false, not {entry['drop_capitalised']!r}")
        level = entry.get("max_scowl_level", SCOWL_LEVELS[0])
        if level not in SCOWL_LEVELS or isinstance(level, bool):
            raise ValueError(f"max_scowl_level must be a SCOWL level ({', '.join(map(str, SCOWL_LEVELS))})")
    except ValueError as e:
        raise ConfigError(f"{where}: {e}") from None


EVERYDAY = "everyday"  # the lexicon of everyday words: SCOWL's main lists up to rareness_labels.common


def across_keys(values: dict[str, Any], sources: dict[str, str]) -> None:
    """Checks of the merged config that span keys; `values["lexicons"]` is resolved (config.resolve_lexicons).
    "Everyday" is one key, rareness_labels.common: the everyday lexicon's max_scowl_level follows it (set
    here when the lexicon names none), and a config that gives it another value is refused."""
    inputs(values, sources)
    lexicons = values["lexicons"]
    if len(lexicons) > MAX_LEXICONS:
        raise ConfigError(
            f"{sources.get('lexicons', 'the config')}: {len(lexicons)} lexicons; at most {MAX_LEXICONS} "
            f"(the MySQL dump indexes two group columns a lexicon, and MySQL allows {MYSQL_KEYS} keys a table)"
        )
    entry = lexicons.get(EVERYDAY)
    common = values["rareness_labels"]["common"]
    if entry is None:
        return
    if "max_scowl_level" not in entry:
        entry["max_scowl_level"] = common
    elif entry["max_scowl_level"] != common:
        raise ConfigError(
            f"{sources.get('lexicons', 'the config')}: key 'lexicons.{EVERYDAY}.max_scowl_level' "
            f"({entry['max_scowl_level']}) differs from key 'rareness_labels.common' ({common}) "
            f"({sources.get('rareness_labels', 'the config')}): everyday is rareness_labels.common; "
            f"drop max_scowl_level from [lexicons.{EVERYDAY}]"
        )


def inputs(values: dict[str, Any], sources: dict[str, str]) -> None:
    """A source the config names must have its input (not `false`); a language's wordfreq list is its own."""
    named = [*values["definition_sources"], values.get("rareness_source", "scowl")]
    for source in named:
        key = NEEDS.get(source)
        if key is not None and values.get(key, False) is False:
            who = "definition_sources" if source in values["definition_sources"] else "rareness_source"
            raise ConfigError(
                f"{sources.get(who, 'the config')}: key {who!r} names {source}, but key {key!r} is "
                f"{'false' if key in sources else 'not set'} ({sources.get(key, 'no config file sets it')})"
            )
    code = values.get("language", "en")
    wordfreq = values.get("wordfreq", "")
    if code != "en" and wordfreq.startswith(PACKAGE) and not wordfreq.endswith(f"_{code}.msgpack.gz"):
        raise ConfigError(
            f"{sources.get('wordfreq', 'the config')}: key 'wordfreq' ({wordfreq}) is not the list of language "
            f"{code!r}: name package:wordfreq/data/large_{code}.msgpack.gz"
        )
