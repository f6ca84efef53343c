"""The frozen registry of compilation stages irscope captures and shows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from irscope.errors import UsageError, unknown


@dataclass(frozen=True)
class Stage:
    """One artifact of a compilation, in pipeline order.

    Attributes:
        name: what users type after ``--stage``.
        ext: Triton's file extension for it (``source`` is our copy of the kernel's .py file).
        display: a human title.
        order: position in the pipeline, source first.
        lexer: name of the syntax highlighter (see irscope.views.highlight).
        backends: Triton backends that produce it.
        made_from: the artifact the toolchain makes it from when a capture keeps no file of it (SASS: the
            cubin, with cuobjdump; see irscope.toolchain.stages), else "".
    """

    name: str
    ext: str
    display: str
    order: int
    lexer: str
    backends: tuple[str, ...] = ("cuda", "hip")
    made_from: str = ""


STAGES: tuple[Stage, ...] = (
    Stage(name="source", ext="py", display="Python source", order=0, lexer="python"),
    # A @gluon.jit kernel's first IR, before any pass (Triton's code generator wrote its layouts as the author did);
    # such a kernel has no ttir. Triton 3.9 names it ``glir`` in CompiledKernel.asm and in its cache.
    Stage(name="glir", ext="glir", display="Gluon IR", order=1, lexer="mlir"),
    Stage(name="ttir", ext="ttir", display="Triton IR", order=1, lexer="mlir"),
    Stage(name="ttgir", ext="ttgir", display="TritonGPU IR", order=2, lexer="mlir"),
    Stage(name="llir", ext="llir", display="LLVM IR", order=3, lexer="llvm"),
    Stage(name="ptx", ext="ptx", display="PTX", order=4, lexer="ptx", backends=("cuda",)),
    Stage(name="sass", ext="sass", display="SASS", order=5, lexer="sass", backends=("cuda",),
          made_from="cubin"),
    Stage(name="amdgcn", ext="amdgcn", display="AMDGCN assembly", order=4, lexer="amdgcn", backends=("hip",)),
)

STAGE_NAMES: tuple[str, ...] = tuple(s.name for s in STAGES)
_BY_NAME = {s.name: s for s in STAGES}


def stages_for(backend: str) -> tuple[Stage, ...]:
    """The stages a backend produces, in pipeline order."""
    return tuple(s for s in sorted(STAGES, key=lambda s: s.order) if backend in s.backends)


def get_stage(name: str, backend: str | None = None) -> Stage:
    """Look a stage up by name; with a backend, refuse stages that backend does not produce."""
    stage = _BY_NAME.get(name.lower())
    if stage is None:
        raise unknown("stage", name, STAGE_NAMES)
    if backend is not None and backend not in stage.backends:
        have = ", ".join(s.name for s in stages_for(backend))
        raise UsageError(f"stage {name!r} does not exist for {backend} targets; this target has: {have}")
    return stage


def made_from(name: str, backend: str, files: Mapping[str, str]) -> str:
    """The artifact a capture's stage is made from because the capture keeps no file of it (SASS: ``cubin``), else "".

    ``files`` is the capture's manifest's (stage or artifact name -> file name).
    """
    stage = _BY_NAME.get(name.lower())
    if stage is None or not stage.made_from or backend not in stage.backends or stage.name in files:
        return ""
    return stage.made_from if stage.made_from in files else ""
