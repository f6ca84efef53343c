"""A capture's per-pass dump on demand, and the pass effects cached beside it.

``get_pass_dump`` returns the stored dump (irscope.store.passdump reads it) or, on a miss, compiles the
capture's request again with dumps on (irscope.compile.passes), one irscope at a time per capture.
``cached_pass_table`` computes what each pass changed once and keeps it in ``passes.<flavour>.effects.json``
beside the dump, valid for one version of the analysis (irscope.analysis.passes).
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import irscope.store.locks as locks
from irscope.analysis.passes import VERSION as EFFECTS_VERSION
from irscope.analysis.passes import PassTable, effects_to_json, pass_table
from irscope.compile.job import CaptureJob, JobSource, as_job
from irscope.errors import StoreError
from irscope.store.passdump import PassDump, load_dump
from irscope.store.passwrite import atomic_write_text, effects_path
from irscope.store.store import Capture, Store, store_error

__all__ = ["CachedEffects", "cached_pass_table", "get_pass_dump", "read_effects", "write_effects"]


@dataclass(frozen=True)
class CachedEffects:
    """Effects stored beside a dump, valid for one analysis version.

    Attributes:
        version: the analysis version that computed them.
        rows: their JSON form.
    """

    version: str
    rows: list[dict[str, Any]] = field(default_factory=list)


def read_effects(directory: Path, flavour: str, file: str) -> CachedEffects | None:
    """Cached effects for the dump in ``file``, or None."""
    try:
        data = json.loads(effects_path(directory, flavour).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("file") != file:
        return None
    rows = data.get("rows")
    if not isinstance(rows, list) or not all(isinstance(r, dict) for r in rows):
        return None  # damaged: computed again from the dump
    return CachedEffects(version=str(data.get("version", "")), rows=rows)


def write_effects(directory: Path, flavour: str, file: str, version: str, rows: list[dict[str, Any]]) -> None:
    """Cache effects beside the dump (best effort: a read-only store just recomputes them)."""
    try:
        atomic_write_text(effects_path(directory, flavour),
                          json.dumps({"file": file, "version": version, "rows": rows}))
    except OSError:
        return


def get_pass_dump(request: CaptureJob | JobSource, capture: Capture, llvm: bool = False, recapture: bool = False,
                  on_compile: Callable[[Capture], None] | None = None) -> PassDump:
    """The capture's per-pass dump, compiling once more with dumps on when it has none (or when asked)."""
    flavour = "llvm" if llvm else "mlir"
    store = Store(capture.path.parent.parent)
    # One irscope at a time compiles a capture's dump; the others wait, then read what it stored.
    with locks.exclusive(store.locks_dir / f"{capture.manifest.key}.lock", f"capture {capture.manifest.key}"):
        if not recapture and (found := load_dump(capture.path, flavour)) is not None:
            return found
        job = as_job(request)  # a stored capture's request: checks first that its Python may be imported
        if not os.access(capture.path, os.W_OK):
            raise store_error(store.root, OSError(errno.EACCES, "read-only"), "storing a per-pass dump")
        if on_compile is not None:
            on_compile(capture)
        from irscope.compile.passes import capture_passes
        from irscope.toolchain.tritons import resolve, triton_version, using

        # The dump is the capture's own compile printed pass by pass: its Triton, whichever this command chose.
        made_by = capture.manifest.triton_version
        with using(resolve(made_by, store.root) if made_by and made_by != triton_version() else None):
            capture_passes(job, capture, llvm=llvm)
        found = load_dump(capture.path, flavour)
    if found is None:
        raise StoreError(f"the per-pass dump of {capture.manifest.key} was written but cannot be read back")
    return found


def cached_pass_table(dump: PassDump) -> PassTable:
    """The dump's pass table, from the effects cached beside it when they are current."""
    directory, flavour = dump.path.parent, dump.info.flavour
    cached = read_effects(directory, flavour, dump.info.file)
    if cached is not None and cached.version == EFFECTS_VERSION:
        try:
            return pass_table(dump, cached.rows)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            pass  # a damaged cache: computed again from the dump below
    from irscope.analysis.effects_split import split_pass_effects

    table = pass_table(dump, effects=split_pass_effects)  # a large dump's in two processes
    if not table.problems:
        write_effects(directory, flavour, dump.info.file, EFFECTS_VERSION, effects_to_json(table.rows))
    return table
