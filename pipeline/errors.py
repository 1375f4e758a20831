"""Our exceptions, and the exit code of each kind. The CLI prints one as one line on stderr.

Exit codes, the same for every command (also in the README and `ladders --help`):
  0  success
  1  a check failed, a stage is stale, two exports differ (verify, status, diff)
  2  bad usage or bad input: an option, a config key, a word list, the build folder chosen
  3  damaged or missing state: a lock, a build folder or an export that is not what ladders wrote,
     or no export at all where a command looks for one (NoExport: every command alike)
  4  the environment: a file that cannot be read or written (permissions, a full disk)
  10-14  `ladders solve` refusals (see its --help)
  130  interrupted (Ctrl-C)
"""


class PipelineError(Exception):
    """Base of every error the pipeline reports to a user."""

    exit_code = 2


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


class Interrupted(PipelineError):
    """Ctrl-C: says which stages finished and that the previous export is intact."""

    exit_code = 130


def describe_os_error(e: OSError) -> str:
    """`cannot write build/x: No space left on device`: what failed, where, and what to do."""
    import errno

    where = f" {e.filename}" if e.filename else ""
    hint = {errno.ENOSPC: "; free some space and run again", errno.EACCES: "; check the folder's permissions",
            errno.EPERM: "; check the folder's permissions and attributes (chattr)",
            errno.ENOENT: "; check the path", errno.ENOTDIR: "; a part of the path is a file, not a folder",
            errno.EROFS: "; choose a writable --build-dir", errno.EFBIG: "; the file would be too large here",
            errno.EDQUOT: "; free some space and run again"}.get(e.errno, "")
    return f"{e.strerror or e}{':' if where else ''}{where}{hint}"
