"""Regenerate the golden data in this folder: `python tests/data/layouts/regenerate.py`.

1. Compiles the kernels of gen_kernels.py offline (no GPU needed) for sm80, sm90 and gfx942, with
   the specialization attributes the JIT would derive for the same arguments, and writes
   `<kernel>.<target>.ttgir` next to this script.
2. Writes Triton's own layout dumps (`format_tensor_view` / `format_hardware_view` of Gluon, Triton
   >= 3.9) for the layouts in DUMPS to `dumps/<name>.<view>.txt`.
3. Writes Triton's views of every `#ttg.linear` layout of `lit_linear/` (as Triton parses it from the
   module) and its parser's verdict on each lit module and edge case to `dumps/lit_linear.json.xz`
   (`python regenerate.py lit` writes only that).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

TARGETS = {
    "sm80": ("cuda", 80, 32),
    "sm90": ("cuda", 90, 32),
    "gfx942": ("hip", "gfx942", 64),
}


class _DType:
    """Stands in for a torch dtype: the JIT only reads str(dtype)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __str__(self) -> str:
        return f"torch.{self.name}"


def _cases() -> list[tuple[str, Any, list[Any], dict[str, Any]]]:
    """(file stem, kernel, positional args, keyword args incl. constexprs and options)."""
    import gen_kernels as k
    from triton.runtime.jit import MockTensor

    f16, f32 = _DType("float16"), _DType("float32")
    size = 4096
    return [
        ("vector_add", k.add_kernel, [MockTensor(f32), MockTensor(f32), MockTensor(f32), 98432],
         {"BLOCK_SIZE": 1024, "num_warps": 4}),
        ("softmax", k.softmax_kernel, [MockTensor(f32), MockTensor(f32), 1024, 1024, 4096, 1000],
         {"BLOCK_SIZE": 1024, "num_stages": 4, "num_warps": 8}),
        ("matmul", k.matmul_kernel,
         [MockTensor(f16), MockTensor(f16), MockTensor(f16), size, size, size, size, 1, size, 1, size, 1],
         {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 256, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8,
          "num_warps": 8, "num_stages": 3}),
    ]


def compile_ttgir(kernel: Any, args: list[Any], kwargs: dict[str, Any], target: tuple[Any, ...]) -> str:
    """Compile one kernel for one target the way the JIT would, and return its TTGIR text."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource, make_backend
    from triton.runtime.jit import create_function_from_signature

    gpu_target = GPUTarget(*target)
    backend = make_backend(gpu_target)
    binder = create_function_from_signature(kernel.signature, kernel.params, backend)
    bound, specialization, options = binder(*args, **kwargs)
    options, signature, constexprs, attrs = kernel._pack_args(backend, kwargs, bound, specialization, options)
    src = ASTSource(kernel, signature, constexprs, attrs)
    compiled = triton.compile(src, target=gpu_target, options=options.__dict__)
    return str(compiled.asm["ttgir"])


# name -> (function building the Gluon layout from the `gl` module, shape)
DUMPS: dict[str, tuple[Callable[[Any], Any], list[int]]] = {
    "blocked_1x2_4x8_2x2": (lambda gl: gl.BlockedLayout([1, 2], [4, 8], [2, 2], [1, 0]), [8, 16]),
    "blocked_replicated": (lambda gl: gl.BlockedLayout([1, 2], [4, 8], [2, 2], [1, 0]), [4, 4]),
    "slice_of_blocked": (lambda gl: gl.SliceLayout(1, gl.BlockedLayout([1, 2], [4, 8], [2, 2], [1, 0])), [16]),
    "mma_v2_2x2": (lambda gl: gl.NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), [32, 32]),
    "dot_a_mma_v2": (lambda gl: gl.DotOperandLayout(0, gl.NVMMADistributedLayout([2, 0], [2, 2], [16, 8]), 2),
                     [32, 16]),
    "blocked_2cta": (lambda gl: gl.BlockedLayout([1, 4], [8, 4], [1, 1], [1, 0], [[1, 0]]), [16, 16]),
}


def write_dumps() -> None:
    """Write Triton's tensor and hardware views of each DUMPS layout."""
    import triton.experimental.gluon.language as gl

    out = HERE / "dumps"
    out.mkdir(exist_ok=True)
    for name, (build, shape) in DUMPS.items():
        layout = build(gl)
        (out / f"{name}.tensor.txt").write_text(layout.format_tensor_view(shape))
        (out / f"{name}.hardware.txt").write_text(layout.format_hardware_view(shape))
        print(f"wrote dumps/{name}.{{tensor,hardware}}.txt")


def write_lit_linear() -> None:
    """Triton's views of the lit linear layouts and its verdict on every lit module and edge case."""
    import json
    import lzma
    import tempfile

    sys.path.insert(0, str(HERE.parent.parent))  # tests/, for the oracle helpers
    import lit_linear_oracle as lit

    tmp = Path(tempfile.mkdtemp(prefix="irscope-lit-"))
    named = [*lit.lit_modules(), *lit.edge_modules()]
    paths = []
    for i, (_, text) in enumerate(named):
        paths.append(tmp / f"m{i}.mlir")
        paths[-1].write_text(text)
    verdicts = dict(zip([name for name, _ in named], lit.triton_verdicts(paths), strict=True))
    views = {}
    for case in lit.lit_layouts(verdicts):  # the layouts of the modules Triton accepts
        theirs = lit.triton_views(case.module, tmp / "module.mlir")[lit.bases(case.layout)]  # type: ignore[arg-type]
        shape = lit.dump_shape(case.shape)
        views[case.key] = {"shape": shape, "tensor": theirs.format_tensor_view(shape),  # type: ignore[attr-defined]
                           "hardware": theirs.format_hardware_view(shape)}  # type: ignore[attr-defined]
    data = json.dumps({"views": views, "verdicts": verdicts}, indent=1, sort_keys=True).encode()
    lit.RECORDED.write_bytes(lzma.compress(data))
    print(f"wrote dumps/{lit.RECORDED.name}: {len(views)} layouts, {len(verdicts)} verdicts")


def main() -> None:
    """Write every <kernel>.<target>.ttgir and every Gluon dump."""
    import tempfile

    import triton

    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="irscope-layouts-")
    sys.path.insert(0, str(HERE))
    for stem, kernel, args, kwargs in _cases():
        for target_name, target in TARGETS.items():
            text = compile_ttgir(kernel, args, kwargs, target)
            out = HERE / f"{stem}.{target_name}.ttgir"
            out.write_text(text)
            print(f"wrote {out.name} ({len(text)} bytes, Triton {triton.__version__})")
    write_dumps()
    write_lit_linear()


if __name__ == "__main__":
    if sys.argv[1:] == ["lit"]:
        write_lit_linear()
    else:
        main()
