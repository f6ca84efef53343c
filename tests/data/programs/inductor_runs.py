"""Two tiny torch.compile functions: one run three times, an SGD-like ``_foreach_add_`` (a foreach kernel) twice;
with ``--abrupt`` the program then ends with ``os._exit(0)``.

An abrupt end skips Python's exit handlers, where ``irscope capture`` counts the program's runs of each graph.
"""

import os
import sys

import torch


def scaled_sine(x: torch.Tensor) -> torch.Tensor:
    return torch.sin(x) * 2 + 1


def sgd(params: list[torch.Tensor], grads: list[torch.Tensor]) -> None:
    torch._foreach_add_(params, grads, alpha=-0.1)


def main() -> None:
    compiled = torch.compile(scaled_sine)
    x = torch.randn(64, device="cuda")
    for _ in range(3):
        out = compiled(x)
    params = [torch.randn(64, device="cuda"), torch.randn(32, 8, device="cuda")]
    step = torch.compile(sgd)
    for _ in range(2):
        step(params, [torch.ones_like(p) for p in params])
    print("ran 3 times", tuple(out.shape), "stepped twice")
    if "--abrupt" in sys.argv:
        sys.stdout.flush()
        os._exit(0)


if __name__ == "__main__":
    main()
