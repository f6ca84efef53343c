"""torch.compile of an attention: ``scaled_dot_product_attention`` (causal, bf16) followed by a scale, and, with
``--math``, the same under ``sdpa_kernel(SDPBackend.MATH)``. On an H100/H200 torch runs the attention as a fused kernel
(cuDNN's), so Inductor's only Triton kernel is the scale; under the math backend it writes the softmax too."""

import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, is_causal=True) * 2


def main() -> None:
    q = torch.randn(2, 4, 128, 64, device="cuda", dtype=torch.bfloat16)
    if "--math" in sys.argv:
        with sdpa_kernel(SDPBackend.MATH):
            out = torch.compile(attend)(q, q, q)
    else:
        out = torch.compile(attend)(q, q, q)
    print("attention", tuple(out.shape))


if __name__ == "__main__":
    main()
