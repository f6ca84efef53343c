"""What an opened capture (``irscope open``) holds to be compiled again from, and the one line that says so.

The module a compile of it starts from: the cache's ``<name>.source`` (Triton's frontend's module), else its
TTIR (a kernel dump folder and a TritonParse trace keep no ``.source``). irscope.request.opened makes the request
that compiles it; this module reads only the capture's manifest and files (no request, no Triton).
"""

from __future__ import annotations

from irscope.compile.recorded_ir import recorded_ir_path
from irscope.store.ingest.entry import ORIGINS
from irscope.store.store import Capture

__all__ = ["from_ttir", "is_opened", "recompile_refusal", "recorded_module"]


def is_opened(capture: Capture) -> bool:
    """Whether ``irscope open`` made the capture from Triton's own artifacts."""
    return capture.manifest.origin in ORIGINS


def recorded_module(capture: Capture) -> str | None:
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
    name = recorded_module(capture)
    return name is not None and name == capture.manifest.files.get("ttir")


def recompile_refusal(capture: Capture) -> str:
    """The one line that says why an opened capture is not compiled by itself, and the command that would."""
    m = capture.manifest
    where = f"{m.key} was opened from {ORIGINS[m.origin]} ({m.program})"
    name = recorded_module(capture)
    if name is not None:
        made = f"Triton {m.triton_version}" if m.triton_version else "the chosen Triton (the artifact does not say " \
            "which wrote it)"
        return (f"{where}; compiling it again reads its recorded module ({name}; no Python is run) with {made}: "
                f"irscope passes {m.key} --recompile")
    return (f"{where}, which keeps neither <name>.source nor TTIR, so it cannot be compiled again without running "
            "the kernel's Python, which irscope does not do for opened artifacts; capture the kernel itself: irscope "
            "capture -- CMD, or FILE:FUNCTION with --args")
