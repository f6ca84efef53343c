"""A tiny torch.compile function run three times; with ``--abrupt`` the program then ends with ``os._exit(0)``.

An abrupt end skips Python's exit handlers, where ``irscope capture`` counts the program's runs of each graph.
"""

import os
import sys

import torch


def scaled_sine(x: torch.Tensor) -> torch.Tensor:
    return torch.sin(x) * 2 + 1


def main() -> None:
    compiled = torch.compile(scaled_sine)
    x = torch.randn(64, device="cuda")
    for _ in range(3):
        out = compiled(x)
    print("ran 3 times", tuple(out.shape))
    if "--abrupt" in sys.argv:
        sys.stdout.flush()
        os._exit(0)


if __name__ == "__main__":
    main()
