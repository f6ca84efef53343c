"""Offline, each skipped launch's grid, integer arguments, tensor sizes and small integer tensors' contents, kept
for ``irscope perf``.

Under ``--target`` the JIT cache hook skips every launch, so Triton never evaluates the grid. The wrapped
``JITFunction.run`` evaluates it here the way the JIT would (a callable grid is given the bound arguments),
binds the arguments to parameter names, and writes a ``launches`` record keyed by the launch's specialization
(``spec_key``); the compile of that specialization carries the same key in its record, so the parent stores
each capture with the launches that made it.
"""

from __future__ import annotations

import hashlib
import inspect
from typing import Any

from irscope.compile.session import _STATE, write_record

__all__ = ["note_launch", "spec_key"]

_MAX_LAUNCHES = 16  # per specialization: a program's loop may launch one kernel thousands of times


def spec_key(specialization: str) -> str:
    """A short key of Triton's specialization data (the JSON ``JITFunction.preload`` takes)."""
    return hashlib.sha256(specialization.encode()).hexdigest()[:24]


def _bound(jit: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
    """The launch's arguments by parameter name, defaults filled in (what the JIT's binder hands a grid)."""
    names = list(getattr(jit, "arg_names", []) or [])
    bound: dict[str, Any] = {}
    for param in getattr(jit, "params", []) or []:
        default = getattr(param, "default", inspect.Parameter.empty)
        if getattr(param, "name", None) and default is not inspect.Parameter.empty:
            bound[param.name] = default
    bound.update(zip(names, args, strict=False))
    bound.update({k: v for k, v in kwargs.items() if k in names})
    return bound


def note_launch(jit: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Record the launch the JIT just skipped (never raises: a grid that cannot be evaluated is not recorded)."""
    key = getattr(_STATE, "launch_spec", None)
    _STATE.launch_spec = None
    if key is None or kwargs.get("warmup"):
        return
    counts: dict[str, int] = _STATE.__dict__.setdefault("launch_counts", {})
    if counts.get(key, 0) >= _MAX_LAUNCHES:
        return
    try:
        from irscope.compile.launch_values import launch_note, launch_shape

        bound = _bound(jit, args, kwargs)
        grid = kwargs.get("grid")
        if callable(grid):
            grid = grid(bound)
        shape = launch_shape(list(bound), list(bound.values()), {}, grid, {}, "the program's launch",
                             record_data=True)
    except Exception:  # the program's grid function failed on its arguments: nothing to record
        return
    counts[key] = counts.get(key, 0) + 1
    write_record("launches", {"key": key, "name": str(getattr(jit, "__name__", "?")), **launch_note(shape)})
