"""torch.compile of an attention: ``scaled_dot_product_attention`` (causal, bf16) followed by a scale, and, with
``--math``, the same under ``sdpa_kernel(SDPBackend.MATH)``; ``--train``, a training step through it (forward and
backward graphs). On an H100/H200 torch runs the attention as a fused kernel (cuDNN's, and its backward), so
Inductor's only Triton kernels are the scale's; under the math backend it writes the softmax too."""

import sys

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel


def attend(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, is_causal=True) * 2


def main() -> None:
    q = torch.randn(2, 4, 128, 64, device="cuda", dtype=torch.bfloat16)
    if "--train" in sys.argv:
        q, k, v = (torch.randn(2, 4, 128, 64, device="cuda", dtype=torch.bfloat16, requires_grad=True)
                   for _ in range(3))
        torch.compile(attend)(q, k, v).float().square().sum().backward()
        assert q.grad is not None and k.grad is not None and v.grad is not None
        print("gradients", tuple(q.grad.shape), float(v.grad.float().abs().sum()) > 0)
        return
    if "--math" in sys.argv:
        with sdpa_kernel(SDPBackend.MATH):
            out = torch.compile(attend)(q, q, q)
    else:
        out = torch.compile(attend)(q, q, q)
    print("attention", tuple(out.shape))


if __name__ == "__main__":
    main()
