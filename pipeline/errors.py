"""Our exceptions, and the exit code of each kind. The CLI prints one as one line on stderr.

EXIT_CODES below is the one table of exit codes, the same for every command: `ladders --help` prints it
and a test holds the README's table to it.
"""

EXIT_CODES: tuple[tuple[str, str], ...] = (
    ("0", "success"),
    ("1", "a check failed (`verify`), a stage is stale (`status`), the exports differ (`diff`)"),
    ("2", "bad usage or bad input: an option, a config key, a word list, a build folder ladders must not touch"),
    (
        "3",
        "damaged or missing state: a lock, build folder or export that is not what ladders wrote, an export of "
        "another schema_version, or no export at all where a command looks for one (`solve`, `puzzle`, "
        "`verify`, `diff`, `export-sql`, `export-web` alike)",
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
        "`solve` refusals: unknown word, lengths differ, different groups (or no clean ladder), same "
        "word, flagged end word (`--clean`, `--strict`)",
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


FULL = 64 * 2**20  # free bytes below which a failed write is put down to a full disk


def file_size_limit() -> int | None:
    """The process's file size limit in bytes (`ulimit -f`), None when unlimited."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else soft


def write_failure_hint(folder) -> str:
    """Why a write into `folder` that failed without saying why (SQLite's "disk I/O error") may have
    failed, from what can be measured: a full disk only when its free space says so."""
    import shutil

    try:
        free = shutil.disk_usage(folder).free
    except OSError:
        free = None
    limit = file_size_limit()
    full = free is not None and free < FULL
    if limit is not None and full:  # a small filesystem can be both: say both, guess neither
        return (
            f"the file size limit (ulimit -f) is {limit:,} bytes and the disk has {free / 2**20:,.1f} MiB "
            "free: raise the one or free the other and run again"
        )
    if full:
        return f"its disk is full ({free / 2**20:,.1f} MiB free): free some space and run again"
    if limit is not None:
        return f"the file size limit (ulimit -f) is {limit:,} bytes: raise it and run again"
    return (
        "not a full disk ("
        + (f"{free / 2**30:,.1f} GiB free" if free is not None else "free space unknown")
        + ") nor a file size limit; check the disk and its folder"
    )


def _too_large() -> str:
    limit = file_size_limit()
    return (
        f"; the file size limit (ulimit -f) is {limit:,} bytes: raise it and run again"
        if limit is not None
        else "; the file is larger than its filesystem allows"
    )


def describe_os_error(e: OSError) -> str:
    """`cannot write build/x: No space left on device`: what failed, where, and what to do."""
    import errno

    where = f" {e.filename}" if e.filename else ""
    hint = {
        errno.ENOSPC: "; free some space and run again",
        errno.EACCES: "; check the folder's permissions",
        errno.EPERM: "; check the folder's permissions and attributes (chattr)",
        errno.ENOENT: "; check the path",
        errno.ENOTDIR: "; a part of the path is a file, not a folder",
        errno.EROFS: "; choose a writable --build-dir",
        errno.EDQUOT: "; free some space and run again",
        errno.EFBIG: _too_large(),
    }.get(e.errno, "")
    return f"{e.strerror or e}{':' if where else ''}{where}{hint}"


# On 2 cores, for raw/: a cold build built under 3,000,000 KiB of address space and aborted under 2,500,000;
# verify passed under 3,000,000 and aborted under 2,000,000; export-sql passed under 2,000,000.
ADDRESS_SPACE_NEEDED = 3 * 2**30


def address_space_limit() -> int | None:
    """The address-space limit (`ulimit -v`) in bytes, None when unlimited."""
    import resource

    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else soft


def address_space_warning(what: str = "a build of raw/", stops: str = "the build stops") -> str | None:
    """A warning when `ulimit -v` is below what `what` was measured to need. Polars aborts the
    process on a failed allocation (exit 134) before ladders can report it, so this is said up front;
    smaller lists need less, so it is a warning, not a refusal."""
    soft = address_space_limit()
    if soft is None or soft >= ADDRESS_SPACE_NEEDED:
        return None
    return (
        f"warning: the address-space limit (ulimit -v) is {soft // 2**20:,} MiB; {what} needs about "
        f"{ADDRESS_SPACE_NEEDED // 2**20:,} MiB, and polars aborts (exit 134) when it runs out: raise the limit "
        f"if {stops} that way"
    )


def out_of_memory() -> str:
    """The one line of a failed allocation that Python could report (MemoryError, a library that could
    not be mapped): exit 4, the environment."""
    soft = address_space_limit()
    if soft is not None:
        return (
            f"out of memory: the address-space limit (ulimit -v) is {soft // 2**20:,} MiB; raise it "
            f"(raw/ needs about {ADDRESS_SPACE_NEEDED // 2**20:,} MiB) and run again"
        )
    return "out of memory: free some memory (or build one stage at a time, -j 1) and run again"
