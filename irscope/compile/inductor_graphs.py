"""Inside an offline ``irscope capture``: one ``graphs`` record per graph Inductor compiled, and how often it ran.

Each inner compile (an inference graph, or a training graph's forward or backward) writes the Triton kernels one
run of its wrapper launched (name, each config's launch key, launches per run, provenance), and the calls the
wrapper made outside Triton (an ``extern_kernels.mm``: cuBLAS), seen by a dispatch mode inside the fake mode the
recorded run is made in. The callable handed back to Dynamo or AOT autograd counts the program's runs of the
graph; the counts are written when the program exits (a program that dies abruptly leaves none).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from irscope.compile.inductor_provenance import Collected, provenance_json
from irscope.compile.session import write_record

_STATE = threading.local()
_SEQ = [0]
_CALLS: dict[str, int] = {}
_REGISTERED: list[Any] = []
_LOCK = threading.Lock()
# Tensor plumbing the wrapper does itself: no kernel runs on the GPU for these.
_NO_KERNEL = frozenset({"empty", "empty_strided", "empty_like", "new_empty", "new_empty_strided", "as_strided",
                        "_reinterpret_tensor", "alias", "detach", "lift_fresh", "set_", "resize_",
                        "_local_scalar_dense",
                        "record_stream", "sym_size", "sym_stride", "sym_numel", "sym_storage_offset"})
_CUBLAS = frozenset({"mm", "addmm", "bmm", "baddbmm", "_int_mm", "_scaled_mm", "addmv", "mv", "dot", "matmul",
                     "_addmm_activation"})
_ATTENTION = {"_scaled_dot_product_flash_attention": "FlashAttention",
              "_scaled_dot_product_efficient_attention": "ATen",
              "_scaled_dot_product_cudnn_attention": "cuDNN",
              "_flash_attention_forward": "FlashAttention", "_efficient_attention_forward": "ATen"}


def library_of(op_name: str) -> str:
    """Who runs an ATen op the wrapper calls on the GPU: cuBLAS (an mm), cuDNN (a convolution), FlashAttention, ATen."""
    base = op_name.split(".")[1] if op_name.startswith("aten.") and "." in op_name else op_name
    base = base.removesuffix("_backward") if "attention" in base else base
    if base in _CUBLAS:
        return "cuBLAS"
    if base in ("convolution", "_convolution", "cudnn_convolution", "convolution_backward"):
        return "cuDNN"
    return _ATTENTION.get(base, "ATen")


def _shape(t: Any) -> tuple[int, ...]:
    return tuple(int(d) for d in t.shape)


def _flops(base: str, tensors: list[Any], outs: list[Any]) -> int:
    """An mm family call's 2*M*N*K (a batch's B times that), a convolution's, an attention's two matmuls; else 0.

    ``tensors``: the positional tensor arguments (``addmm``'s and ``baddbmm``'s first is the added input).
    """
    shapes = [_shape(t) for t in tensors]
    mats = shapes[1:3] if base in ("addmm", "baddbmm", "_addmm_activation") else shapes[:2]
    if base in ("mm", "addmm", "_int_mm", "_scaled_mm", "_addmm_activation") and [len(s) for s in mats] == [2, 2]:
        (m, k), (_, n) = mats
        return 2 * m * n * k
    if base in ("bmm", "baddbmm") and [len(s) for s in mats] == [3, 3]:
        (b, m, k), n = mats[0], mats[1][-1]
        return 2 * b * m * n * k
    if base == "convolution" and len(shapes) >= 2 and outs:
        weight = shapes[1]
        per_out = 1
        for d in weight[1:]:
            per_out *= d
        return 2 * int(outs[0].numel()) * per_out
    if base in _ATTENTION and len(shapes) >= 3 and len(shapes[0]) == 4:
        b, h, q_len, e = shapes[0]
        kv_len, ev = shapes[1][-2], shapes[2][-1]
        return 2 * b * h * q_len * kv_len * (e + ev)
    return 0


def _extern_mode() -> Any:
    """A dispatch mode (made once) that notes each real aten call the wrapper makes: op, tensors, result."""
    if getattr(_STATE, "mode_class", None) is not None:
        return _STATE.mode_class
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_leaves

    class ExternCalls(TorchDispatchMode):
        """Notes the wrapper's calls outside Triton."""

        def __init__(self) -> None:
            super().__init__()
            self.calls: list[dict[str, Any]] = []

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            out = func(*args, **(kwargs or {}))
            name = str(func)
            base = name.split(".")[1] if name.count(".") >= 1 else name
            if getattr(func, "is_view", False) or base in _NO_KERNEL or not name.startswith("aten."):
                return out
            try:
                given = {k: v for k, v in (kwargs or {}).items() if k != "out"}
                tensors = [a for a in tree_leaves((args, given)) if isinstance(a, torch.Tensor)]
                outs = [o for o in tree_leaves(out) if isinstance(o, torch.Tensor)]
                seen: dict[int, Any] = {id(t): t for t in (*tensors, *outs)}
                self.calls.append({
                    "op": name, "library": library_of(name), "shapes": [list(_shape(t)) for t in tensors],
                    "dtype": str(tensors[0].dtype).removeprefix("torch.") if tensors else "",
                    "flops": _flops(base, [a for a in args if isinstance(a, torch.Tensor)], outs),
                    "nbytes": sum(int(t.numel()) * t.element_size() for t in seen.values())})
            except Exception:  # a call whose tensors cannot be read is still counted
                self.calls.append({"op": name, "library": library_of(name)})
            return out

    _STATE.mode_class = ExternCalls
    return ExternCalls


