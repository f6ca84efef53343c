"""Compile a recorded kernel again from the IR Triton generated when the program ran.

``irscope capture -- CMD`` stores, beside each kernel's artifacts, ``<kernel>.source``: the module
Triton's code generator made from the kernel's Python, before any pass ran (Triton writes it to its
cache as ``<name>.source``). The per-pass worker compiles that module with the recorded options,
so no file of the program is read or imported: not the kernel's module, not the package around
it, not the helpers it calls from other files (``irscope.compile.replay`` re-creates the kernel's
module from its source text, which still imports what the kernel imports). Triton runs every stage
on it as on the original compile, TTIR passes included: the module stands where the code
generator's output stood. Used only when the capture's Triton is the one installed (the module is
that Triton's IR).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from irscope.errors import UsageError
from irscope.model.kernelspec import RecordedKernel
from irscope.model.targets import Target


def recorded_ir_path(capture_dir: Path, kernel: str) -> Path | None:
    """The capture's recorded pre-pass module, or None when it has none (older captures, other Tritons)."""
    named = capture_dir / f"{kernel[:150]}.source"
    if named.is_file():
        return named
    found = sorted(capture_dir.glob("*.source"))
    return found[0] if len(found) == 1 else None


@dataclass(frozen=True)
class RecordedIRJob:
    """What ``triton.compile`` needs to compile a recorded module (the worker's job interface).

    Attributes:
        path: the recorded ``.source`` module.
        name: the kernel's name.
        gpu_target: Triton's GPUTarget.
        signature: argument name -> Triton type.
        constexprs: argument path -> value.
        attrs: argument path -> attributes.
        options: backend options.
        gluon: whether the module is Gluon IR (a ``@gluon.jit`` kernel's: the capture keeps a ``.glir`` beside it),
            so Triton runs Gluon's stages on it, not the TTIR passes.
    """

    path: Path
    name: str
    gpu_target: Any
    signature: dict[str, str]
    constexprs: dict[tuple[int, ...], Any]
    attrs: dict[tuple[int, ...], Any]
    options: dict[str, Any]
    gluon: bool = False

    def source(self) -> Any:
        """An ASTSource whose IR is the recorded module (so every stage, TTIR's included, runs on it)."""
        return _source_class()(self)


def recorded_ir_job(kernel: RecordedKernel, target: Target, path: str) -> RecordedIRJob:
    """The recorded compile of ``kernel``, from its recorded module at ``path``."""
    from irscope.compile.function import recorded_constexprs, recorded_options
    from irscope.compile.specialize import gpu_target

    # No driver is asked for anything: the kernel's Python (whose target checks would) does not run,
    # and probing the machine's drivers imports torch (AMD's driver does), half a gigabyte.
    replay = kernel.replay
    tgt = gpu_target(target)
    return RecordedIRJob(path=Path(path), name=kernel.name, gpu_target=tgt, signature=dict(replay["signature"]),
                         constexprs=recorded_constexprs(replay),
                         attrs={tuple(p): value for p, value in replay.get("attrs", [])},
                         options=recorded_options(replay, tgt), gluon=Path(path).with_suffix(".glir").is_file())


def _source_class() -> type:
    """Triton's ASTSource with the code generator replaced by reading the recorded module."""
    from triton._C.libtriton import ir
    from triton.compiler import ASTSource

    class RecordedSource(ASTSource):
        """The kernel as Triton's code generator made it when the program ran."""

        def __init__(self, job: RecordedIRJob) -> None:
            # A stand-in for the JITFunction: ASTSource reads only its name (and argument names for
            # constexprs keyed by name; recorded ones are keyed by position).
            fn = SimpleNamespace(__name__=job.name, arg_names=list(job.signature))
            super().__init__(fn, dict(job.signature), dict(job.constexprs), dict(job.attrs))
            if job.gluon:  # as GluonASTSource: Gluon's pipeline, from Gluon IR
                from triton.backends.compiler import Language

                self.language, self.ext = Language.GLUON, "glir"
            self.recorded = job.path
            try:
                self.text = job.path.read_text(encoding="utf-8")
            except OSError as exc:
                raise UsageError(f"the recorded IR {job.path} cannot be read: {exc.strerror}") from None

        def hash(self) -> str:
            sig = [v for _, v in sorted(self.signature.items())]
            key = f"recorded-{self.text}-{self.attrs}-{sig}-{sorted(map(str, self.constants.items()))}"
            return hashlib.sha256(key.encode("utf-8")).hexdigest()

        def make_ir(self, *args: Any, **kwargs: Any) -> Any:
            context = kwargs.get("context", args[-1] if args else None)
            module = ir.parse_mlir_module(str(self.recorded), context)
            module.context = context  # as Triton's code generator and IRSource leave it: the stages read it
            return module

    return RecordedSource
