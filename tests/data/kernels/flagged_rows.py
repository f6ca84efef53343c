"""A per-request kernel that skips the requests a bool flag turns off, as vLLM's rejection samplers do (``if not
is_greedy: return``): the flag is a ``torch.bool`` tensor, which Triton loads as bytes through a pointer bitcast
(``!tt.ptr<i1> -> !tt.ptr<i8>``); the requests that stay walk their tokens."""

import triton
import triton.language as tl


@triton.jit
def flagged_rows(flags_ptr, cu_tokens_ptr, x_ptr, out_ptr, D: tl.constexpr):
    req = tl.program_id(0)
    if not tl.load(flags_ptr + req):
        return
    start = tl.load(cu_tokens_ptr + req)
    end = tl.load(cu_tokens_ptr + req + 1)
    offs = tl.arange(0, D)
    acc = tl.zeros([D], dtype=tl.float32)
    for t in range(start, end):
        acc += tl.load(x_ptr + t * D + offs)
    tl.store(out_ptr + req * D + offs, acc)
