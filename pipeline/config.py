"""Configuration: built-in defaults, the project's file, then --config, then the CLI's options.

The layers, each overriding the one before:
1. pipeline/defaults.toml, shipped with the package: every key but the input paths;
2. the project's file, found from the current folder upwards: the first folder
   holding a `ladders.toml`, or a `pyproject.toml` with a `[tool.ladders]` table
   (ladders.toml first when a folder has both);
3. a file given with `--config` (the same keys, top-level or under `[tool.ladders]`);
4. `--build-dir` and `--lenient`.
The lexicons (`[lexicons.<name>]` tables, docs/lexicons.md) merge by name: a later layer adds a lexicon,
changes one, or drops one with `<name> = false`. The keys `csw` and `owl` (and `csw_format`,
`owl_format`) are shorthand for `[lexicons.csw] file = ...`, used when no lexicons table names that lexicon.
A table value (rareness_by_level, rareness_labels) merges key by key over the
layer before, so one level can change alone. Relative paths resolve against the
folder of the file that set them; a --config file that sets no `build_dir`
builds beside itself (into the build_dir the earlier layers name, `build` by
default). Any unknown key, wrong type or bad value is
a ConfigError naming the file and the key (each key's check is in pipeline/config_checks.py).
`Config.sources` says which layer set each key (`ladders config` prints them).
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from pipeline import config_checks as checks
from pipeline.config_checks import DEFINITION_SOURCES, LEXICON_FORMATS, LEXICON_NAME
from pipeline.errors import ConfigError

DEFAULTS_FILE = Path(__file__).resolve().parent / "defaults.toml"
PROJECT_FILES = ("ladders.toml", "pyproject.toml")  # looked for in this order, folder by folder
# The raw inputs beyond the lexicons' lists, declared once: each key and whether it names a file or a folder.
RAW_INPUTS = {
    "scowl": "dir",
    "wordnet": "dir",
    "gcide": "dir",
    "supplement": "file",
    "offensive": "file",  # not a column: the offensive-words list
    "cuss": "file",  # not a column: the cuss ratings (index.js of the npm package)
    "main_senses": "file",  # not a column: the reviewed main-sense table (optional: docs/definitions.md)
    "wordfreq": "file",  # not a column: wordfreq's frequency list, inside the installed package by default
    "freedict": "dir",  # not a column: a FreeDict dictionary (freedict-<xxx>-eng.index, .dict.dz): a language's glosses
}
# The inputs a build may go without (`key = false`): a language build has no SCOWL, WordNet or GCIDE.
DROPPABLE = tuple(k for k in RAW_INPUTS if k != "wordfreq")  # not a column: config keys
PATH_KEYS = tuple(RAW_INPUTS)
LEGACY_LISTS = ("csw", "owl")  # the keys that name a lexicon's file directly (`csw = "..."`), from before lexicons
OPTIONAL = (
    *LEGACY_LISTS,
    "lexicons",
    "main_senses",
    "freedict",
)  # the lexicons come from either; a table may be absent
LEXICON_FILES = "lexicon_files"  # not a key: every file the lexicons name, as one raw input of stage 1
# Not a key: the lexicons the built-in defaults make that no config file names (everyday). One of them that
# ends up empty is left out with a warning (stage 5); an empty lexicon a config wrote is an error.
DEFAULT_LEXICONS = "default_lexicons"
# Names a lexicon cannot take: definition sources of another kind, and `added` (the add-lists' own text).
RESERVED_NAMES = ("supplement", "wordnet", "gcide", "added")


# Each key: its check (config_checks.py), which also says what a good value is.
KEYS: dict[str, Callable[[str, Any, Path], Any]] = {
    "lexicons": lambda key, value, base: value,  # tables of tables: _merge_layer hands them to _merge_lexicons
    "csw": checks.existing("file"),
    "csw_format": checks.choice(LEXICON_FORMATS),
    "owl": checks.existing("file"),
    "owl_format": checks.choice(LEXICON_FORMATS),
    **{key: checks.existing(kind, key in DROPPABLE) for key, kind in RAW_INPUTS.items()},
    "language": checks.language,
    "rareness_source": checks.choice(checks.RARENESS_SOURCES),
    "lenient": checks.boolean,
    "definition_sources": checks.sources,
    "rareness_by_level": checks.rareness,
    "rareness_labels": checks.labels,
    "everyday_min_zipf": checks.zipf,
    "build_dir": checks.string,
}


def lexicon_files(lexicons: dict[str, Any], bases: dict[str, Path]) -> dict[str, Path]:
    """Every file the lexicons name (list, add-list, remove-list), by its path as written."""
    files: dict[str, Path] = {}
    for name, entry in lexicons.items():
        for k in ("file", "add", "remove"):
            if k in entry:
                path = (bases[f"lexicons.{name}"] / entry[k]).resolve()
                if files.setdefault(entry[k], path) != path:
                    raise ConfigError(
                        f"key 'lexicons.{name}': {k} = {entry[k]!r} names another file than the same path written "
                        "elsewhere in the config; write one of them otherwise"
                    )
    return files


@dataclass(frozen=True)
class Config:
    """Validated settings. `values` as written; `bases` the folder each path key is relative to;
    `sources` the file (or option) that set each key; `project` the folder of the project's file."""

    values: dict[str, Any]
    bases: dict[str, Path]
    sources: dict[str, str] = field(default_factory=dict)
    project: Path | None = None

    def __getitem__(self, key: str) -> Any:
        return self.values[key]

    def path(self, key: str) -> Path:
        return checks.resolve(self.bases[key], self.values[key])

    def lexicon_files(self) -> dict[str, Path]:
        """Every file the lexicons name, by its path as written (the labels stage 1 is handed)."""
        return lexicon_files(self.values["lexicons"], self.bases)

    def raw_files(self, key: str) -> dict[str, Path]:
        """Display path -> file, for a raw-input key (a file or a folder's visible files, or LEXICON_FILES)."""
        if key == LEXICON_FILES:
            return self.lexicon_files()
        if self.values.get(key, False) is False:  # an optional input left out, or dropped (`key = false`)
            return {}
        path = self.path(key)
        shown = self.display(key)
        if path.is_dir():
            return {
                f"{shown.rstrip('/')}/{p.name}": p
                for p in sorted(path.iterdir())
                if p.is_file() and not p.name.startswith(".")
            }
        return {shown: path}

    def display(self, key: str) -> str:
        """How a path key is shown in messages and the manifest: as written in the config."""
        return self.values[key]

    def digest(self, keys: tuple[str, ...]) -> str:
        """sha256 of the values of `keys` as written, for staleness.

        Paths count as written, not resolved: the files behind them are hashed
        by content anyway, and a project moved elsewhere stays fresh.
        """
        used = {k: self.values.get(k) for k in keys}
        return hashlib.sha256(json.dumps(used, sort_keys=True).encode()).hexdigest()


