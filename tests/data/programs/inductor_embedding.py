"""A torch.compile'd embedding lookup with a scale, of 64-wide rows: Inductor writes one Triton kernel over the flat
output whose 1024-element blocks span 16 rows, each loading its token's id (``tl.load(in_ptr0 + x // 64)``) and
gathering that row of the table (``tl.load(in_ptr1 + (x % 64 + 64 * id))``): the gather ``irscope perf`` models."""

import torch


def lookup(table: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.embedding(ids, table) * 2.0


if __name__ == "__main__":
    table = torch.randn(1 << 20, 64, device="cuda")
    ids = torch.randint(0, 1 << 20, (1 << 16,), device="cuda")
    out = torch.compile(lookup)(table, ids)
    print("rows", tuple(out.shape))
