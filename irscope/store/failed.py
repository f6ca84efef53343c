"""Compiles Triton rejected, remembered under their capture key so a later command answers at once.

Layout under the store root: ``failed/<key>.json``, one small record per rejected compile, written whole
(a temporary file renamed into place) and never inside ``captures/`` or ``staging/``: a rejected compile
is not a capture, half-made or otherwise. The key is the capture key, so the record covers exactly what
the capture would: the kernel's source, its specialization, constexprs and options, the target, the
Triton version and the compile environment. Change any of them and the compile runs again.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from irscope.store.manifest_fields import KEY_RE

FOLDER = "failed"
_MAX_BYTES = 256 * 1024  # a record holds one compile message; a larger file is not one of ours
_MAX_REASON = 240


@dataclass(frozen=True)
class FailedCompile:
    """A compile Triton rejected.

    Attributes:
        key: the capture key the compile would have stored.
        kernel: the kernel's name.
        target: the target name (``sm90``).
        triton_version: the Triton that rejected it.
        when: when, in UTC (``2026-12-02T00:41:07Z``).
        reason: the last line of Triton's message (``AssertionError: ... must be >= 16!``).
        message: Triton's whole message, as the failed command printed it.
    """

    key: str
    kernel: str
    target: str
    triton_version: str
    when: str
    reason: str
    message: str


def reason_line(message: str) -> str:
    """The one line that says why, shortened: after irscope's ``Triton could not compile K (Error): `` head, the
    reason its first line gives; else the last non-empty line of Triton's message."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    head = "Triton could not compile "
    if lines and head in lines[0] and "): " in lines[0].split(head, 1)[1]:
        line = lines[0].split(head, 1)[1].split("): ", 1)[1]
    else:
        line = lines[-1] if lines else "no message"
    return line if len(line) <= _MAX_REASON else line[: _MAX_REASON - 3] + "..."


def now_utc() -> str:
    """The time now, as ``FailedCompile.when`` holds it."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _path(root: Path, key: str) -> Path | None:
    if not KEY_RE.match(key) or "/" in key or "\\" in key:
        return None
    return root / FOLDER / f"{key}.json"


def failed_compile(root: Path, key: str) -> FailedCompile | None:
    """The remembered rejection of this compile; None when there is none (or its record cannot be read)."""
    path = _path(root, key)
    try:
        if path is None or not path.is_file() or path.stat().st_size > _MAX_BYTES:
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    fields = FailedCompile.__dataclass_fields__
    if not isinstance(data, dict) or set(data) != set(fields) or not all(isinstance(v, str) for v in data.values()):
        return None  # not a record this irscope wrote: the compile runs again
    found = FailedCompile(**data)
    return found if found.key == key else None


def remember_failure(root: Path, failure: FailedCompile) -> None:
    """Keep ``failure`` (replacing an older one for the same key), atomically; a store that cannot be written keeps
    none."""
    path = _path(root, failure.key)
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(asdict(failure), indent=1), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        return  # remembering is an optimisation: the next command compiles again


def forget_failure(root: Path, key: str) -> None:
    """Drop the remembered rejection of this compile (it compiled after all)."""
    path = _path(root, key)
    if path is not None:
        try:
            path.unlink(missing_ok=True)
        except OSError:
            return
