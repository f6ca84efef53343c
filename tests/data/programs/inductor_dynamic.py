"""torch.compile with dynamic shapes: the graph Inductor gets has a symbolic size."""

import torch


@torch.compile(dynamic=True)
def double(x: torch.Tensor) -> torch.Tensor:
    return x * 2


if __name__ == "__main__":
    print(double(torch.ones(8, device="cuda")).sum().item())
