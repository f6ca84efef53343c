"""torch.compile on CPU tensors: Inductor writes C++ for them, no Triton kernel."""

import torch


@torch.compile
def scaled_sum(x: torch.Tensor) -> torch.Tensor:
    return (x * 2).sum(dim=-1)


if __name__ == "__main__":
    print(scaled_sum(torch.ones(8, 8)))
