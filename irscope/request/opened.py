"""Compiling a capture that ``irscope open`` made from Triton's own artifacts again, for its per-pass dump.

A Triton cache entry keeps ``<name>.source``: the module Triton's code generator made from the kernel's Python,
before any pass ran. Compiled with the recorded signature, ``tt.divisibility`` attributes and options for the
recorded target, through the same Triton, it is the original compile again, pass by pass
(irscope.compile.recorded_ir). No Python of the artifact is imported or run: the module is MLIR text, read by
Triton's parser in a worker process. A kernel dump folder and a TritonParse trace keep no ``<name>.source``; their
TTIR is compiled instead (the TTIR passes then change nothing; the rest is the original compile). The trace's
``python_source`` is not used: the code generator needs the function object, which only running the kernel's
file (its imports, decorators and defaults) makes, and irscope runs nothing of an opened artifact.
"""

from __future__ import annotations

from typing import Any

from irscope.compile.recorded_ir import recorded_ir_path
from irscope.errors import UsageError
from irscope.model.kernelspec import RecordedKernel
from irscope.model.targets import TARGETS, Target
from irscope.request.captures import Request
from irscope.store.ingest.entry import ORIGINS
from irscope.store.store import Capture

__all__ = ["from_ttir", "is_opened", "opened_request", "recompile_refusal"]


def is_opened(capture: Capture) -> bool:
    """Whether ``irscope open`` made the capture from Triton's own artifacts."""
    return capture.manifest.origin in ORIGINS


def _recorded(capture: Capture) -> str | None:
    """The capture's file the compile starts from: ``<name>.source``, else (a TritonParse trace keeps none) its TTIR;
    None when it has neither."""
    m = capture.manifest
    if "recorded_ir" in m.files and recorded_ir_path(capture.path, m.kernel) is not None:
        return m.files["recorded_ir"]
    if "ttir" in m.files and (capture.path / m.files["ttir"]).is_file():
        return m.files["ttir"]
    return None


def from_ttir(capture: Capture) -> bool:
    """Whether compiling the opened capture again starts from its TTIR (no ``<name>.source`` was recorded): the TTIR
    passes then run on their own output and change nothing; from TTGIR on it is the original compile."""
    name = _recorded(capture)
    return name is not None and name == capture.manifest.files.get("ttir")


def recompile_refusal(capture: Capture) -> str:
    """The one line that says why an opened capture is not compiled by itself, and the command that would."""
    m = capture.manifest
    where = f"{m.key} was opened from {ORIGINS[m.origin]} ({m.program})"
    name = _recorded(capture)
    if name is not None:
        made = f"Triton {m.triton_version}" if m.triton_version else "the chosen Triton (the artifact does not say " \
            "which wrote it)"
        return (f"{where}; compiling it again reads its recorded module ({name}; no Python is run) with {made}: "
                f"irscope passes {m.key} --recompile")
    return (f"{where}, which keeps neither <name>.source nor TTIR, so it cannot be compiled again without running "
            "the kernel's Python, which irscope does not do for opened artifacts; capture the kernel itself: irscope "
            "capture -- CMD, or FILE:FUNCTION with --args")


def opened_request(capture: Capture) -> Request:
    """The request that compiles the opened capture's recorded module again, as the artifact recorded it."""
    m = capture.manifest
    path = _recorded(capture)
    if path is None or not m.signature:
        raise UsageError(recompile_refusal(capture))
    names = list(m.signature)
    replay: dict[str, Any] = {
        "signature": dict(m.signature),
        "constants": [],  # folded into the recorded module by the frontend
        "attrs": [[[names.index(k)], v] for k, v in m.attrs.items() if k in names],
        "options": {k: v for k, v in m.options.items() if k != "triton_version"},
        "ir_only": True,  # never compiled from Python: the worker refuses rather than import anything
        "file": m.kernel_path,
    }
    target = TARGETS.get(m.target) or Target(name=m.target, backend=m.backend, arch=m.arch, warp_size=m.warp_size,
                                             description="recorded target")
    kernel = RecordedKernel(path=capture.path / path, qualname=m.kernel, replay=replay, key=m.key)
    return Request(kernel=kernel, target=target, config_index=m.config_index, sizes={})
