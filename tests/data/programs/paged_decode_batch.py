"""A decode step over a paged KV cache: 8 sequences of different lengths, pages handed out in a shuffled order, the
kernel of tests/data/kernels/paged_decode.py launched with the lengths and block table the host built."""

import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "kernels"))
from paged_decode import paged_decode

LENS = [17, 300, 2048, 5, 999, 1500, 64, 4000]
PAGE, HEADS, DIM, MAX_PAGES = 16, 8, 128, 256

if __name__ == "__main__":
    pages = torch.randperm(len(LENS) * MAX_PAGES, generator=torch.Generator().manual_seed(0)).to(torch.int32)
    tables = pages.reshape(len(LENS), MAX_PAGES).to("cuda")
    seq_lens = torch.tensor(LENS, dtype=torch.int32, device="cuda")
    cache = (len(LENS) * MAX_PAGES, HEADS, PAGE, DIM)
    k = torch.randn(cache, dtype=torch.float16, device="cuda")
    v = torch.randn(cache, dtype=torch.float16, device="cuda")
    q = torch.randn(len(LENS), HEADS, DIM, dtype=torch.float16, device="cuda")
    out = torch.empty_like(q)
    paged_decode[(len(LENS), HEADS)](q, k, v, out, tables, seq_lens, DIM ** -0.5, tables.stride(0), MAX_PAGES,
                                     HEAD_DIM=DIM, PAGE=PAGE)
    print("decoded", tuple(out.shape))
