"""Inside an offline ``irscope capture``: tensors the program made for the GPU say they are on it; their memory stays
on the CPU.

Libraries choose their kernels from the tensor's device (Liger: ``if X.device.type == "cuda": sm_count = ...``,
one program per SM), so a tensor made with ``device="cuda"``, ``.cuda()`` or ``.to("cuda")`` (kept on the CPU by
``torch_standin``'s torch-function mode), and every tensor computed from one, is marked, and the mode answers for
a marked tensor as a GPU's would: ``t.device`` is ``device(type='cuda', index=0)`` (so ``t.device.type`` is
``cuda`` and ``t.device.index`` 0), ``t.is_cuda`` True, ``t.is_cpu`` False, ``t.get_device()`` 0. torch's own
functions run with the mode set aside, so its C++ and Python code see the CPU the memory is on (``torch.empty_like(t)``
and ``torch.empty(n, device=t.device)`` make CPU tensors, the mode mapping ``cuda`` to the CPU).

How the mark travels: an op's outputs are marked when one of its tensor inputs is (an in-place op's result, the
input itself, keeps its own mark: ``cpu_t.copy_(gpu_t)`` stays on the CPU); a GPU ``device=`` marks the outputs;
``.cuda()`` / ``.to("cuda")`` of an unmarked tensor returns a marked copy (as a GPU makes one), ``.cpu()`` /
``.to("cpu")`` of a marked one an unmarked copy; a ``device=`` naming another device (``meta``) marks nothing, and
only a tensor whose memory is on the CPU is answered for; ``p.data = t`` gives ``p`` the mark of ``t``
(``Module.cuda()`` moves parameters that way); ``nn.Parameter(t)`` takes ``t``'s; a marked tensor's ``.grad`` is
marked. A custom ``autograd.Function``'s backward (Liger's, which asks its saved tensors' device) runs with the mode
in place, as the forward did. So does a ``torch.library.custom_op``'s kernel (GemLite's forward: ``fp4_mapping[
W_q.device.index]``), which torch calls with the mode set aside, as it calls every torch function.

A custom ``autograd.Function``'s saved tensors keep the marks they had when saved, and its backward's incoming
gradients are marked when one of its saved tensors was (Liger's fused_add_rms_norm saves its output ``S``).
Not covered: a gradient the autograd engine makes in C++ for a custom backward that saved no marked tensor is
unmarked (says the CPU) until read through a marked tensor's ``.grad``; code traced by torch.compile (Dynamo) sees the
CPU; tensors made in another thread than the one that imported torch are not marked. A marked tensor pickles the
mark (a ``_irscope_gpu`` attribute) with it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

MARK = "_irscope_gpu"  # set True in the __dict__ of a tensor the program made for the GPU
UNANSWERED = object()  # what TensorDevices.answer returns for a call that is not a device question


def is_marked(value: Any) -> bool:
    """Whether ``value`` is a tensor the program made for the GPU (or computed from one)."""
    return getattr(value, MARK, False) is True


def _mark(value: Any) -> None:
    setattr(value, MARK, True)


class TensorDevices:
    """The mode's device answers for marked tensors and the marking of each call's outputs."""

    def __init__(self, torch: Any) -> None:
        base = torch._C.TensorBase
        self.torch = torch
        self.tensor = torch.Tensor
        self.gpu = torch.device("cuda", 0)
        self.wrapper = type(base.device.__get__)  # how the mode is handed a property's getter
        self.getters: dict[Any, Callable[[], Any]] = {base.device: lambda: self.gpu, base.is_cuda: lambda: True,
                                                      base.is_cpu: lambda: False}
        self.data = base.data
        self.on_cpu = base.is_cpu.__get__  # the real answer: the mode calls answer() with itself set aside
        self.get_device = base.get_device
        self.grad = base.grad
        self.cpu = {base.cpu, torch.Tensor.cpu}

    def answer(self, func: Any, args: Any) -> Any:
        """The GPU's answer to a device question about a marked tensor, else UNANSWERED."""
        if type(func) is self.wrapper:
            owner = func.__self__
            if func.__name__ == "__get__" and owner in self.getters and is_marked(args[0]) and self.on_cpu(args[0]):
                return self.getters[owner]()
            if owner is self.grad and func.__name__ == "__get__":
                grad = func(*args)
                if grad is not None and is_marked(args[0]):
                    _mark(grad)
                return grad
            if owner is self.data and func.__name__ == "__set__":
                func(*args)
                self._take_mark(args[0], args[1])
                return None
            return UNANSWERED
        if func is self.get_device and is_marked(args[0]) and self.on_cpu(args[0]):
            return 0
        return UNANSWERED

    def _take_mark(self, target: Any, source: Any) -> None:
        if is_marked(source):
            _mark(target)
        elif is_marked(target):
            del target.__dict__[MARK]

    def to_gpu(self, value: Any) -> Any:
        """``value.cuda()``: the tensor itself when marked, else a marked copy."""
        if is_marked(value):
            return value
        copy = value.clone()
        _mark(copy)
        return copy

    def after(self, func: Any, args: Any, kwargs: dict[str, Any], result: Any, device: str | None) -> Any:
        """``result`` of ``func``, its tensors marked as the call's device (``"gpu"``, ``"cpu"``, None) says."""
        if func in self.cpu:
            device = "cpu"
        if device is None and not self._any_marked(args, kwargs):
            return result
        if isinstance(result, self.tensor):
            return self._placed(result, args, device)
        if isinstance(result, (tuple, list)) and any(isinstance(r, self.tensor) for r in result):
            placed = [self._placed(r, args, device) if isinstance(r, self.tensor) else r for r in result]
            return type(result)(placed) if type(result) in (tuple, list) else result
        return result

    def _placed(self, value: Any, args: Any, device: str | None) -> Any:
        """``value`` marked for a call whose device is ``device`` (None: its marked inputs')."""
        if any(value is a for a in args):  # the call returned an input (in place, or a move that is a no-op)
            if device == "gpu":
                return self.to_gpu(value)
            if device == "cpu" and is_marked(value):
                return value.clone()
            return value
        if device != "cpu":
            _mark(value)
        return value

    def _any_marked(self, args: Any, kwargs: dict[str, Any]) -> bool:
        for value in (*args, *kwargs.values()):
            if is_marked(value):
                return True
            if isinstance(value, (tuple, list)) and any(is_marked(v) for v in value):
                return True
        return False


