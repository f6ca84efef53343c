"""A program whose Triton kernels are written by torch.compile (Inductor), not by hand.

On a GPU it runs as written; under ``irscope capture --target`` its tensors stay on the CPU and Inductor
compiles each graph a second time, on fake GPU tensors, for the target.
"""

import torch


def gelu_residual(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x @ w) + x


def main() -> None:
    x = torch.randn(1024, 1024, device="cuda", dtype=torch.float16)
    w = torch.randn(1024, 1024, device="cuda", dtype=torch.float16)
    compiled = torch.compile(gelu_residual)
    out = compiled(x, w)
    torch.testing.assert_close(out, gelu_residual(x, w), atol=2e-2, rtol=2e-2)
    print("inductor output matches eager")


if __name__ == "__main__":
    main()
