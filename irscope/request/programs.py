"""Record the Triton kernels a program compiles (``irscope capture``), and say what such a capture shares."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from irscope.model.paths import store_root
from irscope.store.store import Capture, Manifest, Store

if TYPE_CHECKING:
    from irscope.compile.program import ProgramReport
    from irscope.model.targets import Target

__all__ = ["capture_program", "capture_target", "same_code_note"]


def capture_program(command: list[str], store_dir: str | None, offline: Target | None = None, gpu: str | None = None,
                    autotune: str = "pruned", jobs: int | None = None, same_code: bool = True) -> ProgramReport:
    """Run ``command`` and store every kernel it compiles (offline for ``offline``, answering as ``gpu``); its report.

    ``autotune``, ``jobs`` and ``same_code`` are as in ``irscope.compile.program.run_program``.
    """
    from irscope.compile.program import run_program

    return run_program(command, Store(store_root(store_dir)), offline, gpu, autotune=autotune, jobs=jobs,
                       same_code=same_code)


def capture_target(target: str | None) -> tuple[Target | None, str]:
    """What ``irscope capture [--target T]`` compiles for offline (None: the program runs on the local GPU), and why.

    Without ``--target`` on a machine with no GPU, as every other command does, the default target
    ($IRSCOPE_TARGET, else sm90); the reason, else ``""``, says so in the report's line.
    """
    from irscope.model import targets

    if target:
        return targets.resolve_target(target), ""
    if targets.native_target() is not None:
        return None, ""
    chosen = targets.resolve_target(None)
    return chosen, "no GPU on this machine, so launches compile and do not run; --target chooses another target"


def same_code_note(manifest: Manifest, captures: Iterable[Capture]) -> str:
    """``same code as config 3: ...``: the note of a capture that holds the later stages of the capture
    ``manifest.same_code_as``, that capture looked up among ``captures`` (``another capture`` when absent)."""
    from irscope.compile.same_code_ingest import same_code_line

    owner = next((c.manifest for c in captures if c.manifest.key == manifest.same_code_as), None)
    return same_code_line(owner.config_index if owner is not None else None)
