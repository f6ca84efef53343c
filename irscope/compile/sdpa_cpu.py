"""Inside an offline ``irscope capture``: CPU kernels for cuDNN attention, so a training graph that calls it can run.

Offline, a training graph is traced on the CPU and stands for the GPU's (``inductor_offline.gpu_joint_graph``), and
``sdpa_choice`` traces its attention as the kernel the stood-in GPU picks: cuDNN's on compute capability 9.x and 10.x.
The compiled graph then runs on the CPU, where torch has no kernel for ``_scaled_dot_product_cudnn_attention`` or
its backward. These compute the same results the math way (softmax(q k^T * scale + bias) v, its log-sum-exp and the
gradients through it), without dropout: the program's numbers are the stand-in's, not the GPU's, either way; what is
captured (the graph, the Triton kernels around attention) does not depend on them.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["install"]

_LIBRARIES: list[Any] = []  # kept alive: a torch.library.Library drops its kernels when collected


def _scores(torch: Any, query: Any, key: Any, bias: Any, is_causal: bool, scale: float | None) -> Any:
    """The attention logits in fp32, grouped-query heads repeated."""
    logits = torch.matmul(query.float(), _values(key, query.shape[1]).float().transpose(-2, -1))
    logits = logits * (scale if scale is not None else 1.0 / math.sqrt(query.shape[-1]))
    if bias is not None:
        logits = logits + bias.float()
    if is_causal:
        rows, cols = logits.shape[-2], logits.shape[-1]
        mask = torch.ones(rows, cols, dtype=torch.bool, device=logits.device).tril()  # torch's: top-left aligned
        logits = logits.masked_fill(~mask, -math.inf)
    return logits


def _values(value: Any, heads: int) -> Any:
    """Grouped-query keys or values repeated to ``heads`` heads."""
    return value.repeat_interleave(heads // value.shape[1], dim=1) if value.shape[1] != heads else value


def _laid_out_like(torch: Any, values: Any, template: Any) -> Any:
    """``values`` in the layout the op's meta function gives its result: ``template``'s dimension order (a graph
    views the result by those strides)."""
    order = sorted(range(template.dim()), key=lambda i: template.stride(i), reverse=True)
    strides = [0] * template.dim()
    step = 1
    for i in reversed(order):
        strides[i] = step
        step *= values.shape[i]
    result = torch.empty_strided(tuple(values.shape), strides, dtype=template.dtype)
    result.copy_(values)
    return result


def _forward(query: Any, key: Any, value: Any, attn_bias: Any, compute_log_sumexp: bool, dropout_p: float = 0.0,
             is_causal: bool = False, return_debug_mask: bool = False, *, scale: float | None = None) -> Any:
    import torch

    logits = _scores(torch, query, key, attn_bias, is_causal, scale)
    lse = torch.logsumexp(logits, dim=-1, keepdim=True)
    out = _laid_out_like(torch, torch.matmul(torch.exp(logits - lse), _values(value, query.shape[1]).float()), query)
    empty = torch.empty(0, dtype=torch.long)
    return (out, lse, empty, empty, query.shape[2], key.shape[2], torch.zeros((), dtype=torch.long),
            torch.zeros((), dtype=torch.long), torch.empty(0, dtype=query.dtype))


def _backward(grad_out: Any, query: Any, key: Any, value: Any, out: Any, logsumexp: Any, philox_seed: Any,
              philox_offset: Any, attn_bias: Any, cum_seq_q: Any, cum_seq_k: Any, max_q: int, max_k: int,
              dropout_p: float, is_causal: bool, *, scale: float | None = None) -> Any:
    """The gradients by hand (a kernel runs below autograd): with P the probabilities, dV = P^T dO,
    dS = P * (dO V^T - rowsum(dO * O)), dQ = dS K * scale, dK = dS^T Q * scale; grouped heads summed back."""
    import torch

    heads = query.shape[1]
    factor = scale if scale is not None else 1.0 / math.sqrt(query.shape[-1])
    bias = attn_bias if attn_bias is not None and attn_bias.numel() else None
    probs = torch.softmax(_scores(torch, query, key, bias, is_causal, scale), dim=-1)
    d_out, v = grad_out.float(), _values(value, heads).float()
    k = _values(key, heads).float()
    dv = torch.matmul(probs.transpose(-2, -1), d_out)
    d_probs = torch.matmul(d_out, v.transpose(-2, -1))
    d_scores = probs * (d_probs - (d_probs * probs).sum(dim=-1, keepdim=True))
    dq = torch.matmul(d_scores, k) * factor
    dk = torch.matmul(d_scores.transpose(-2, -1), query.float()) * factor

    def grouped(grad: Any, like: Any) -> Any:
        if like.shape[1] != heads:
            grad = grad.reshape(grad.shape[0], like.shape[1], heads // like.shape[1], *grad.shape[2:]).sum(dim=2)
        return _laid_out_like(torch, grad, like)  # the meta function's empty_like(query / key / value)

    return grouped(dq, query), grouped(dk, key), grouped(dv, value)


def install() -> None:
    """Register the CPU kernels where torch has none (once per process)."""
    if _LIBRARIES:
        return
    import torch

    library = torch.library.Library("aten", "IMPL")
    for name, kernel in (("_scaled_dot_product_cudnn_attention", _forward),
                         ("_scaled_dot_product_cudnn_attention_backward", _backward)):
        if not torch._C._dispatch_has_kernel_for_dispatch_key(f"aten::{name}", "CPU"):
            library.impl(name, kernel, "CPU")
    _LIBRARIES.append(library)
