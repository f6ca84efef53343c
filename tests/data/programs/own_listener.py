"""A program that installs its own Triton compilation listener, the way TritonParse's ``init()`` does
(``knobs.compilation.listener = ...``), then a second one that calls the listener it found, then none.
With ``--new-knobs`` it first replaces Triton's whole ``knobs.compilation`` object, which takes out
irscope's listener too.

It prints which kernels each of its listeners saw, so a test can check they were still called.
"""

import sys

import torch
import triton
import triton.language as tl
from triton import knobs

DEVICE = triton.runtime.driver.active.get_active_torch_device()
SEEN: dict[str, list[str]] = {"tracer": [], "counter": []}


@triton.jit
def first_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1.0, mask=offs < n)


@triton.jit
def second_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2.0, mask=offs < n)


@triton.jit
def third_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) - 3.0, mask=offs < n)


def tracer(*, src, metadata, metadata_group, times, cache_hit):
    SEEN["tracer"].append(metadata["name"])


def main() -> int:
    n = 1024
    x = torch.zeros(n, device=DEVICE)
    if "--new-knobs" in sys.argv:
        knobs.compilation = knobs.compilation_knobs()
    knobs.compilation.listener = tracer  # as tritonparse.structured_logging.init() does
    first_kernel[(1,)](x, n, BLOCK=1024)
    found = knobs.compilation.listener

    def counter(**event):
        SEEN["counter"].append(event["metadata"]["name"])
        found(**event)

    knobs.compilation.listener = counter
    second_kernel[(1,)](x, n, BLOCK=1024)
    knobs.compilation.listener = None
    third_kernel[(1,)](x, n, BLOCK=1024)
    print(f"tracer saw {','.join(SEEN['tracer'])}; counter saw {','.join(SEEN['counter'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