def _read_toml(path: Path) -> dict[str, Any]:
    """The ladders keys of a TOML file: its [tool.ladders] table when it has one (a pyproject.toml
    always reads that table alone), else its top-level keys; never both silently."""
    if path.exists() and not path.is_dir() and not path.is_file():  # a FIFO (opening it hung) or a device
        raise ConfigError(f"{path}: is not a regular file, not a config file")
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file does not exist") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a directory, not a config file") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read the config file: {e.strerror}") from None
    tool = data.get("tool", {}) if isinstance(data.get("tool"), dict) else {}
    if path.name == "pyproject.toml":
        return tool.get("ladders", {})
    # A [tool.x] table is another tool's; `tool = 5` is no table at all: a key, refused as unknown.
    top = {k: v for k, v in data.items() if k != "tool" or not isinstance(v, dict)}
    if "ladders" in tool:
        if top:
            raise ConfigError(
                f"{path}: has both a [tool.ladders] table and top-level keys "
                f"({', '.join(sorted(top))}); put every key in one place"
            )
        return tool["ladders"]
    return top


def find_project_file(start: Path | None = None) -> Path | None:
    """The project's config file: the nearest folder from `start` upwards holding a ladders.toml or a
    pyproject.toml with a [tool.ladders] table."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        for name in PROJECT_FILES:
            candidate = folder / name
            if candidate.is_file() and (name == "ladders.toml" or _has_ladders_table(candidate)):
                return candidate
    return None


def _has_ladders_table(pyproject: Path) -> bool:
    try:
        with pyproject.open("rb") as f:
            tool = tomllib.load(f).get("tool")
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return False
    return isinstance(tool, dict) and "ladders" in tool


def _merge_lexicons(before: dict[str, Any], file: Path, table: Any, bases: dict[str, Path]) -> dict[str, Any]:
    """One layer's [lexicons] table checked entry by entry and merged by name over `before`; the folder
    each entry's paths are relative to goes in `bases` as `lexicons.<name>`."""
    if not isinstance(table, dict):
        raise ConfigError(f"{file}: key 'lexicons' must be a table of [lexicons.<name>] tables")
    merged = dict(before)
    base = _layer_base(file)
    for name, entry in table.items():
        where = f"{file}: key 'lexicons.{name}'"
        if not LEXICON_NAME.fullmatch(name) or name in RESERVED_NAMES or name.endswith("_edit"):
            # _edit would make group_<name> another lexicon's edit column (contract.group_column)
            raise ConfigError(
                f"{where}: a lexicon's name is 1-32 characters a-z, 0-9 and _, starting with a letter, not "
                f"ending in _edit, and not one of {', '.join(RESERVED_NAMES)}"
            )
        if entry is False:
            merged[name] = False
            continue
        checks.lexicon_entry(where, entry, base)
        merged[name] = dict(entry)
        bases[f"lexicons.{name}"] = base
    return merged


