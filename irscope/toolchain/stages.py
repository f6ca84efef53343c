"""A capture's stages, those the toolchain makes included: the one way to read a stage that may be derived.

A capture keeps the files Triton wrote, except the ones irscope makes later from another of its files:
an NVIDIA capture keeps no ``.sass``, and its SASS text is made from the cubin with cuobjdump on first
read (irscope.toolchain.sass_lazy, cached in ``derived/``). Which stage is made from what is one fact of
the stage registry (``Stage.made_from``, irscope.model.stages.made_from). The store reads files only: it
refuses such a stage (``DerivedStageError``) instead of running a tool, so every reader of a stage that
may be derived (``show``, ``diff``, ``compare``, the TUI) reads it here and no reader gets half a capture.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from irscope.model.stages import Stage, get_stage, made_from

if TYPE_CHECKING:
    from irscope.toolchain.derived import StoredCapture

__all__ = ["derived_from", "has_stage", "read_stage"]


def derived_from(capture: StoredCapture, stage: Stage | str) -> str:
    """The artifact a stage is made from because the capture keeps no file of it (``cubin`` for SASS), else ""."""
    name = stage.name if isinstance(stage, Stage) else stage
    return made_from(name, capture.manifest.backend, capture.manifest.files)


def has_stage(capture: StoredCapture, name: str) -> bool:
    """Whether the capture has a stage: a file of its own, or one the toolchain makes from another of its files."""
    return name in capture.manifest.files or bool(derived_from(capture, name))


def read_stage(capture: StoredCapture, stage: Stage | str) -> str:
    """The text of a stage: read from the capture's file, or made from the file it derives from (cached).

    Raises StoreError (DamagedCaptureError when a file's size differs from the manifest's) when it cannot be
    read or made; UsageError for a stage the capture's backend does not have.
    """
    source = derived_from(capture, stage)
    if not source:
        return capture.read(stage)
    capture.artifact_path(source)  # the cubin's size checked, as a stored stage's is
    st = get_stage(stage, capture.manifest.backend) if isinstance(stage, str) else stage
    if st.name == "sass":
        from irscope.toolchain.sass_lazy import sass_from_cubin

        return sass_from_cubin(capture)
    raise AssertionError(f"no maker for the {st.name} stage, made from the {source}")
