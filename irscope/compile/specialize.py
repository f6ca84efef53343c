"""Reproduce the argument specialization Triton's JIT applies before it compiles a kernel.

The JIT marks pointers and integers divisible by 16 with ``tt.divisibility = 16``, turns integer
arguments equal to 1 into constexprs, and parses num_warps / num_stages into backend options. A
bare ``triton.compile`` of the plain signature skips all of this, and then (for example) the
matmul K-loop is not software-pipelined. We call the JIT's own binder and packer, which are
private APIs: everything version-dependent about them lives in this module.

Checked against Triton 3.5.1, 3.6.0 and 3.9.0 (``create_function_from_signature``,
``JITFunction._pack_args``, the preamble of ``JITFunction.run``).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from irscope.compile.kernel_module import load_kernel
from irscope.errors import UsageError
from irscope.model.kernels import KernelInfo
from irscope.model.targets import Target


@dataclass(frozen=True)
class FakeDtype:
    """Stands in for a torch dtype: Triton reads only ``str(dtype)`` (``torch.float16``)."""

    name: str

    def __str__(self) -> str:
        return f"torch.{self.name}"

    @property
    def itemsize(self) -> int:
        """Bytes per element (TensorDescriptor checks stride alignment with it)."""
        import re

        if self.name.startswith("float8") or self.name in ("bool", "int8", "uint8"):
            return 1
        match = re.search(r"(\d+)", self.name)
        return int(match.group(1)) // 8 if match else 1

    @property
    def is_floating_point(self) -> bool:
        """Whether it is a float type."""
        return self.name.startswith(("float", "bfloat"))


def stand_in_dtype(name: str) -> Any:
    """torch's own dtype when torch is already imported (a kernel's heuristics compare with it:
    ``args["x"].dtype == torch.float16``), else a FakeDtype that prints the same."""
    torch = sys.modules.get("torch")
    found = getattr(torch, name, None) if torch is not None else None
    return found if found is not None and type(found).__name__ == "dtype" else FakeDtype(name)


@dataclass(frozen=True)
class CompileJob:
    """Everything ``triton.compile`` needs, as the JIT would have built it.

    Attributes:
        fn: the ``JITFunction``.
        gpu_target: Triton's ``GPUTarget``.
        signature: argument name -> Triton type (``*fp16``, ``i32``, ``constexpr``).
        constexprs: argument path tuple -> value.
        attrs: argument path tuple -> attribute list (``[["tt.divisibility", 16]]``).
        options: backend options as a dict (num_warps, num_stages, ...).
    """

    fn: Any
    gpu_target: Any
    signature: dict[str, str]
    constexprs: dict[tuple[int, ...], Any]
    attrs: dict[tuple[int, ...], Any]
    options: dict[str, Any]

    def source(self) -> Any:
        """Triton's ASTSource for this job (Gluon's, for a ``@gluon.jit`` kernel: its IR starts as Gluon IR)."""
        from triton.compiler import ASTSource

        is_gluon = getattr(self.fn, "is_gluon", None)
        if callable(is_gluon) and is_gluon():
            from triton.experimental.gluon._runtime import GluonASTSource

            return GluonASTSource(self.fn, self.signature, self.constexprs, self.attrs)
        return ASTSource(self.fn, self.signature, self.constexprs, self.attrs)

    def described(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """Constexprs and attrs keyed by argument name, for the manifest."""
        names = list(self.signature)

        def label(path: tuple[int, ...]) -> str:
            head = names[path[0]] if path and path[0] < len(names) else "?"
            return head + "".join(f"[{i}]" for i in path[1:])

        constexprs = {label(p): v if isinstance(v, (int, float, str, bool)) or v is None else repr(v)
                      for p, v in self.constexprs.items()}
        attrs = {label(p): a for p, a in self.attrs.items() if a}
        return constexprs, attrs


def jit_function(module: ModuleType, name: str) -> Any:
    """The ``JITFunction`` named ``name``, unwrapping autotune / heuristics decorators."""
    fn = getattr(module, name, None)
    if fn is None:
        raise UsageError(f"{module.__file__} defines no {name!r}")
    while not hasattr(fn, "params") and hasattr(fn, "fn"):
        fn = fn.fn
    if not hasattr(fn, "params"):
        raise UsageError(f"{name!r} in {module.__file__} is not a @triton.jit function")
    return fn


def gpu_target(target: Target) -> Any:
    """Triton's GPUTarget for one of our targets."""
    from triton.backends.compiler import GPUTarget

    return GPUTarget(target.backend, target.arch, target.warp_size)


