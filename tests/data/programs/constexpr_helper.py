"""A kernel that picks its unsigned type with a ``@tl.constexpr``-decorated function, as FlagGems' sort does
(``get_int_t(num_bits, signed)`` in ``flag_gems/ops/sort.py``)."""

import sys

import torch
import triton
import triton.language as tl
from triton.language.core import _unwrap_if_constexpr

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@tl.constexpr
def get_int_t(num_bits: tl.constexpr, signed: tl.constexpr) -> tl.dtype:
    return tl.core.get_int_dtype(_unwrap_if_constexpr(num_bits), _unwrap_if_constexpr(signed))


@triton.jit
def as_uint_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    num_bits: tl.constexpr = x.dtype.primitive_bitwidth
    tl.store(out_ptr + offs, x.to(get_int_t(num_bits, False), bitcast=True), mask=offs < n)


def main() -> int:
    x = torch.randn(1024, device=DEVICE)
    out = torch.empty(1024, dtype=torch.int32, device=DEVICE)
    as_uint_kernel[(4,)](x, out, 1024, BLOCK=256)
    return 0


if __name__ == "__main__":
    sys.exit(main())
