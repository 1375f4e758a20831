"""What the machine allows, measured to explain a failure: the file size and address-space limits
(`ulimit -f`, `ulimit -v`) and a disk's free space, made into the hints and warnings of one-line errors
(pipeline/errors.py holds the exceptions and exit codes). Reads the process's limits and a folder's disk
usage; writes nothing.
"""

from __future__ import annotations

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

    # A copy's error names its source first and its target second (shutil.copyfile): a full disk, a quota
    # or a file size limit is the target's.
    written = e.filename2 if e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) and e.filename2 else None
    where = f" {written or e.filename}" if written or e.filename else ""
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
