"""The CLI's last line of defence: OS errors as one line with the path, anything else as one line
plus a crash log holding the traceback (``IRSCOPE_DEBUG=1`` prints it too)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import click

# Meta key under which the ``--store`` option leaves its value, so a crash log can go into that store.
STORE_META = "irscope.store_dir"
_LONGEST_NAME = 160


def short_path(name: object) -> str:
    """A path as text, cut in the middle when it is too long to read on one line."""
    text = os.fsdecode(name) if isinstance(name, (str, bytes, os.PathLike)) else str(name)
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if len(text) <= _LONGEST_NAME:
        return text
    half = _LONGEST_NAME // 2
    return f"{text[:half]}...{text[-half:]} ({len(text)} characters)"


def one_line(message: str) -> str:
    """A message folded onto one line: its lines joined by "; " (or a space after a colon), bullets dropped.

    Example: "x is not an archive:\n- method gz: not a gzip file\n- method tar: truncated header"
    becomes "x is not an archive: method gz: not a gzip file; method tar: truncated header".
    """
    out = ""
    for line in message.splitlines():
        part = line.strip().removeprefix("- ").strip()
        if not part:
            continue
        out += part if not out else (" " if out.endswith(":") else "; ") + part
    return out


def usage_line(exc: click.UsageError) -> str:
    """A usage error on one line: click's message, and where the valid values are when it names none.

    A bad value's message says what is valid (the option's own check words it); an unknown option, a
    missing argument or an extra one points at the command's ``--help``.
    """
    text = one_line(exc.format_message())
    if isinstance(exc, click.BadParameter) and not isinstance(exc, click.MissingParameter):
        return text
    if isinstance(exc, click.NoSuchOption) and exc.possibilities:  # "Did you mean ...?" names the valid ones
        return text
    names: list[str] = []
    ctx = exc.ctx
    while ctx is not None and ctx.parent is not None:  # the command's path, under the name irscope
        names.insert(0, ctx.info_name or "")
        ctx = ctx.parent
    path = " ".join(["irscope", *names])
    return f"{text.rstrip('.')} ('{path} --help' lists what is valid)"


class OneLineUsageError(click.UsageError):
    """A usage error that shows as one ``irscope: error:`` line (exit 2), not click's usage, hint and error."""

    def show(self, file: Any = None) -> None:
        click.echo(f"irscope: error: {self.message}", err=True)


def one_line_usage(exc: click.UsageError) -> click.UsageError:
    """``exc`` as a one-line usage error; click's no-arguments help (not an error) stays as it is."""
    no_args = getattr(click.exceptions, "NoArgsIsHelpError", None)
    if isinstance(exc, OneLineUsageError) or (no_args is not None and isinstance(exc, no_args)):
        return exc
    return OneLineUsageError(usage_line(exc), exc.ctx)


def describe_os_error(exc: OSError) -> str:
    """``PATH: why`` (and ``-> PATH2`` for a rename), from an OSError, on one line."""
    why = exc.strerror or str(exc) or type(exc).__name__
    if exc.filename is None:
        return why
    where = short_path(exc.filename)
    if exc.filename2 is not None:
        where += f" -> {short_path(exc.filename2)}"
    return f"{where}: {why}"


def quiet_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush to a closed pipe stays silent."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        return


def _crash_dirs(ctx: click.Context | None) -> list[Path]:
    """Where a crash log may go: the store's crash/ folder, then the temp dir."""
    import tempfile  # only on a crash

    from irscope.model.paths import store_root

    store_dir = ctx.meta.get(STORE_META) if ctx is not None else None
    return [store_root(store_dir) / "crash", Path(tempfile.gettempdir()) / "irscope-crash"]


def write_crash_log(exc: BaseException, ctx: click.Context | None = None) -> Path | None:
    """Write the traceback of ``exc`` (and the command line) to a new crash log; its path, or None."""
    import traceback  # only on a crash: a command that works never formats one

    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    text = (f"irscope {' '.join(sys.argv[1:])}\n"
            + "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)))
    for folder in _crash_dirs(ctx):
        path = folder / f"{stamp}-{os.getpid()}-{os.urandom(3).hex()}.log"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8", errors="backslashreplace")
        except OSError:
            continue
        return path
    return None


def report_crash(exc: BaseException, ctx: click.Context | None = None) -> str:
    """Log ``exc``'s traceback; return ``Type: message (traceback in PATH; IRSCOPE_DEBUG=1 prints it)``."""
    import traceback

    if os.environ.get("IRSCOPE_DEBUG", "") not in ("", "0"):
        traceback.print_exception(type(exc), exc, exc.__traceback__, file=sys.stderr)
    message = " ".join(str(exc).split())
    if len(message) > 300:
        message = message[:300] + "..."
    head = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    path = write_crash_log(exc, ctx)
    where = f"traceback in {path}" if path is not None else "no crash log could be written"
    return f"{head} ({where}; IRSCOPE_DEBUG=1 prints it)"
