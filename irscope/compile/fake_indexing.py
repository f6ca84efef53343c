"""Inside an offline ``irscope capture``: ``t[...]`` on the fake ``cuda`` tensors Inductor traces with.

Offline, each torch.compile graph is traced and compiled on fake tensors placed on the stood-in GPU. torch's
C++ binding of ``Tensor.__getitem__`` / ``__setitem__`` selects the tensor's device first, which a torch built
without CUDA cannot do ("PyTorch is not linked with support for cuda devices"): Hugging Face's rotary
embedding (``self.inv_freq[None, :, None]``) stopped every Llama, Mistral and GPT-style model there. The aten
operators themselves work on such tensors, so indexing on a tensor whose real device is ``cuda`` is spelled
here as the operators Python indexing means: an int is ``select``, a slice ``slice``, ``None`` ``unsqueeze``,
``...`` the dimensions it stands for, tensors ``index`` (``index_put_`` to assign). Every other tensor, and a
torch built with CUDA, keeps torch's own indexing.

``t.contiguous()`` of a tensor that is not contiguous (Hugging Face's ``attn_output.transpose(1, 2).contiguous()``)
and ``t.copy_(src)`` select the device in their bindings too, so they are the aten operators ``contiguous`` and
``copy_`` on such a tensor. All of it only while Inductor compiles a graph (``inductor_offline``,
``device_free_methods``): Dynamo, tracing the program's own code, would trace a Python method and break the graph
at the binding it calls.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any


def install(torch: Any) -> None:
    """Route indexing of fake ``cuda`` tensors through aten operators (on a torch built without CUDA only).

    Only while Inductor compiles (``device_free_methods``): Dynamo, tracing the program's own ``t[...]``, would
    inline this Python method and break the graph at the C binding it calls (torch 2.13: GPT-2's forward fell back
    to eager, then Dynamo compiled irscope's own torch-function mode and answered ``t.device`` with a size).
    """
    if torch._C._has_cuda:  # a CUDA build: its binding selects a CUDA device like any other (the stand-in answers)
        return
    tensor = torch.Tensor
    real_device = torch._C.TensorBase.device.__get__  # the tensor's own device, not what tensor_device says
    get, put = tensor.__getitem__, tensor.__setitem__

    def on_fake_gpu(value: Any) -> bool:
        return isinstance(value, torch.Tensor) and real_device(value).type == "cuda"

    def plain(self: Any, index: Any) -> bool:
        items = index if isinstance(index, tuple) else (index,)
        return not on_fake_gpu(self) or any(isinstance(item, bool) for item in items)  # x[True]: torch's own

    def getitem(self: Any, index: Any) -> Any:
        if plain(self, index):
            return get(self, index)
        return _view(torch, self, index)[0]

    def setitem(self: Any, index: Any, value: Any) -> None:
        if plain(self, index):
            put(self, index, value)
            return
        view, tensors = _view(torch, self, index)
        if tensors is None:
            view.copy_(value) if isinstance(value, torch.Tensor) else view.fill_(value)
            return
        basic, indices = tensors
        values = value if isinstance(value, torch.Tensor) else torch.full((), value, dtype=self.dtype,
                                                                             device=real_device(self))
        torch.ops.aten.index_put_.default(basic, indices, values)

    tensor.__getitem__ = getitem
    tensor.__setitem__ = setitem


@contextlib.contextmanager
def device_free_methods(torch: Any) -> Iterator[None]:
    """``contiguous`` and ``copy_`` of fake ``cuda`` tensors as aten operators, inside the block (a CPU-only torch)."""
    tensor = torch.Tensor
    contiguous, copy = tensor.contiguous, tensor.copy_
    if torch._C._has_cuda or getattr(contiguous, "_irscope_offline", False):
        yield
        return
    real_device = torch._C.TensorBase.device.__get__

    def contiguous_(self: Any, memory_format: Any = torch.contiguous_format) -> Any:
        if real_device(self).type != "cuda":
            return contiguous(self, memory_format=memory_format)
        return torch.ops.aten.contiguous.default(self, memory_format=memory_format)

    def copy_(self: Any, src: Any, non_blocking: bool = False) -> Any:
        if real_device(self).type != "cuda":
            return copy(self, src, non_blocking)
        return torch.ops.aten.copy_.default(self, src, non_blocking)

    contiguous_._irscope_offline = True  # type: ignore[attr-defined]
    indexing = tensor.__getitem__, tensor.__setitem__
    tensor.contiguous, tensor.copy_ = contiguous_, copy_
    install(torch)
    try:
        yield
    finally:
        tensor.contiguous, tensor.copy_ = contiguous, copy
        tensor.__getitem__, tensor.__setitem__ = indexing


def _view(torch: Any, base: Any, index: Any) -> tuple[Any, Any]:
    """``base[index]`` as aten operators, and for an index with tensors, (the basic view, its tensor indices)."""
    items = list(index) if isinstance(index, tuple) else [index]
    if any(isinstance(item, torch.Tensor) and item.dtype == torch.bool for item in items):
        items = [item.nonzero().unbind(1) if isinstance(item, torch.Tensor) and item.dtype == torch.bool else (item,)
                 for item in items]
        items = [part for group in items for part in group]
    used = sum(1 for item in items if item is not None and item is not Ellipsis)
    if Ellipsis in items:
        at = items.index(Ellipsis)
        items[at:at + 1] = [slice(None)] * (base.dim() - used)
    out, dim = base, 0
    tensor_at: dict[int, Any] = {}
    for item in items:
        if item is None:
            out = torch.ops.aten.unsqueeze.default(out, dim)
            dim += 1
        elif isinstance(item, (int, torch.SymInt)):
            out = torch.ops.aten.select.int(out, dim, item)
        elif isinstance(item, slice):
            out = torch.ops.aten.slice.Tensor(out, dim, item.start, item.stop, 1 if item.step is None else item.step)
            dim += 1
        else:  # a tensor or a list: advanced indexing, applied after the basic view
            tensor_at[dim] = item if isinstance(item, torch.Tensor) else torch.tensor(item)
            dim += 1
    if not tensor_at:
        return out, None
    indices = [tensor_at.get(d) for d in range(max(tensor_at) + 1)]
    return torch.ops.aten.index.Tensor(out, indices), (out, indices)
