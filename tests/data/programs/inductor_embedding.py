"""A torch.compile'd embedding lookup with a scale: Inductor writes one Triton kernel that loads each token's id and
gathers that row of the table (``tl.load(in_ptr1 + (x0 + 1024 * tmp))``), the gather ``irscope perf`` models."""

import torch


def lookup(table: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.embedding(ids, table) * 2.0


if __name__ == "__main__":
    table = torch.randn(32000, 1024, device="cuda")
    ids = torch.randint(0, 32000, (4096,), device="cuda", generator=None)
    out = torch.compile(lookup)(table, ids)
    print("rows", tuple(out.shape))
