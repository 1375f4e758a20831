"""Our exceptions, and the exit code of each kind. The CLI prints one as one line on stderr.

EXIT_CODES below is the one table of exit codes, the same for every command: `ladders --help` prints it
and a test holds the README's table to it.
"""

EXIT_CODES: tuple[tuple[str, str], ...] = (
    ("0", "success"),
    ("1", "a check failed (`verify`), a stage is stale (`status`), the exports differ (`diff`)"),
    (
        "2",
        "bad usage or bad input: an option, a config key, a word list, a build folder ladders must not touch, "
        "`run N` on stale inputs (without --force)",
    ),
    (
        "3",
        "damaged or missing state: a lock, build folder or export that is not what ladders wrote, an export of "
        "another schema_version, or no export at all where a command looks for one (`solve`, `puzzle`, "
        "`verify`, `diff`, `export-sql`, `export-web` alike); a group of `ladder.sqlite` that `solve` finds damaged",
    ),
    (
        "4",
        "the environment: a file that cannot be read or written (permissions, a full disk, a file size "
        "limit), or too little memory; the message names the file, and calls a disk full only when its free "
        "space says so",
    ),
    (
        "5",
        "an internal error: a bug in ladders, not in its input; the message asks for a bug report, "
        "`--debug` shows the traceback and a build writes it to `ladders-error.log` in the build folder",
    ),
    (
        "10-14",
        "`solve` refusals: unknown word, lengths differ, different groups (or no family-safe or clean ladder), "
        "same word, flagged end word (not with `--no-clean`)",
    ),
    ("130", "interrupted (Ctrl-C): says which stages finished; the previous export is intact"),
    ("141", "the reader of the output went away (a pipe to `head -1`): nothing is said, as a shell reports SIGPIPE"),
)


def exit_code_help(width: int = 96) -> str:
    """The exit-code table as plain text, for `ladders --help` (kept as laid out: click's \\b)."""
    import textwrap

    rows = (
        textwrap.fill(text.replace("`", ""), width, initial_indent=f"{code:>5}  ", subsequent_indent=" " * 7)
        for code, text in EXIT_CODES
    )
    return "Exit codes, the same for every command:\n\n\b\n" + "\n".join(rows)


class PipelineError(Exception):
    """Base of every error the pipeline reports to a user; `details` are extra keys of its JSON form
    (`--json`), e.g. an unknown word's suggestions."""

    exit_code = 2

    def __init__(self, message: str = "", **details):
        super().__init__(message)
        self.details = details


class InputFormatError(PipelineError):
    """A raw input file does not have the expected format (names file and line)."""


class ConfigError(PipelineError):
    """A configuration key is unknown, mistyped or has a bad value (names the key)."""


class UsageError(PipelineError):
    """An option or argument the command cannot act on (a build folder it must not touch)."""


class StaleUpstream(PipelineError):
    """`run N` asked of a stage whose inputs come from a stage that is not fresh (names it and what to run)."""


class StaleInputError(PipelineError):
    """A stage was asked to run but an input it needs is missing or unusable."""

    exit_code = 3


class SchemaError(PipelineError):
    """A table does not have the columns and dtypes its declaration promises."""

    exit_code = 3


class DamagedState(PipelineError):
    """A lock, build folder or export that is not what ladders wrote."""

    exit_code = 3


class NoExport(DamagedState):
    """No export at the folder a command was given (or the build folder's export/ is missing): the same
    exit code from solve, puzzle, verify, diff, export-sql and export-web."""


class EnvironmentProblem(PipelineError):
    """A file that cannot be read or written: permissions, a full disk, a read-only folder."""

    exit_code = 4


class InternalError(PipelineError):
    """A bug in ladders: a stage's own code raised, or broke its contract with the runner. Never the
    input's fault (a parse error in an input is an InputFormatError)."""

    exit_code = 5


class Interrupted(PipelineError):
    """Ctrl-C: says which stages finished and that the previous export is intact."""

    exit_code = 130