def _layer_base(file: Path) -> Path:
    """The folder a layer's relative paths start from: its file's (the defaults': the project's, or here)."""
    if file != DEFAULTS_FILE:
        return file.parent.resolve()
    project = find_project_file()
    return project.parent.resolve() if project else Path.cwd()


def resolve_lexicons(values: dict[str, Any], bases: dict[str, Path], sources: dict[str, str]) -> dict[str, Any]:
    """The lexicons the build makes, in column order: the `csw`/`owl` shorthand first, then the table's in the
    order written; each {file, format} or {from}, with add, remove, max_scowl_level when given. A `from`
    naming no lexicon, a cycle of them, or no lexicon at all is a ConfigError."""
    table = values.get("lexicons", {})
    where = sources.get("lexicons", "the config")
    lexicons: dict[str, Any] = {}
    for name in LEGACY_LISTS:
        if name in values and name not in table:
            lexicons[name] = {"file": values[name], "format": values.get(f"{name}_format", "auto")}
            bases[f"lexicons.{name}"] = bases[name]
    for name, entry in table.items():
        if entry is not False:
            lexicons[name] = {"format": "auto", **entry} if "file" in entry else dict(entry)
    if not lexicons:
        raise ConfigError(f"{where}: no lexicon: name a word list ([lexicons.<name>] file = ..., or csw = ...)")
    for name, entry in lexicons.items():
        seen = [name]
        while "from" in entry:
            parent = entry["from"]
            if parent not in lexicons:
                raise ConfigError(
                    f"{where}: key 'lexicons.{seen[-1]}': from = {parent!r} names no lexicon "
                    f"(lexicons: {', '.join(lexicons)}); name one, or drop it with `{seen[-1]} = false` under [lexicons]"
                )
            if parent in seen:
                raise ConfigError(
                    f"{where}: key 'lexicons.{name}': a cycle of derived lexicons: {' -> '.join(seen + [parent])}"
                )
            seen.append(parent)
            entry = lexicons[parent]
    return lexicons


def _merge_layer(values: dict[str, Any], file: Path, data: Any, bases: dict[str, Path] | None = None) -> list[str]:
    """Check one layer's keys and merge them into `values`; the keys it set."""
    if not isinstance(data, dict):
        raise ConfigError(f"{file}: [tool.ladders] must be a table")
    for key, value in data.items():
        check = KEYS.get(key)
        if check is None:
            raise ConfigError(f"{file}: unknown key {key!r} (known: {', '.join(KEYS)})")
        if key == "lexicons":
            values[key] = _merge_lexicons(values.get(key, {}), file, value, {} if bases is None else bases)
            continue
        if isinstance(value, dict) and isinstance(values.get(key), dict):
            value = {**values[key], **{str(k): v for k, v in value.items()}}  # one level may change alone
        try:
            values[key] = check(key, value, file.parent)
        except ValueError as e:
            raise ConfigError(f"{file}: key {key!r}: {e}") from None
    return list(data)


