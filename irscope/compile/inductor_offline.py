"""Inside an offline ``irscope capture``: torch.compile writes and compiles its Triton kernels for the target GPU.

Inductor writes Triton only for a GPU device; the program's tensors are on the CPU (the device stand-in keeps
them there), where Inductor would write C++. So each graph torch.compile hands to Inductor is compiled a
second time with fake tensors on ``cuda:0`` (the same shapes, strides and dtypes, no memory): Inductor then
generates the Triton kernels it would for the stood-in GPU (it reads the SM count and capability from the
stand-in) and compiles them through Triton for the target, where the recording listener sees them. The
program itself runs the graph eagerly on the CPU. Nothing compiled for the target is launched: Inductor's
launchers, which would load the binaries onto a GPU, are not made.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from typing import Any

_STATE = threading.local()


def _to_gpu_graph(gm: Any, torch: Any) -> Any:
    """A copy of the FX graph whose device arguments name ``cuda:0`` instead of the CPU."""
    gpu = torch.device("cuda", 0)
    copied = copy.deepcopy(gm)

    def swap(value: Any) -> Any:
        if isinstance(value, torch.device) and value.type == "cpu":
            return gpu
        if isinstance(value, str) and value == "cpu":
            return "cuda"
        return value

    for node in copied.graph.nodes:
        node.args = tuple(swap(a) for a in node.args)
        node.kwargs = {k: swap(v) for k, v in node.kwargs.items()}
    copied.recompile()
    return copied


def _fake_gpu_inputs(example_inputs: list[Any], mode: Any, torch: Any) -> list[Any] | None:
    """The graph's inputs as fake tensors on ``cuda:0``; None when a shape is symbolic (dynamic shapes)."""
    from torch._subclasses.fake_tensor import FakeTensor

    gpu = torch.device("cuda", 0)
    fakes: list[Any] = []
    for value in example_inputs:
        if not isinstance(value, torch.Tensor):
            fakes.append(value)
            continue
        if not all(isinstance(d, int) for d in (*value.size(), *value.stride())):
            return None
        meta = torch.empty_strided(value.size(), value.stride(), dtype=value.dtype, device="meta")
        fake = FakeTensor(mode, meta, gpu)
        fakes.append(torch.nn.Parameter(fake, requires_grad=value.requires_grad)
                     if isinstance(value, torch.nn.Parameter) else fake)
    return fakes


def _compile_for_target(real_compile: Callable[..., Any], gm: Any, example_inputs: list[Any]) -> None:
    """Run Inductor on the graph with fake GPU inputs, so it compiles its Triton kernels for the target."""
    import torch
    from torch._guards import tracing
    from torch._subclasses.fake_tensor import FakeTensorMode

    mode = FakeTensorMode(allow_non_fake_inputs=True)
    fakes = _fake_gpu_inputs(list(example_inputs), mode, torch)
    if fakes is None:
        raise ValueError("the graph has dynamic (symbolic) shapes; compile with dynamic=False to capture its kernels")
    with tracing(None), mode:
        real_compile(_to_gpu_graph(gm, torch), fakes)



def wrap_compile_fx(module: Any, report: Callable[[str, str], None]) -> None:
    """Make ``torch._inductor.compile_fx.compile_fx`` compile each graph for the target too, then run it eagerly."""
    real_compile = module.compile_fx
    if getattr(real_compile, "_irscope_offline", False):
        return

    def compile_fx(gm: Any, example_inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(_STATE, "inside", False):
            return real_compile(gm, example_inputs, *args, **kwargs)  # Inductor calling itself
        _STATE.inside = True
        try:
            _compile_for_target(real_compile, gm, example_inputs)
        except Exception as exc:  # the program goes on eagerly; the failure is reported as not captured
            lines = str(exc).strip().splitlines()  # Inductor's messages can run on for pages: the first line says it
            report("torch.compile graph", f"Inductor could not compile it for the target: {type(exc).__name__}: "
                                          f"{lines[0] if lines else ''}")
        finally:
            _STATE.inside = False
        return gm.forward  # the program's own tensors are on the CPU: run the graph eagerly there

    compile_fx._irscope_offline = True  # type: ignore[attr-defined]
    module.compile_fx = compile_fx


def skip_launchers(module: Any) -> None:
    """Inductor's kernels compile for the target but are never loaded onto a GPU (there is none)."""
    module.CachingAutotuner._make_launchers = lambda self: None


def no_device_init(module: Any) -> None:
    """Fake tensors never touch the (absent) GPU: constants bound for ``cuda`` stay fake, as on a machine without one."""
    module.FakeTensorMode.avoid_device_init = property(lambda self: True)


def cpu_random_patterns(module: Any) -> None:
    """Inductor traces its randperm replacement patterns on the CPU: a CPU-only torch has no GPU random generator.

    The patterns match graphs by their operations, not their device, so the ones traced on the CPU match the same.
    """
    real_init = module._misc_patterns_init

    def init(input_device: Any = None) -> Any:
        return real_init("cpu")

    module._misc_patterns_init = init
