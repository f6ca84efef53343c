"""Inside an offline ``irscope capture``: what irscope's stand-ins could not answer, and a program's death they caused.

A stand-in that is asked for something it has no answer for records the piece (``missing`` records: a probe the
program survives is never reported) and raises an exception that names it. When the program then dies, an
exception hook records whose fault it was (a ``fatal`` record: ``cause`` ``irscope`` when the exception, or one it
was raised from, names a missing piece or was raised in irscope's own code; else ``program``), and a fatal signal
(a C++ abort) leaves Python's stacks in the session for the parent to read (``program_fault``).
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import sys
import traceback
from pathlib import Path
from types import TracebackType
from typing import Any, NoReturn

from irscope.compile.records import hook_settings
from irscope.compile.session import session_folder, write_record

MISSING = "missing"  # the session folder of pieces asked for and not answered
FATAL = "fatal"  # the session folder of the program's uncaught exception: whose fault it was
STACKS = "fatal-stacks.txt"  # Python's stacks at a fatal signal (faulthandler), in the session folder
PACKAGE = Path(__file__).resolve().parents[1]  # irscope/


class StandInCannot(RuntimeError):
    """A stand-in was asked for something that cannot be answered offline (``missing`` names it)."""

    def __init__(self, missing: str, why: str) -> None:
        super().__init__(f"irscope's offline stand-in cannot answer {missing}: {why}")
        self.irscope_missing = missing


class StandInHasNo(AttributeError):
    """A stand-in object has no such attribute (the real driver or module may have it)."""

    def __init__(self, missing: str) -> None:
        super().__init__(f"irscope's offline stand-in has no {missing} (a real GPU's may; irscope does not answer it)")
        self.irscope_missing = missing


def note_missing(missing: str, why: str = "") -> None:
    """Record that the program asked for ``missing``, which the stand-in does not answer (outside a capture:
    nothing)."""
    if hook_settings() is not None:
        write_record(MISSING, {"missing": missing, "why": why})


def cannot(missing: str, why: str) -> NoReturn:
    """Record ``missing`` and raise StandInCannot: what was asked needs a GPU that runs things."""
    note_missing(missing, why)
    raise StandInCannot(missing, why)


def has_no(owner: str, name: str) -> AttributeError:
    """The AttributeError for ``owner.name``, recorded as missing unless private (``_obj``, ``__deepcopy__``: the
    probes of Inductor and of Python itself, which real drivers do not answer either)."""
    if name.startswith("_"):
        return AttributeError(name)
    note_missing(f"{owner}.{name}")
    return StandInHasNo(f"{owner}.{name}")


def _irscope_frame(tb: TracebackType | None) -> str:
    """``irscope/compile/x.py:12 in fn`` when the innermost frame of ``tb`` is irscope's own code, else ``""``."""
    frames = traceback.extract_tb(tb)
    if not frames:
        return ""
    last = frames[-1]
    path = Path(last.filename).resolve()
    if PACKAGE not in path.parents:
        return ""
    return f"{path.relative_to(PACKAGE.parent)}:{last.lineno} in {last.name}"


def blame(exc: BaseException) -> dict[str, Any]:
    """Whose fault an uncaught exception is: a ``fatal`` record (cause, missing, where, error)."""
    error = f"{type(exc).__name__}: {(str(exc).strip().splitlines() or [''])[0]}"
    seen: set[int] = set()
    todo: list[BaseException | None] = [exc]
    while todo:
        current = todo.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        missing = getattr(current, "irscope_missing", None)
        if isinstance(missing, str):
            return {"cause": "irscope", "missing": missing, "where": _irscope_frame(current.__traceback__),
                    "error": error}
        todo.extend([current.__cause__, current.__context__])
    where = _irscope_frame(exc.__traceback__)
    return {"cause": "irscope" if where else "program", "missing": "", "where": where, "error": error}


def install() -> None:
    """Record the program's uncaught exception with its blame, and Python's stacks at a fatal signal."""
    previous = sys.excepthook

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        with contextlib.suppress(OSError):  # the session folder is gone: the exception is still printed below
            write_record(FATAL, blame(exc))
        previous(kind, exc, tb)

    sys.excepthook = hook
    stacks = open(session_folder() / STACKS, "a", encoding="utf-8")  # noqa: SIM115 (open for the process's life)
    faulthandler.enable(file=stacks, all_threads=True)
    os.register_at_fork(after_in_child=faulthandler.disable)  # a forked compiler's death is its own
