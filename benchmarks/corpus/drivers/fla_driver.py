"""Corpus driver: flash-linear-attention (fla-core) ops, forward and backward, [B, T, H, D] at small shapes."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import backward, case, main, rand

B, T, H, D = 1, 128, 2, 64


def qkv() -> tuple[Any, Any, Any]:
    return rand(B, T, H, D, grad=True), rand(B, T, H, D, grad=True), rand(B, T, H, D, grad=True)


def gate(*shape: int) -> Any:
    import torch
    return torch.nn.functional.logsigmoid(rand(*shape, dtype=torch.float32)).requires_grad_(True)


def beta() -> Any:
    import torch
    return torch.rand(B, T, H, device="cuda", dtype=torch.bfloat16).requires_grad_(True)


def ops() -> Any:
    import fla.ops
    return fla.ops


@case("chunk_gla")
def chunk_gla() -> None:
    backward(ops().chunk_gla(*qkv(), gate(B, T, H, D)))


@case("fused_recurrent_gla")
def fused_recurrent_gla() -> None:
    backward(ops().fused_recurrent_gla(*qkv(), gate(B, T, H, D)))


@case("chunk_simple_gla")
def chunk_simple_gla() -> None:
    backward(ops().chunk_simple_gla(*qkv(), gate(B, T, H)))


@case("chunk_retention")
def chunk_retention() -> None:
    backward(ops().chunk_retention(*qkv()))


@case("fused_recurrent_retention")
def fused_recurrent_retention() -> None:
    backward(ops().fused_recurrent_retention(*qkv()))


@case("chunk_linear_attn")
def chunk_linear_attn() -> None:
    backward(ops().chunk_linear_attn(*qkv()))


@case("chunk_delta_rule")
def chunk_delta_rule() -> None:
    backward(ops().chunk_delta_rule(*qkv(), beta()))


@case("fused_recurrent_delta_rule")
def fused_recurrent_delta_rule() -> None:
    backward(ops().fused_recurrent_delta_rule(*qkv(), beta()))


@case("chunk_gated_delta_rule")
def chunk_gated_delta_rule() -> None:
    backward(ops().chunk_gated_delta_rule(*qkv(), gate(B, T, H), beta(), use_qk_l2norm_in_kernel=True))


@case("fused_recurrent_gated_delta_rule")
def fused_recurrent_gated_delta_rule() -> None:  # forward only: fla has no backward for it
    ops().fused_recurrent_gated_delta_rule(*qkv(), gate(B, T, H), beta())


@case("chunk_kda")
def chunk_kda() -> None:
    backward(ops().chunk_kda(*qkv(), gate(B, T, H, D), beta()))


@case("chunk_rwkv6")
def chunk_rwkv6() -> None:
    backward(ops().chunk_rwkv6(*qkv(), gate(B, T, H, D), rand(H, D, grad=True)))


@case("fused_recurrent_hgrn")
def fused_recurrent_hgrn() -> None:
    backward(ops().fused_recurrent_hgrn(rand(B, T, D, grad=True), gate(B, T, D)))


@case("parallel_attn")
def parallel_attn() -> None:
    backward(ops().parallel_attn(*qkv()))


@case("fused_chunk_based")
def fused_chunk_based() -> None:
    q, k, v = rand(B, T, H, 16, grad=True), rand(B, T, H, 16, grad=True), rand(B, T, H, D, grad=True)
    backward(ops().fused_chunk_based(q, k, v))


@case("chunk_lightning_attn")
def chunk_lightning_attn() -> None:
    backward(ops().chunk_lightning_attn(*qkv(), layer_idx=0, num_layers=2))


if __name__ == "__main__":
    sys.exit(main())
