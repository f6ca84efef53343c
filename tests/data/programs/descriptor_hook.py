"""An autotuned matmul on host TMA descriptors whose block shapes each config's ``pre_hook`` sets, as FlagGems'
Hopper mm does (``matmul_tma_set_block_size_hook``): the descriptors are made with a dummy ``[1, 1]`` block, so a
compile without the hook is another kernel (Triton: "accumulator shape is incompatible")."""

import sys

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def set_block_shapes(nargs):
    nargs["a_desc"].block_shape = [nargs["BLOCK_M"], nargs["BLOCK_K"]]
    nargs["b_desc"].block_shape = [nargs["BLOCK_K"], nargs["BLOCK_N"]]
    nargs["c_desc"].block_shape = [nargs["BLOCK_M"], nargs["BLOCK_N"]]


@triton.autotune(configs=[triton.Config({"BLOCK_M": bm, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=4,
                                        pre_hook=set_block_shapes) for bm in (64, 128)], key=["M", "N", "K"])
@triton.jit
def descriptor_mm_kernel(a_desc, b_desc, c_desc, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                         BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = a_desc.load([pid_m * BLOCK_M, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, pid_n * BLOCK_N])
        acc = tl.dot(a, b, acc=acc)
    c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc.to(tl.float16))


def main() -> int:
    M = N = K = 256
    a = torch.randn(M, K, device=DEVICE, dtype=torch.float16)
    b = torch.randn(K, N, device=DEVICE, dtype=torch.float16)
    c = torch.empty(M, N, device=DEVICE, dtype=torch.float16)
    dummy = [1, 1]
    descs = [TensorDescriptor(t, t.shape, t.stride(), dummy) for t in (a, b, c)]
    descriptor_mm_kernel[lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))](
        *descs, M, N, K)
    return 0


if __name__ == "__main__":
    sys.exit(main())
