"""An autotuner whose ``early_config_prune`` is a generator that builds its own configs (gemlite's style).

``staged_sum_kernel``'s configs name only BLOCK; the pruner yields new configs that add the ``NUM_STAGES``
constexpr the kernel's loop needs (taken from each config's ``num_stages``) and drops BLOCKs wider than ``n``.
Triton's ``prune_configs`` returns that generator as it is, so the kernel must be launched with what it yields.
"""

import sys

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def staged_configs(configs, named_args, **kwargs):
    """Each config that fits ``n``, with its ``num_stages`` also passed as the ``NUM_STAGES`` constexpr."""
    for config in configs:
        if config.kwargs["BLOCK"] <= named_args["n"]:
            yield triton.Config({**config.kwargs, "NUM_STAGES": config.num_stages},
                                num_warps=config.num_warps, num_stages=config.num_stages)


@triton.autotune(configs=[triton.Config({"BLOCK": 128}, num_warps=4, num_stages=3),
                          triton.Config({"BLOCK": 256}, num_warps=4, num_stages=4),
                          triton.Config({"BLOCK": 4096}, num_warps=8, num_stages=2)],
                 key=["n"], prune_configs_by={"early_config_prune": staged_configs})
@triton.jit
def staged_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, NUM_STAGES: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in tl.range(0, n, BLOCK, num_stages=NUM_STAGES):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc))


def main() -> int:
    n = 1024
    x = torch.randn(n, device=DEVICE)
    out = torch.empty(1, device=DEVICE)
    staged_sum_kernel[(1,)](x, out, n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
