"""In an offline ``irscope capture``: ``scaled_dot_product_attention`` picks the fused kernel the stood-in GPU would.

On a GPU, ``torch.nn.functional.scaled_dot_product_attention`` (and the attention Inductor's ``fuse_attention`` pass
finds in a model's eager matmul-softmax-matmul) asks the CUDA build's chooser (``select_sdp_backend``) which kernel
to run: cuDNN, flash or memory-efficient attention, else the math fallback. That chooser reads the device's
properties, so without the GPU it answers math (a CUDA build) or fails (a CPU build), and torch.compile then traces
attention as matmuls and a softmax: Triton kernels the GPU never runs. Offline, the composite is replaced (for fake
``cuda`` tensors only, through the Python dispatcher AOT autograd traces under) by the same choice the chooser makes
on the stood-in GPU, after the same checks in the same order, and the same call into the chosen kernel.

The checks are those of torch's ``sdp_utils.cpp`` that decide dense inputs: the order (cuDNN first on compute
capability 9.x and 10.x unless ``TORCH_CUDNN_SDPA_DEPRIORITIZED`` is set, else flash, memory-efficient, math; torch
prefers cuDNN only with a recent cuDNN, which this cannot ask offline: the cut at torch 2.9 is an assumption, measured
only for torch 2.11 on the H200, which ran cuDNN attention), dtypes, head dimensions and their alignment, masks,
grouped-query attention and dropout. Each graph's choice is written as a note, so the capture says which kernel it
assumed and why.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from typing import Any

__all__ = ["choose", "install"]

_INSTALLED: list[bool] = []
_SEEN: set[tuple[Any, ...]] = set()


def choose(shapes: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], dtype: str, has_mask: bool,
           dropout_p: float, enable_gqa: bool, capability: tuple[int, int], torch_version: str,
           deprioritize_cudnn: bool = False, disabled: frozenset[str] = frozenset()) -> tuple[str, str]:
    """``(backend, why)``: the kernel the CUDA chooser picks for these inputs on a GPU of ``capability``.

    ``backend`` is ``cudnn``, ``flash``, ``efficient`` or ``math``; ``why`` names what ruled the earlier ones out.
    ``disabled``: the backends the program turned off (``torch.nn.attention.sdpa_kernel``, ``torch.backends.cuda``).
    """
    q, k, v = shapes
    order = _order(capability, torch_version, deprioritize_cudnn)
    refused: list[str] = []
    for backend in order:
        if backend == "math":
            break
        reason = ("turned off by the program" if backend in disabled
                  else _refusal(backend, q, k, v, dtype, has_mask, dropout_p, enable_gqa, capability))
        if not reason:
            return backend, "; ".join(refused)
        refused.append(f"{backend}: {reason}")
    return "math", "; ".join(refused)


def _order(capability: tuple[int, int], torch_version: str, deprioritize_cudnn: bool) -> tuple[str, ...]:
    major = capability[0]
    if major in (9, 10) and not deprioritize_cudnn and _at_least(torch_version, (2, 9)):
        return ("cudnn", "flash", "efficient", "math")
    return ("flash", "efficient", "math", "cudnn")


def _at_least(version: str, floor: tuple[int, int]) -> bool:
    parts = version.split("+")[0].split(".")
    try:
        return (int(parts[0]), int(parts[1])) >= floor
    except (IndexError, ValueError):
        return False


def _refusal(backend: str, q: tuple[int, ...], k: tuple[int, ...], v: tuple[int, ...], dtype: str, has_mask: bool,
             dropout_p: float, enable_gqa: bool, capability: tuple[int, int]) -> str:
    """Why ``backend`` cannot run these inputs ("" when it can)."""
    if len(q) != 4 or len(k) != 4 or len(v) != 4:
        return "needs 4-D (batch, heads, sequence, head dim) inputs"
    half = dtype in ("float16", "bfloat16")
    dq, dk, dv = q[-1], k[-1], v[-1]
    gqa = q[1] != k[1] or q[1] != v[1]
    if gqa and not enable_gqa:
        return "query and key/value have different head counts without enable_gqa"
    if backend in ("cudnn", "flash") and (capability < (8, 0) or not half):
        return "needs compute capability 8.0 or newer" if capability < (8, 0) else f"runs float16/bfloat16, not {dtype}"
    if backend == "cudnn":
        if enable_gqa and gqa:
            return "does not take grouped-query attention"
        if dq != dk or dq % 8 or dv % 8 or max(dq, dv) > 128:
            return f"head dims {dq}/{dv}: must be equal for q and k, multiples of 8, at most 128"
        return ""
    if backend == "flash":
        if has_mask:
            return "takes no attention mask"
        if not (dq == dk == dv) or dq > 256:
            return f"head dims {dq}/{dk}/{dv}: must be equal and at most 256"
        return ""
    if backend == "efficient":
        if dtype not in ("float16", "bfloat16", "float32"):
            return f"runs float16/bfloat16/float32, not {dtype}"
        align = 8 if half and capability >= (8, 0) else 4
        if dq != dk or dq % align or dv % align:
            return f"head dims {dq}/{dv} must be multiples of {align}"
        return ""
    return "unknown backend"


def install(capability: tuple[int, int], note: Callable[[str], None]) -> None:
    """Replace the composite's choice for fake ``cuda`` inputs by ``choose``'s; ``note`` gets each new choice."""
    if _INSTALLED:
        return
    import torch
    from torch._C import DispatchKey
    from torch._subclasses.fake_tensor import is_fake

    op = torch.ops.aten.scaled_dot_product_attention.default
    def composite(*args: Any, **kwargs: Any) -> Any:  # torch's own C++ composite, past this Python kernel
        return op._op_dk(DispatchKey.CompositeImplicitAutograd, *args, **kwargs)

    deprioritized = os.environ.get("TORCH_CUDNN_SDPA_DEPRIORITIZED", "").lower() in ("1", "true", "on", "yes")

    def sdpa(query: Any, key: Any, value: Any, attn_mask: Any = None, dropout_p: float = 0.0, is_causal: bool = False,
             scale: float | None = None, enable_gqa: bool = False) -> Any:
        # a real tensor is the program's own, on the CPU; a fake one on the CPU is AOT autograd's trace of a training
        # graph, which offline stands for the GPU's (as in inductor_offline.gpu_joint_graph)
        if query.device.type not in ("cuda", "cpu") or not is_fake(query):
            return composite(query, key, value, attn_mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa)
        shapes = (tuple(query.shape), tuple(key.shape), tuple(value.shape))
        dtype = str(query.dtype).removeprefix("torch.")
        cuda = torch.backends.cuda
        disabled = frozenset(name
                             for name, on in (("cudnn", cuda.cudnn_sdp_enabled()), ("flash", cuda.flash_sdp_enabled()),
                                                   ("efficient", cuda.mem_efficient_sdp_enabled())) if not on)
        backend, why = choose(shapes, dtype, attn_mask is not None, dropout_p, enable_gqa, capability,
                              torch.__version__, deprioritized, disabled)
        seen = (backend, shapes, dtype, attn_mask is not None, is_causal)
        if seen not in _SEEN:
            _SEEN.add(seen)
            note(_sentence(backend, why, shapes, dtype, capability))
        return _call(torch, composite, backend, query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)

    op.py_impl(DispatchKey.CompositeImplicitAutograd)(sdpa)
    # a training graph traced on the CPU runs there: cuDNN's op needs a kernel
    from irscope.compile import sdpa_cpu

    sdpa_cpu.install()
    _INSTALLED.append(True)


def _sentence(backend: str, why: str, shapes: Any, dtype: str, capability: tuple[int, int]) -> str:
    names = {"cudnn": "cuDNN attention", "flash": "flash attention", "efficient": "memory-efficient attention",
             "math": "the math fallback (matmuls and a softmax, which torch.compile writes as Triton kernels)"}
    shape = "x".join(str(d) for d in shapes[0])
    after = f" ({why})" if why else ""
    return (f"scaled_dot_product_attention of {dtype} {shape}: traced as {names[backend]}, the kernel torch's chooser "
            f"picks on a compute capability {capability[0]}.{capability[1]} GPU{after}; on the GPU it asks the "
            "driver, so set TORCH_CUDNN_SDPA_DEPRIORITIZED=1 or torch.nn.attention.sdpa_kernel in the program "
            "where that GPU would choose otherwise")


def _call(torch: Any, composite: Callable[..., Any], backend: str, query: Any, key: Any, value: Any, attn_mask: Any,
          dropout_p: float,
          is_causal: bool, scale: float | None, enable_gqa: bool) -> Any:
    """The chosen kernel's call, as the composite makes it (masks made additive, flash's head dim padded to 8)."""
    if backend == "math":
        return composite(query, key, value, attn_mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa)
    if attn_mask is not None and attn_mask.dtype == torch.bool:
        attn_mask = torch.zeros_like(attn_mask, dtype=query.dtype).masked_fill(attn_mask.logical_not(), -math.inf)
    lse = torch.is_grad_enabled() and any(t.requires_grad for t in (query, key, value))
    aten = torch.ops.aten
    if backend == "cudnn":
        return aten._scaled_dot_product_cudnn_attention(query, key, value, attn_mask, lse, dropout_p, is_causal, False,
                                                        scale=scale)[0]
    if backend == "efficient":
        return aten._scaled_dot_product_efficient_attention(query, key, value, attn_mask, lse, dropout_p, is_causal,
                                                            scale=scale)[0]
    dim = query.shape[-1]
    pad = (-dim) % 8
    og_scale = scale if scale is not None else 1.0 / math.sqrt(dim)
    if pad:
        query, key, value = (torch.nn.functional.pad(t, (0, pad)) for t in (query, key, value))
    out = aten._scaled_dot_product_flash_attention(query, key, value, dropout_p, is_causal, False, scale=og_scale)[0]
    return out[..., :dim] if pad else out
