"""A program that compiles a kernel with ``triton.compile`` and launches the CompiledKernel itself.

As Triton's own tests and ahead-of-time users do: ``kernel[grid](...)`` on the compiled object loads its binary
onto the GPU (``driver.active.utils.load_binary``), which no stand-in can do offline: nothing is loaded or run.
"""

import torch
import triton
import triton.language as tl
from triton.compiler import ASTSource


@triton.jit
def scale_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 3.0, mask=offs < n)


def main() -> None:
    target = triton.runtime.driver.active.get_current_target()
    src = ASTSource(scale_kernel, {"x_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}, {(2,): 256})
    kernel = triton.compile(src, target=target)
    x = torch.ones(1024, device="cuda")
    kernel[(4, 1, 1)](x, x.numel())
    print("sum", float(x.sum()))


if __name__ == "__main__":
    main()