def _definition_sources(values: dict[str, Any], sources: dict[str, str]) -> list[str]:
    """definition_sources for the lexicons made: the defaults' csw and owl give way to every lexicon with a
    file of its own; a list the config gives must name sources or such lexicons; `added` comes first when a
    lexicon has an add-list."""
    lists = [name for name, entry in values["lexicons"].items() if "file" in entry]
    wanted = values["definition_sources"]
    if sources.get("definition_sources") == "built-in defaults":
        # The defaults name csw and owl: in their place, every lexicon with a file of its own, in order.
        wanted = [s for s in wanted if s not in LEGACY_LISTS]
        wanted = lists + wanted
    else:
        others = [s for s in DEFINITION_SOURCES if s not in LEGACY_LISTS]
        unknown = [s for s in wanted if s not in others and s not in lists]
        if unknown:
            raise ConfigError(
                f"{sources['definition_sources']}: key 'definition_sources': {unknown[0]!r} is neither a source "
                f"({', '.join(others)}) nor a lexicon with a file of its own ({', '.join(lists)})"
            )
    if any("add" in entry for entry in values["lexicons"].values()):
        wanted = ["added", *wanted]  # an add-list's own definition is the user's word on it: it comes first
    return wanted


def load_config(config_file: Path | None = None, build_dir: Path | None = None, lenient: bool = False) -> Config:
    """The layers of the module docstring, validated, with where each value came from."""
    project = find_project_file()
    layers = [(DEFAULTS_FILE, _read_toml(DEFAULTS_FILE))]
    if project is not None:
        layers.append((project, _read_toml(project)))
    if config_file is not None:
        layers.append((Path(config_file), _read_toml(Path(config_file))))
    values: dict[str, Any] = {}
    bases: dict[str, Path] = {}
    sources: dict[str, str] = {}
    for file, data in layers:
        # The defaults' one path, build_dir, is the project's: beside its file, or here without one.
        base = file.parent.resolve() if file != DEFAULTS_FILE else (project.parent.resolve() if project else Path.cwd())
        for key in _merge_layer(values, file, data, bases):
            bases[key] = base
            sources[key] = str(file) if file != DEFAULTS_FILE else "built-in defaults"
    if config_file is not None and "build_dir" not in layers[-1][1]:
        # Another config builds beside itself, never into the project's default folder by surprise.
        bases["build_dir"] = Path(config_file).parent.resolve()
        sources["build_dir"] = f"{config_file} (beside it)"
    # An input set to false is left out: its key is gone, as an optional input's never given (`raw_files`).
    dropped = [k for k in DROPPABLE if values.get(k) is False]
    for key in dropped:
        del values[key]
    missing = [k for k in KEYS if k not in values and k not in OPTIONAL and k not in dropped]
    if missing:
        where = ", ".join(str(f) for f, _ in layers[1:]) or (
            f"no ladders.toml or pyproject.toml with [tool.ladders] in {Path.cwd()} or above"
        )
        raise ConfigError(
            f"missing keys {', '.join(missing)} ({where}); name the input files in a ladders.toml "
            "(see the README) or pass --config"
        )
    shorthand = [k for k in LEGACY_LISTS if k in values and k not in values.get("lexicons", {})]
    values["lexicons"] = resolve_lexicons(values, bases, sources)
    checks.across_keys(values, sources)  # how many lexicons; the everyday level is rareness_labels.common
    if shorthand:
        sources["lexicons"] = f"{sources.get('lexicons', 'built-in defaults')} and the keys {', '.join(shorthand)}"
    values["definition_sources"] = _definition_sources(values, sources)
    named = {n for _, data in layers[1:] if isinstance(data.get("lexicons"), dict) for n in data["lexicons"]}
    values[DEFAULT_LEXICONS] = [n for n in values["lexicons"] if n not in named and n not in shorthand]
    sources[DEFAULT_LEXICONS] = "the lexicons of the built-in defaults that no config file names"
    values[LEXICON_FILES] = sorted(lexicon_files(values["lexicons"], bases))
    sources[LEXICON_FILES] = "every file the lexicons name"
    if build_dir is not None:
        values["build_dir"] = str(build_dir)
        bases["build_dir"] = Path.cwd()
        sources["build_dir"] = "--build-dir"
    if lenient:
        values["lenient"] = True
        sources["lenient"] = "--lenient"
    return Config(values, bases, sources, project.parent.resolve() if project else None)
