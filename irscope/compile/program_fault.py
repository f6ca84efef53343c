"""After ``irscope capture -- CMD``: whose fault a program's failure was, in one clause (read from the session).

The hook inside the program (``standin_faults``) leaves a ``fatal`` record for an uncaught exception (its
``cause``: ``irscope`` or ``program``, the ``missing`` piece, ``where`` in irscope it was raised), ``missing``
records for what the stand-ins were asked and could not answer, and Python's stacks at a fatal signal.
Imports neither torch nor Triton.
"""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path
from typing import Any

from irscope.compile.standin_faults import FATAL, MISSING, PACKAGE, STACKS

# Example:   File "/work/irscope/compile/inductor_offline.py", line 71 in _compile_for_target
_FRAME = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+) in (?P<name>\S+)')


def _records(folder: Path) -> list[dict[str, Any]]:
    """The JSON objects of ``folder``, in the order they were written (pid, then counter, in the name)."""
    out = []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(data, dict):
            out.append(data)
    return out


def _irscope_frame_at_signal(stacks: Path) -> str:
    """The innermost irscope frame of the thread that received a fatal signal (faulthandler's dump), or ``""``."""
    try:
        text = stacks.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    current = text.rsplit("Current thread", 1)
    if len(current) < 2:
        return ""
    for line in current[1].splitlines()[1:]:
        match = _FRAME.match(line)
        if match is None:
            if line.strip() and not line.startswith(" "):
                break  # the next thread's block
            continue
        path = Path(match["file"])
        if PACKAGE in path.parents:
            return f"{path.relative_to(PACKAGE.parent)}:{match['line']} in {match['name']}"
    return ""


def _signal_name(exit_code: int) -> str:
    try:
        return signal.Signals(-exit_code).name
    except ValueError:
        return f"signal {-exit_code}"


def _missing_phrase(record: dict[str, Any]) -> str:
    """``has no driver.active.X`` or ``cannot answer X (why)``."""
    missing, why = str(record.get("missing", "")), str(record.get("why", "") or "")
    return f"cannot answer {missing} ({why})" if why else f"has no {missing}"


def failure_clause(session: Path, exit_code: int) -> str:
    """Why the program failed, e.g. ``the program failed because irscope's offline stand-in has no X (not the
    program's fault)``; ``the program failed (exit status 1)`` when nothing points at irscope.
    """
    status = f"exit status {exit_code}" if exit_code >= 0 else f"killed by {_signal_name(exit_code)}"
    answers = {str(m.get("missing")): m for m in _records(session / MISSING)}
    fatal_records = _records(session / FATAL)
    record = fatal_records[-1] if fatal_records else None
    if record is not None and record.get("cause") == "irscope":
        piece = str(record.get("missing") or "")
        if piece:
            asked = answers.get(piece, {"missing": piece})
            return (f"the program failed ({status}) because irscope's offline stand-in {_missing_phrase(asked)}, "
                    "not the program's fault")
        return (f"the program failed ({status}) because of an error in irscope's own code at {record.get('where')} "
                f"({record.get('error')}), not the program's fault")
    if exit_code < 0:
        where = _irscope_frame_at_signal(session / STACKS)
        if where:
            return (f"the program was {status} inside irscope's {where} (irscope's offline stand-in, most "
                    "likely, not the program)")
    if record is None and answers:  # no exception reached the top (sys.exit, a signal): a hint, not a verdict
        last = list(answers.values())[-1]
        return (f"the program failed ({status}) after asking irscope's offline stand-in for {last.get('missing')}, "
                "which it does not answer (that may be why)")
    return f"the program failed ({status})"


def raised_at(exc: BaseException) -> str:
    """`` (raised at torch/cuda/__init__.py:412 in _lazy_init)``: where its innermost cause was raised."""
    import traceback

    seen: set[int] = set()
    while id(exc) not in seen and (exc.__cause__ or exc.__context__) is not None:
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    parts = Path(last.filename).parts
    short = "/".join(parts[parts.index("site-packages") + 1:]) if "site-packages" in parts else last.filename
    return f" (raised at {short}:{last.lineno} in {last.name})"
