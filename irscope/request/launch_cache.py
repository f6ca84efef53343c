"""A bundled kernel's launch (grid, integer arguments, tensor sizes) for the performance model, kept in the store.

Evaluating the kernel module's ``kernel_args`` / ``make_tensors`` / ``grid`` imports the module, and so
Triton (about a second). The result depends only on the module's text, the config, the sizes and the SM
count, so it is stored under the capture's ``derived/`` (beside the tools' cached output) keyed by a hash
of those, and a later ``irscope perf`` of the same launch reads it without importing Triton. The file is
untrusted input: one that does not hold exactly the expected shapes is ignored and made again. It is written
under a temporary name and renamed; a read-only store keeps it in memory only.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from irscope.model.launch import LaunchShape, TensorBytes, data_from_json, data_to_json
from irscope.toolchain.derived import derived_file, write_derived

__all__ = ["cached_launch", "launch_key", "recorded_launches"]

_FORMAT = 1
_ROLES = ("input", "output", "inout")
_MEMO: dict[str, LaunchShape] = {}


def launch_key(module_path: Path, function: str, backend: str, config: dict[str, Any], sizes: dict[str, int],
               sm_count: int, compiled_sms: int | None = None) -> str:
    """The sha256 of everything the launch depends on (the module's text and the SMs compiled into it included)."""
    digest = hashlib.sha256(module_path.read_bytes())
    digest.update(json.dumps([function, backend, config, sizes, sm_count, compiled_sms], sort_keys=True,
                             default=str).encode())
    return digest.hexdigest()


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _decode(data: Any) -> LaunchShape | None:
    """A stored launch, or None when the file is not exactly what :func:`_encode` writes."""
    if not isinstance(data, dict) or data.get("format") != _FORMAT:
        return None
    grid, values, tensors, origin = data.get("grid"), data.get("values"), data.get("tensors"), data.get("origin")
    if not (isinstance(grid, list) and len(grid) == 3 and all(_is_int(g) and g >= 1 for g in grid)):
        return None
    if not (isinstance(values, dict) and all(isinstance(k, str) and _is_int(v) for k, v in values.items())):
        return None
    if not (isinstance(tensors, list) and all(isinstance(t, list) and len(t) == 3 and isinstance(t[0], str)
                                              and _is_int(t[1]) and t[1] >= 0 and t[2] in _ROLES for t in tensors)):
        return None
    if not isinstance(origin, str):
        return None
    contents, problem = data_from_json(data.get("data"))
    skipped = data.get("not_recorded", [])
    if problem or not (isinstance(skipped, list) and all(isinstance(n, str) for n in skipped)):
        return None
    return LaunchShape((grid[0], grid[1], grid[2]), dict(values),
                       tuple(TensorBytes(t[0], t[1], t[2]) for t in tensors), origin, contents, tuple(skipped))


def _encode(shape: LaunchShape) -> dict[str, Any]:
    return {"format": _FORMAT, "grid": list(shape.grid), "values": dict(shape.values),
            "tensors": [[t.name, int(t.nbytes), t.role] for t in shape.tensors], "origin": shape.origin,
            **({"data": data_to_json(shape.data)} if shape.data else {}),
            **({"not_recorded": list(shape.not_recorded)} if shape.not_recorded else {})}


def cached_launch(capture_dir: Path, key: str, make: Callable[[], LaunchShape]) -> LaunchShape:
    """The launch stored under ``key`` in the capture's ``derived/``, else ``make()`` (then stored)."""
    if key in _MEMO:
        return _MEMO[key]
    name = f"launch-{key[:32]}.json"
    try:
        shape = _decode(json.loads(derived_file(capture_dir, name).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        shape = None
    if shape is None:
        shape = make()
        write_derived(capture_dir, name, json.dumps(_encode(shape)))  # read-only store: kept in memory only
    _MEMO[key] = shape
    return shape


def recorded_launches(capture_dir: Path, files: dict[str, str]) -> list[LaunchShape]:
    """The launches a program capture recorded (``LAUNCHES_FILE``), in launch order; malformed entries are left out."""
    name = files.get("launches")
    if not name:
        return []
    try:
        data = json.loads((capture_dir / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    shapes = [_decode({"format": _FORMAT, "origin": "", **entry}) for entry in data if isinstance(entry, dict)] \
        if isinstance(data, list) else []
    return [s for s in shapes if s is not None]
