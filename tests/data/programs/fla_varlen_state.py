"""fla's chunked recurrent-state kernel over a varlen batch (fla's own ``chunk_fwd_h``): each sequence's chunk loop
runs ``cdiv(len, 64)`` times, its bounds loaded from ``cu_seqlens``, which fla builds on the host."""

import torch
from fla.ops.common.chunk_h import chunk_fwd_h

LENS = [64, 1024, 3000, 200]

if __name__ == "__main__":
    cu = torch.tensor([0, *torch.tensor(LENS).cumsum(0).tolist()], dtype=torch.int32, device="cuda")
    total = int(cu[-1])
    k = torch.randn(1, total, 4, 64, dtype=torch.bfloat16, device="cuda")
    v = torch.randn(1, total, 4, 64, dtype=torch.bfloat16, device="cuda")
    h, _ = chunk_fwd_h(k, v, cu_seqlens=cu, chunk_size=64)
    print("states", tuple(h.shape))
