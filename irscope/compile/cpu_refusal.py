"""Inside an offline ``irscope capture``: saying so when a library refused a tensor because it is on the CPU.

The stand-in keeps the program's tensors on the CPU, and a tensor honestly says ``device(type='cpu')`` with
index None. Some libraries dispatch on that (FlagGems' ``where`` asserts one operand is not on the CPU, gemlite
indexes a per-GPU list with ``tensor.device.index``) and fail where a GPU's tensor would have passed. When an
exception leaves the program (or a corpus case), the innermost frame of the program's own code is looked at:
if its failing line reads a device and its locals hold what a CPU tensor answers (a ``cpu`` device, a device
index of None, a list of non-CPU devices left empty), a failure record says so, with cause ``irscope``.
"""

from __future__ import annotations

import linecache
import sys
import traceback
from pathlib import Path
from types import TracebackType
from typing import Any

MISSING = "tensors on the GPU (the offline stand-in keeps them on the CPU)"
# frames of these are not the program's: the refusal is looked for past them
_LIBRARIES = ("irscope", "torch", "triton")


def _cpu_evidence(name: str, value: Any) -> bool:
    """Whether a local is what a CPU tensor's device answers: a cpu device, a None index, an empty device list."""
    if getattr(value, "type", None) == "cpu" and type(value).__name__ == "device":
        return True
    if "device" not in name.lower():
        return False
    return value is None or (isinstance(value, list) and not value)


def _refusing_frame(tb: TracebackType | None) -> tuple[str, int, str, str] | None:
    """(file, line, function, source line) of the innermost program frame that failed reading a CPU device."""
    frames: list[tuple[Any, int]] = []
    while tb is not None:
        frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    for frame, lineno in reversed(frames):
        path = frame.f_code.co_filename
        if str(frame.f_globals.get("__name__", "")).split(".")[0] in _LIBRARIES:
            continue
        source = linecache.getline(path, lineno).strip()
        if "device" not in source:
            return None  # the program's own failing line does not read a device
        if any(_cpu_evidence(name, value) for name, value in frame.f_locals.items()):
            return path, lineno, frame.f_code.co_name, source
        return None
    return None


def explain(exc: BaseException) -> dict[str, str] | None:
    """The failure record for ``exc`` when a CPU device answer made the program fail, else None."""
    found = _refusing_frame(exc.__traceback__)
    if found is None:
        return None
    path, lineno, function, source = found
    error = (traceback.format_exception_only(type(exc), exc)[-1].strip().splitlines() or [""])[0]
    where = f"{Path(path).parent.name}/{Path(path).name}:{lineno}"
    return {"name": function, "cause": "irscope", "missing": MISSING,
            "error": f"{where} refused a CPU tensor (`{source[:80]}`: {error[:160]}): the offline stand-in keeps "
                     "tensors on the CPU, where a GPU's would say cuda:0"}


def record(exc: BaseException) -> None:
    """Write ``exc``'s failure record into the capture session when a CPU device answer caused it."""
    from irscope.compile.session import write_record

    found = explain(exc)
    if found is not None:
        write_record("failures", found)


def install() -> None:
    """Record, as the program ends with an exception, whether it was a CPU device answer that failed it."""
    previous = sys.excepthook

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        try:
            record(exc)
        finally:
            previous(kind, exc, tb)

    sys.excepthook = hook
