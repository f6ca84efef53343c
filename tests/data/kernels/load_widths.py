"""Global loads whose vector width depends on the element type and on what the JIT knows of the strides.

Used by tests/test_access_widths.py, compiled offline for sm90 and gfx942 with ``--args``:

* ``upcast_kernel`` loads a BLOCK_M x BLOCK_N tile of any dtype with a row stride passed as an int and
  stores it as fp32. With a row stride of 1024 (divisible by 16, so the JIT marks it) each thread's
  contiguous run of the input can be read with 16-byte loads; with a row stride of 1000 nothing is
  known about where a row starts, so the machine code reads one element at a time.
* ``scale_kernel`` reads a contiguous 1-D block of any dtype, scales it in fp32 and writes it back in the
  input's dtype: one layout serves the load, the fp32 math and the store.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def upcast_kernel(x_ptr, out_ptr, stride_xm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    x = tl.load(x_ptr + offs_m[:, None] * stride_xm + offs_n[None, :])
    tl.store(out_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :], x.to(tl.float32))


@triton.jit
def scale_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs).to(tl.float32)
    tl.store(out_ptr + offs, (x * 2.0).to(out_ptr.dtype.element_ty))
