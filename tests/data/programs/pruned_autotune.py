"""Three ``@triton.autotune`` kernels whose autotuners prune their configs before benchmarking.

- ``early_pruned_kernel``: four configs; ``early_config_prune`` keeps only the one whose BLOCK is
  ``next_power_of_2(n)`` (config 2 for n = 512), so Triton benchmarks nothing and runs that one.
- ``modelled_kernel``: four configs; ``perf_model`` estimates ``|BLOCK - 256|`` and ``top_k=2``
  keeps configs 1 (BLOCK 256) and 0 (BLOCK 128, the first of the two tied at 128).
- ``measured_kernel``: two configs; its ``perf_model`` shares a CUDA event with another process, which needs a
  GPU (irscope's stand-in answers timing events, not shared ones).

Offline, ``irscope capture --target sm90`` compiles what each autotuner would benchmark on the GPU.
With ``IRSCOPE_TEST_PIDS`` set, the process id of every compile is appended to that file (the
program's own id first), so a test can see which process compiled what.
"""

import os
import sys

import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()
BLOCKS = [(128, 1), (256, 2), (512, 4), (1024, 8)]


def _configs(blocks):
    return [triton.Config({"BLOCK": b}, num_warps=w) for b, w in blocks]


def keep_exact_block(configs, named_args, **kwargs):
    """Only the config whose BLOCK covers ``n`` in one program."""
    want = triton.next_power_of_2(named_args["n"])
    return [c for c in configs if c.kwargs["BLOCK"] == want]


def distance_from_256(**kwargs):
    """A stand-in performance model: the estimate grows with the block's distance from 256."""
    return abs(kwargs["BLOCK"] - 256)


def measured_time(**kwargs):
    """A performance model that hands a CUDA event to another process (only possible on a GPU)."""
    start = torch.cuda.Event(enable_timing=True, interprocess=True)
    start.record()
    start.ipc_handle()
    return 0.0


@triton.autotune(configs=_configs(BLOCKS), key=["n"], prune_configs_by={"early_config_prune": keep_exact_block})
@triton.jit
def early_pruned_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1.0, mask=offs < n)


@triton.autotune(configs=_configs(BLOCKS), key=["n"], prune_configs_by={"perf_model": distance_from_256, "top_k": 2})
@triton.jit
def modelled_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 3.0, mask=offs < n)


@triton.autotune(configs=_configs(BLOCKS[:2]), key=["n"], prune_configs_by={"perf_model": measured_time, "top_k": 1})
@triton.jit
def measured_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) - 1.0, mask=offs < n)


def _log_compiling_pids(path: str) -> None:
    from triton import knobs

    with open(path, "a", encoding="utf-8") as f:
        f.write(f"program {os.getpid()}\n")
    previous = knobs.compilation.listener

    def listener(**kwargs):
        if previous is not None:
            previous(**kwargs)
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"compile {os.getpid()} {kwargs['metadata']['name']}\n")

    knobs.compilation.listener = listener


def main() -> int:
    if os.environ.get("IRSCOPE_TEST_PIDS"):
        _log_compiling_pids(os.environ["IRSCOPE_TEST_PIDS"])
    n = 512
    x = torch.randn(n, device=DEVICE)
    out = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)  # noqa: E731
    for kernel in (early_pruned_kernel, early_pruned_kernel, modelled_kernel, measured_kernel):
        kernel[grid](x, out, n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
