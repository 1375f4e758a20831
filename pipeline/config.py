"""Configuration: built-in defaults, the project's file, then --config, then the CLI's options.

The layers, each overriding the one before:
1. pipeline/defaults.toml, shipped with the package: every key but the input paths;
2. the project's file, found from the current folder upwards: the first folder
   holding a `ladders.toml`, or a `pyproject.toml` with a `[tool.ladders]` table
   (ladders.toml first when a folder has both);
3. a file given with `--config` (the same keys, top-level or under `[tool.ladders]`);
4. `--build-dir` and `--lenient`.
A table value (rareness_by_level, rareness_labels) merges key by key over the
layer before, so one level can change alone. Relative paths resolve against the
folder of the file that set them; a --config file that sets no `build_dir`
builds into `build/` beside itself. Any unknown key, wrong type or bad value is
a ConfigError naming the file and the key. `Config.sources` says which layer set
each key (`ladders config` prints them).
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from pipeline.errors import ConfigError

DEFAULTS_FILE = Path(__file__).resolve().parent / "defaults.toml"
PROJECT_FILES = ("ladders.toml", "pyproject.toml")  # looked for in this order, folder by folder
SCOWL_LEVELS = (10, 20, 35, 40, 50, 55, 60, 70, 80, 95)
LEXICON_FORMATS = ("auto", "plain", "naspa", "collins", "scores")
DEFINITION_SOURCES = ("csw", "owl", "supplement", "wordnet", "gcide")
PATH_KEYS = ("csw", "owl", "scowl", "wordnet", "gcide", "supplement", "offensive", "cuss")  # not a column: raw inputs


def _path(kind: str) -> Callable[[str, Any, Path], Any]:
    def check(key: str, value: Any, base: Path) -> str:
        if not isinstance(value, str) or not value:
            raise ValueError("must be a path (a non-empty string)")
        path = base / value
        if kind == "file" and not path.is_file():
            raise ValueError(f"{path} is not a file" if path.exists() else f"{path} does not exist")
        if kind == "dir" and not path.is_dir():
            raise ValueError(f"{path} is not a directory" if path.exists() else f"{path} does not exist")
        return value

    return check


def _choice(options: tuple[str, ...]) -> Callable[[str, Any, Path], Any]:
    def check(key: str, value: Any, base: Path) -> str:
        if value not in options:
            raise ValueError(f"must be one of {', '.join(options)}, not {value!r}")
        return value

    return check


def _sources(key: str, value: Any, base: Path) -> list[str]:
    if not isinstance(value, list) or not value or any(v not in DEFINITION_SOURCES for v in value):
        raise ValueError(f"must be a non-empty list drawn from {', '.join(DEFINITION_SOURCES)}")
    if len(set(value)) != len(value):
        raise ValueError("names a source twice")
    return value


def _rareness(key: str, value: Any, base: Path) -> dict[str, int]:
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


def _labels(key: str, value: Any, base: Path) -> dict[str, int]:
    """The highest SCOWL level of each rareness label: common <= uncommon <= rare (obscure: beyond)."""
    names = ("common", "uncommon", "rare")
    if not isinstance(value, dict) or sorted(value) != sorted(names):
        raise ValueError(f"must be a table with exactly the keys {', '.join(names)} (a SCOWL level each)")
    for name in names:
        if value[name] not in SCOWL_LEVELS:
            raise ValueError(f"{name} must be a SCOWL level ({', '.join(map(str, SCOWL_LEVELS))}), not {value[name]!r}")
    if not value["common"] <= value["uncommon"] <= value["rare"]:
        raise ValueError("must have common <= uncommon <= rare")
    return {name: value[name] for name in names}


def _bool(key: str, value: Any, base: Path) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"must be true or false, not {value!r}")
    return value


def _string(key: str, value: Any, base: Path) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError("must be a non-empty string")
    return value


# Each key: its check, which also says what a good value is.
KEYS: dict[str, Callable[[str, Any, Path], Any]] = {
    "csw": _path("file"),
    "csw_format": _choice(LEXICON_FORMATS),
    "owl": _path("file"),
    "owl_format": _choice(LEXICON_FORMATS),
    "scowl": _path("dir"),
    "wordnet": _path("dir"),
    "gcide": _path("dir"),
    "supplement": _path("file"),
    "offensive": _path("file"),  # not a column: the offensive-words list
    "cuss": _path("file"),  # not a column: the cuss ratings (index.js of the npm package)
    "lenient": _bool,
    "definition_sources": _sources,
    "rareness_by_level": _rareness,
    "rareness_labels": _labels,
    "build_dir": _string,
}


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
        return (self.bases[key] / self.values[key]).resolve()

    def display(self, key: str) -> str:
        """How a path key is shown in messages and the manifest: as written in the config."""
        return self.values[key]

    def digest(self, keys: tuple[str, ...]) -> str:
        """sha256 of the values of `keys` as written, for staleness.

        Paths count as written, not resolved: the files behind them are hashed
        by content anyway, and a project moved elsewhere stays fresh.
        """
        used = {k: self.values[k] for k in keys}
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


def _merge_layer(values: dict[str, Any], file: Path, data: Any) -> list[str]:
    """Check one layer's keys and merge them into `values`; the keys it set."""
    if not isinstance(data, dict):
        raise ConfigError(f"{file}: [tool.ladders] must be a table")
    for key, value in data.items():
        check = KEYS.get(key)
        if check is None:
            raise ConfigError(f"{file}: unknown key {key!r} (known: {', '.join(KEYS)})")
        if isinstance(value, dict) and isinstance(values.get(key), dict):
            value = {**values[key], **{str(k): v for k, v in value.items()}}  # one level may change alone
        try:
            values[key] = check(key, value, file.parent)
        except ValueError as e:
            raise ConfigError(f"{file}: key {key!r}: {e}") from None
    return list(data)


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
        for key in _merge_layer(values, file, data):
            bases[key] = base
            sources[key] = str(file) if file != DEFAULTS_FILE else "built-in defaults"
    if config_file is not None and "build_dir" not in layers[-1][1]:
        # Another config builds beside itself, never into the project's default folder by surprise.
        bases["build_dir"] = Path(config_file).parent.resolve()
        sources["build_dir"] = f"{config_file} (beside it)"
    missing = [k for k in KEYS if k not in values]
    if missing:
        where = ", ".join(str(f) for f, _ in layers[1:]) or (
            f"no ladders.toml or pyproject.toml with [tool.ladders] in {Path.cwd()} or above"
        )
        raise ConfigError(
            f"missing keys {', '.join(missing)} ({where}); name the input files in a ladders.toml "
            "(see the README) or pass --config"
        )
    if build_dir is not None:
        values["build_dir"] = str(build_dir)
        bases["build_dir"] = Path.cwd()
        sources["build_dir"] = "--build-dir"
    if lenient:
        values["lenient"] = True
        sources["lenient"] = "--lenient"
    return Config(values, bases, sources, project.parent.resolve() if project else None)