def mock_tensor_class() -> Any:
    """Triton's MockTensor, with torch-like ``stride(dim)`` and a settable address (0: 16-byte aligned)."""
    from triton.runtime.jit import MockTensor

    class ShapedMock(MockTensor):
        """Stands in for a tensor: dtype, shape, row-major strides and an address."""

        address = 0

        def stride(self, dim: int | None = None) -> Any:
            strides = super().stride()
            return strides if dim is None else strides[dim]

        def data_ptr(self) -> int:
            return self.address

    return ShapedMock


def mock_tensors(module: ModuleType, kernel: KernelInfo, sizes: dict[str, int]) -> dict[str, Any]:
    """The kernel's tensors as stand-ins at address 0, so 16-byte aligned like any allocation."""
    cls = mock_tensor_class()

    def new(shape: tuple[int, ...], dtype: Any, role: str) -> Any:
        return cls(stand_in_dtype(str(dtype).rsplit(".", 1)[-1]), list(shape))

    return dict(module.make_tensors(sizes, kernel.dtype, new))


def _run_preamble(kwargs: dict[str, Any], fn: Any) -> dict[str, Any]:
    """The keyword arguments ``JITFunction.run`` adds before binding (they differ per version)."""
    from triton import knobs

    out = dict(kwargs)
    out["debug"] = out.get("debug", getattr(fn, "debug", None)) or knobs.runtime.debug
    if hasattr(knobs.compilation, "instrumentation_mode"):  # Triton >= 3.6
        out["instrumentation_mode"] = knobs.compilation.instrumentation_mode
    if hasattr(knobs.compilation, "fpsan_homomorphic_casts"):  # Triton >= 3.9
        out["fpsan_homomorphic_casts"] = knobs.compilation.fpsan_homomorphic_casts
    return out


def specialize(fn: Any, target: Target, args: list[Any], kwargs: dict[str, Any]) -> CompileJob:
    """Bind the arguments as the JIT does and return the compile job it would run."""
    from triton.compiler import make_backend
    from triton.runtime.jit import create_function_from_signature

    tgt = gpu_target(target)
    backend = make_backend(tgt)
    kwargs = _run_preamble(kwargs, fn)
    binder = create_function_from_signature(fn.signature, fn.params, backend)
    try:
        bound_args, specialization, options = binder(*args, **kwargs)
        options, signature, constexprs, attrs = fn._pack_args(backend, kwargs, bound_args, specialization, options)
    except (TypeError, KeyError) as exc:
        raise UsageError(f"arguments do not fit {fn.__name__}: {exc}") from None
    return CompileJob(fn=fn, gpu_target=tgt, signature=dict(signature), constexprs=dict(constexprs),
                      attrs=dict(attrs), options=dict(options.__dict__))


def kernel_job(kernel: KernelInfo, target: Target, config_index: int, sizes: dict[str, int]) -> CompileJob:
    """The compile job for a registered kernel with one of its configs, at the given sizes."""
    module = load_kernel(kernel)
    fn = jit_function(module, kernel.function)
    config = kernel.config(target.backend, config_index)
    tensors = mock_tensors(module, kernel, sizes)
    if takes_sm_count(module.kernel_args):  # a persistent kernel: the SMs of the GPU the launch is modelled on
        from irscope.model.gpus import compiled_sm_count

        args, kwargs = module.kernel_args(tensors, sizes, dict(config), compiled_sm_count(target.name))
    else:
        args, kwargs = module.kernel_args(tensors, sizes, dict(config))
    return specialize(fn, target, list(args), dict(kwargs))


def takes_sm_count(function: Any) -> bool:
    """Whether a kernel module's ``kernel_args`` / ``grid`` takes the GPU's SM count (a fourth / third parameter)."""
    import inspect

    try:
        return "sm_count" in inspect.signature(function).parameters
    except (TypeError, ValueError):
        return False
