"""A persistent GEMM: each program walks tiles in an outer loop and pipelines the K-loop inside it.

The shape of Triton's grouped-GEMM tutorial: the K-loop's async copies keep groups in flight across iterations,
and the tile loop drains them (a wait with 0 groups left) before it stores the tile.
"""

import triton
import triton.language as tl


@triton.jit
def tile_loop_gemm(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, NUM_SM: tl.constexpr):
    tiles_n = tl.cdiv(N, BLOCK_N)
    tiles = tl.cdiv(M, BLOCK_M) * tiles_n
    for tile in range(tl.program_id(0), tiles, NUM_SM):
        rows = (tile // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
        cols = (tile % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
        ks = tl.arange(0, BLOCK_K)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, tl.cdiv(K, BLOCK_K)):
            a = tl.load(a_ptr + rows[:, None] * stride_am + (k * BLOCK_K + ks)[None, :])
            b = tl.load(b_ptr + (k * BLOCK_K + ks)[:, None] * stride_bk + cols[None, :])
            acc += tl.dot(a, b)
        tl.store(c_ptr + rows[:, None] * stride_cm + cols[None, :], acc.to(tl.float16))
