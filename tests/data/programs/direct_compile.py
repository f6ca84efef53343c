"""A program that calls ``triton.compile`` itself, twice, for configs that make the same TTGIR.

It needs each compiled kernel whole (it reads the cubin), so irscope must not stop either compile.
Run offline: ``irscope capture --target sm90 -- python direct_compile.py``.
"""

import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def double_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)


def main() -> int:
    src = ASTSource(double_kernel, {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"},
                    {(3,): 128})
    for stages in (1, 2):
        kernel = triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_stages": stages})
        if not kernel.asm.get("cubin"):
            print(f"num_stages={stages}: no cubin", file=sys.stderr)
            return 1
        print(f"num_stages={stages}: {kernel.metadata.num_stages} stages, {len(kernel.asm['cubin'])} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