def extern_calls() -> Any:
    """A fresh dispatch mode noting the wrapper's calls outside Triton (its ``calls``)."""
    return _extern_mode()()


def _externs(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The calls grouped by op, shapes and dtype, in first-call order, each with its count per run."""
    groups: dict[str, dict[str, Any]] = {}
    for call in calls:
        key = repr((call["op"], call.get("shapes"), call.get("dtype")))
        if key in groups:
            groups[key]["per_run"] += 1
        else:
            groups[key] = {**call, "per_run": 1}
    return list(groups.values())


@contextlib.contextmanager
def made_graphs() -> Iterator[list[str]]:
    """The ids of the graphs whose records are written while the block runs (an inner block's are its own)."""
    stack = getattr(_STATE, "made", None)
    if stack is None:
        stack = _STATE.made = []
    ids: list[str] = []
    stack.append(ids)
    try:
        yield ids
    finally:
        stack.pop()


def graph_kind(kwargs: dict[str, Any]) -> str:
    """inference, forward or backward, from the keywords AOT autograd passes Inductor's inner compile."""
    return "backward" if kwargs.get("is_backward") else "inference" if kwargs.get("is_inference") else "forward"


def write_graph(kind: str, collected: Collected, launched: list[tuple[str, list[str]]] | None,
                calls: list[dict[str, Any]], failure: str = "") -> None:
    """Write the ``graphs`` record of one inner compile: its kernels in first-launch order, its calls outside Triton.

    ``launched``: each launch's kernel name and its configs' launch keys, in launch order; None when its wrapper
    could not run on the fake inputs (``failure`` says why): its kernels are then those Inductor defined, with no
    launches.
    """
    with _LOCK:
        _SEQ[0] += 1
        seq = _SEQ[0]
    graph_id = f"{os.getpid()}-{seq}"
    kernels: dict[str, dict[str, Any]] = {}
    for name, keys in launched or []:
        if name not in kernels:
            kernels[name] = {"name": name, "launch_keys": keys, "per_run": 0}
        kernels[name]["per_run"] += 1
    if launched is None:
        kernels = {n: {"name": n, "launch_keys": [], "per_run": 0} for n in collected.kernels}
    notes = [f"provenance of {e}" for e in collected.errors]
    if failure:
        notes.append(f"its wrapper could not run on fake inputs ({failure}): its launches are not known")
    for op in dict.fromkeys(c["op"] for c in calls if "_for_cpu" in c["op"]):
        notes.append(f"{op}: AOT autograd traced the graph on the CPU, which chose the CPU variant of this op; "
                     "on a GPU the graph calls the GPU one (not modelled either way)")
    for name, kernel in kernels.items():
        nodes = collected.kernels.get(name)
        kernel["provenance"] = (provenance_json(nodes) if nodes else
                                {"missing": "Inductor's define_kernel did not name it while the graph compiled"})
    import torch

    write_record("graphs", {"id": graph_id, "seq": seq, "time": time.time(), "kind": kind,
                            "kernels": list(kernels.values()), "externs": _externs(calls), "notes": notes,
                            "torch_version": str(torch.__version__)})
    stack = getattr(_STATE, "made", None)
    if stack:
        stack[-1].append(graph_id)


def counted(fn: Callable[..., Any], ids: list[str]) -> Callable[..., Any]:
    """``fn``, counting each call as a run of the graphs ``ids`` (written when the program exits)."""
    if not ids:
        return fn
    with _LOCK:
        if not _REGISTERED:
            _REGISTERED.append(atexit.register(_write_calls))
        for graph_id in ids:
            _CALLS.setdefault(graph_id, 0)

    def run(*args: Any, **kwargs: Any) -> Any:
        with _LOCK:
            for graph_id in ids:
                _CALLS[graph_id] += 1
        return fn(*args, **kwargs)

    return run


def _write_calls() -> None:
    """The program's runs of each graph, as it exits."""
    with contextlib.suppress(Exception):  # the interpreter is going down: nothing to report to
        write_record("graph_calls", {"calls": dict(_CALLS)})
