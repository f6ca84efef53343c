"""An fp64 ``tl.dot``: on sm80/sm90 Triton lowers it to the m8n8k4 DMMA (``nvidia_mma`` v2, instrShape [8, 8]).

Used by tests/test_layouts_oracle.py, compiled offline for sm80 with ``--args``.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def fp64_dot_kernel(a_ptr, b_ptr, c_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    offs_m = tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + offs_m[:, None] * BLOCK_K + offs_k[None, :])
    b = tl.load(b_ptr + offs_k[:, None] * BLOCK_N + offs_n[None, :])
    c = tl.dot(a, b)
    tl.store(c_ptr + offs_m[:, None] * BLOCK_N + offs_n[None, :], c)