def parameters_keep_mark(torch: Any) -> None:
    """``nn.Parameter(t)`` of a marked ``t`` is marked (``nn.Linear(..., device="cuda")`` makes its weight so)."""
    parameter = torch.nn.Parameter
    real = parameter.__new__

    def new(cls: Any, data: Any = None, requires_grad: bool = True) -> Any:
        made = real(cls, data, requires_grad)
        if is_marked(data):
            _mark(made)
        return made

    parameter.__new__ = staticmethod(new)


def functions_keep_marks(torch: Any, mode: Any) -> None:
    """A custom ``autograd.Function``'s backward runs with ``mode`` in place, as the program's own calls do (torch's
    ``backward`` and ``grad`` are torch functions, during which the mode is set aside), and sees its saved tensors
    marked as they were when saved and, when one of them was marked, its incoming gradients marked (the autograd
    engine makes both in C++, unmarked). torch's own Functions (AOT autograd's compiled backward) run as they were."""
    from torch.autograd import function

    context, backward = function.FunctionCtx, function.BackwardCFunction
    real_save = context.save_for_backward
    real_saved = torch._C._FunctionBase.saved_tensors.__get__
    saved_marks = "_irscope_saved_marks"

    def save_for_backward(self: Any, *tensors: Any) -> None:
        real_save(self, *tensors)
        marks = tuple(is_marked(t) for t in tensors)
        if any(marks):
            setattr(self, saved_marks, marks)

    def saved_tensors(self: Any) -> Any:
        tensors = real_saved(self)
        for value, marked in zip(tensors, getattr(self, saved_marks, ()), strict=False):
            if marked and value is not None:
                _mark(value)
        return tensors

    stack = torch.overrides._get_current_function_mode_stack

    def marking(real: Callable[..., Any]) -> Callable[..., Any]:
        def apply(self: Any, *grads: Any) -> Any:
            if getattr(self._forward_cls, "__module__", "").startswith("torch."):
                return real(self, *grads)
            if getattr(self, saved_marks, None):
                for grad in grads:
                    for value in (grad if isinstance(grad, list) else (grad,)):
                        if isinstance(value, torch.Tensor):
                            _mark(value)
            if mode in stack():
                return real(self, *grads)
            with mode:
                return real(self, *grads)
        return apply

    setattr(context, "save_for_backward", save_for_backward)  # noqa: B010 (torch's own classes, patched)
    setattr(backward, "saved_tensors", property(saved_tensors))  # noqa: B010
    for name in ("apply", "apply_boxed"):  # apply_boxed is newer than torch 2.11
        if hasattr(backward, name):
            setattr(backward, name, marking(getattr(backward, name)))


def custom_ops_keep_mode(torch: Any, mode: Any) -> None:
    """A ``torch.library.custom_op``'s kernels run with ``mode`` in place, as the program's own code does: torch
    calls the op as a torch function (the mode set aside), and the kernel is the program's code again. torch's own
    custom ops run as they were."""
    from torch._library import custom_ops

    real = custom_ops.CustomOpDef.register_kernel
    stack = torch.overrides._get_current_function_mode_stack

    def in_mode(fn: Callable[..., Any]) -> Callable[..., Any]:
        if str(getattr(fn, "__module__", "")).startswith("torch."):
            return fn  # torch's own ops run as they were

        @functools.wraps(fn)  # torch names the kernel's module in its errors
        def run(*args: Any, **kwargs: Any) -> Any:
            if mode in stack():
                return fn(*args, **kwargs)
            with mode:
                return fn(*args, **kwargs)
        return run

    def register_kernel(self: Any, device_types: Any, fn: Any = None, /) -> Any:
        if fn is not None:
            real(self, device_types, in_mode(fn))
            return fn

        def inner(kernel: Callable[..., Any]) -> Callable[..., Any]:
            real(self, device_types, in_mode(kernel))
            return kernel
        return inner

    setattr(custom_ops.CustomOpDef, "register_kernel", register_kernel)  # noqa: B010 (torch's own class, patched)
