"""Corpus driver: Liger-Kernel's Triton ops through its functional API, forward and backward, at small shapes."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import backward, case, main, rand

B, T, H, V = 2, 128, 256, 4096


@case("rms_norm")
def rms_norm() -> None:
    from liger_kernel.transformers.functional import liger_rms_norm
    backward(liger_rms_norm(rand(B * T, H, grad=True), rand(H, grad=True), 1e-6, in_place=False))


@case("fused_add_rms_norm")
def fused_add_rms_norm() -> None:
    from liger_kernel.transformers.functional import liger_fused_add_rms_norm
    backward(liger_fused_add_rms_norm(rand(B * T, H, grad=True), rand(B * T, H, grad=True), rand(H, grad=True),
                                      1e-6, in_place=False))


@case("layer_norm")
def layer_norm() -> None:
    from liger_kernel.transformers.functional import liger_layer_norm
    backward(liger_layer_norm(rand(B * T, H, grad=True), rand(H, grad=True), rand(H, grad=True), 1e-5))


@case("swiglu")
def swiglu() -> None:
    from liger_kernel.transformers.functional import liger_swiglu
    backward(liger_swiglu(rand(B * T, H, grad=True), rand(B * T, H, grad=True)))


@case("geglu")
def geglu() -> None:
    from liger_kernel.transformers.functional import liger_geglu
    backward(liger_geglu(rand(B * T, H, grad=True), rand(B * T, H, grad=True)))


@case("rope")
def rope() -> None:
    from liger_kernel.transformers.functional import liger_rope
    q, k = rand(B, 8, T, 64, grad=True), rand(B, 4, T, 64, grad=True)
    cos, sin = rand(1, T, 64), rand(1, T, 64)
    backward(liger_rope(q, k, cos, sin))


@case("cross_entropy")
def cross_entropy() -> None:
    import torch
    from liger_kernel.transformers.functional import liger_cross_entropy
    logits = rand(B * T, V, dtype=torch.float32, grad=True)
    target = torch.randint(0, V, (B * T,), device="cuda")
    liger_cross_entropy(logits, target).backward()


@case("fused_linear_cross_entropy")
def fused_linear_cross_entropy() -> None:
    import torch
    from liger_kernel.transformers.functional import liger_fused_linear_cross_entropy
    x, w = rand(B * T, H, grad=True), rand(V, H, grad=True)
    target = torch.randint(0, V, (B * T,), device="cuda")
    out = liger_fused_linear_cross_entropy(x, w, target)
    backward(out)


@case("kl_div")
def kl_div() -> None:
    import torch
    from liger_kernel.transformers.functional import liger_kl_div
    backward(liger_kl_div(rand(B * T, V, dtype=torch.float32, grad=True), rand(B * T, V, dtype=torch.float32)))


@case("jsd")
def jsd() -> None:
    import torch
    from liger_kernel.transformers.functional import liger_jsd
    backward(liger_jsd(rand(B * T, V, dtype=torch.float32, grad=True), rand(B * T, V, dtype=torch.float32)))


@case("tvd")
def tvd() -> None:
    import torch
    from liger_kernel.transformers.functional import liger_tvd
    backward(liger_tvd(rand(B * T, V, dtype=torch.float32, grad=True), rand(B * T, V, dtype=torch.float32)))


@case("group_norm")
def group_norm() -> None:
    from liger_kernel.transformers.functional import liger_group_norm
    backward(liger_group_norm(rand(B, 8, 256, grad=True), rand(8, grad=True), rand(8, grad=True), 8, 4, 1e-6))


@case("dyt")
def dyt() -> None:
    from liger_kernel.transformers.functional import liger_dyt
    backward(liger_dyt(rand(B * T, H, grad=True), rand(1, grad=True), rand(H, grad=True), rand(H, grad=True)))


@case("softmax")
def softmax() -> None:
    from liger_kernel.transformers.functional import liger_softmax
    backward(liger_softmax(rand(B * T, H, grad=True)))


@case("sparsemax")
def sparsemax() -> None:
    from liger_kernel.transformers.functional import liger_sparsemax
    backward(liger_sparsemax(rand(B * T, H, grad=True)))


@case("relu_squared")
def relu_squared() -> None:
    from liger_kernel.transformers.functional import liger_relu_squared
    backward(liger_relu_squared(rand(B * T, H, grad=True)))


@case("poly_norm")
def poly_norm() -> None:
    import torch
    from liger_kernel.transformers.functional import liger_poly_norm
    # The bias is 0-d, as LigerPolyNorm's own (its backward returns a 0-d dB; a bias of shape [1] fails on a GPU too).
    bias = torch.randn((), device="cuda", dtype=torch.bfloat16).requires_grad_(True)
    backward(liger_poly_norm(rand(B * T, H, grad=True), rand(3, grad=True), bias, in_place=False))


@case("qwen2vl_mrope")
def qwen2vl_mrope() -> None:
    from liger_kernel.transformers.functional import liger_qwen2vl_mrope
    q, k = rand(B, 8, T, 128, grad=True), rand(B, 4, T, 128, grad=True)
    cos, sin = rand(3, B, T, 128), rand(3, B, T, 128)
    backward(liger_qwen2vl_mrope(q, k, cos, sin, [16, 24, 24]))


if __name__ == "__main__":
    sys.exit(main())
