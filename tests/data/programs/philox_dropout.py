"""A dropout that draws its own random numbers, taking the seed and offset from the GPU's generator (FlagGems' way).

``seed_offset`` reads ``torch.cuda.default_generators[current_device()]``'s state (16 bytes on a GPU: seed, offset),
advances the offset by what the kernel will draw and writes the state back, as PyTorch's CUDA kernels do. The
program launches ``philox_dropout_kernel`` twice and prints the (seed, offset) each launch got.
"""

import sys

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def seed_offset(increment):
    generator = torch.cuda.default_generators[torch.cuda.current_device()]
    state = generator.get_state()
    seed, offset = state.view(torch.int64)
    result = int(seed), int(offset)
    offset += (increment + 3) // 4 * 4
    generator.set_state(state)
    return result


@triton.jit(do_not_specialize=["seed", "offset"])
def philox_dropout_kernel(x_ptr, out_ptr, n, p, seed, offset, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = tl.rand(seed, offset + offs) > p
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, tl.where(keep, x / (1 - p), 0.0), mask=offs < n)


def main() -> int:
    torch.manual_seed(2**64 - 5 if sys.argv[1:] == ["big"] else 7)  # big: a seed above 2**63, as torch.seed() gives
    n = 4096
    x = torch.randn(n, device=DEVICE)
    out = torch.empty_like(x)
    for _ in range(2):
        seed, offset = seed_offset(n)
        print(f"seed {seed} offset {offset}")
        philox_dropout_kernel[(triton.cdiv(n, 1024),)](x, out, n, 0.1, seed, offset, BLOCK=1024)
    return 0


if __name__ == "__main__":
    sys.exit(main())
