"""Our exceptions. The CLI prints any PipelineError as one line on stderr and exits 1."""


class PipelineError(Exception):
    """Base of every error the pipeline reports to a user."""


class InputFormatError(PipelineError):
    """A raw input file does not have the expected format (names file and line)."""


class ConfigError(PipelineError):
    """A configuration key is unknown, mistyped or has a bad value (names the key)."""


class StaleInputError(PipelineError):
    """A stage was asked to run but an input it needs is missing or unusable."""


class SchemaError(PipelineError):
    """A table does not have the columns and dtypes its declaration promises."""
