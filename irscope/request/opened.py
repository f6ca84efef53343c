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

from irscope.errors import UsageError
from irscope.model.kernelspec import RecordedKernel
from irscope.model.targets import TARGETS, Target
from irscope.request.captures import Request
from irscope.request.opened_files import from_ttir, is_opened, recompile_refusal, recorded_module
from irscope.store.store import Capture

__all__ = ["from_ttir", "is_opened", "opened_request", "recompile_refusal"]


def opened_request(capture: Capture) -> Request:
    """The request that compiles the opened capture's recorded module again, as the artifact recorded it."""
    m = capture.manifest
    path = recorded_module(capture)
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
