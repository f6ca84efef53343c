"""Inside an offline ``irscope capture``: torch.compile writes and compiles its Triton kernels for the target GPU.

Inductor writes Triton only for a GPU device; the program's tensors are on the CPU (the device stand-in keeps
them there), where Inductor would write C++. So each graph torch.compile hands to Inductor is compiled a
second time with fake tensors on ``cuda:0`` (the same shapes, strides and dtypes, no memory): Inductor then
generates the Triton kernels it would for the stood-in GPU (it reads the SM count and capability from the
stand-in) and compiles them through Triton for the target, where the recording listener sees them. The
program itself runs the graph eagerly on the CPU. Nothing compiled for the target is launched: Inductor's
launchers, which would load the binaries onto a GPU, are not made; the compiled graph's wrapper runs once on the
fake inputs, recording the launches it would make (``inductor_launches``).

A torch built without CUDA cannot run autograd on fake ``cuda`` tensors (its C++ side asks the CUDA device guard
for a stream, and aborts), so the fake inputs require no grad; a graph whose backward is needed is traced and
partitioned by AOT autograd on the CPU, and each forward and backward graph it hands to Inductor's inner compile
is compiled on fake ``cuda`` inputs (the backward when the program first runs it, as on a GPU). Inductor's
joint-graph constant folding, which evaluates constants (a causal mask's ``torch.ones``) on the graph's device,
evaluates them on the CPU, and so does AOT autograd's tracer the constants it computes (a fresh KV cache's
``torch.tensor([], device=...)``); pad_mm, which times an unaligned mm padded and unpadded on real GPU tensors,
does not pad it. ``.contiguous()`` and ``.copy_()`` of a fake ``cuda`` tensor are aten operators while Inductor
compiles (``fake_indexing``).
"""

from __future__ import annotations

import contextlib
import copy
import threading
from collections.abc import Callable, Iterator
from typing import Any

from irscope.compile.program_fault import raised_at

_STATE = threading.local()


def _to_gpu_graph(gm: Any, torch: Any) -> Any:
    """A copy of the FX graph whose device arguments name ``cuda:0`` instead of the CPU."""
    gpu = torch.device("cuda", 0)
    copied = dynamo_graph_copy(gm)

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
    """The graph's inputs as fake tensors on ``cuda:0`` that require no grad; None when a shape is symbolic.

    No grad: autograd's C++ side asks the device's guard for a stream, which a torch built without CUDA aborts on
    (a graph that needs its backward is traced on the CPU first: ``_compile_training_graphs``).
    """
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
        fakes.append(torch.nn.Parameter(fake, requires_grad=False)
                     if isinstance(value, torch.nn.Parameter) else fake)
    return fakes


def _compile_for_target(real_compile: Callable[..., Any], gm: Any, example_inputs: list[Any],
                        report: Callable[[str, str], None]) -> Any:
    """Run Inductor on the graph with fake GPU inputs, so it compiles its Triton kernels for the target.

    Returns what the program runs instead of the graph: None for the graph itself (eagerly), or, for a graph whose
    backward is needed, AOT autograd's function over the eager forward and backward graphs.
    """
    import torch

    if torch.is_grad_enabled() and any(isinstance(v, torch.Tensor) and v.requires_grad for v in example_inputs):
        return _compile_training_graphs(real_compile, gm, example_inputs, report)
    from torch._inductor import compile_fx as module

    from irscope.compile.inductor_launches import launching

    _compile_on_gpu(real_compile, gm, list(example_inputs), inner_compile=launching(module.compile_fx_inner))
    return None


def _compile_on_gpu(compile_fn: Callable[..., Any], gm: Any, example_inputs: list[Any], **kwargs: Any) -> None:
    """``compile_fn`` (Inductor's compile_fx or compile_fx_inner) on a graph copy with fake inputs on ``cuda:0``."""
    import torch
    from torch._guards import TracingContext, tracing
    from torch._subclasses.fake_tensor import FakeTensorMode

    from irscope.compile.fake_indexing import device_free_methods

    mode = FakeTensorMode(allow_non_fake_inputs=True)
    fakes = _fake_gpu_inputs(example_inputs, mode, torch)
    if fakes is None:
        raise ValueError("the graph has dynamic (symbolic) shapes; compile with dynamic=False to capture its kernels")
    context = TracingContext(mode)
    aot = TracingContext.try_get()
    if aot is not None and aot.fw_metadata is not None:
        # An inner compile of AOT autograd's forward or backward graph: Inductor reads AOT's view of the graph from
        # the context (which saved activations the backward may overwrite, bw_donated_idxs, so its in-place buffer
        # choices), as on a GPU. What Inductor appends to the context stays in this one.
        context.fw_metadata = aot.fw_metadata
        context.output_strides = []
    outer = getattr(_STATE, "inside", False)
    _STATE.inside = True
    try:
        with tracing(context), mode, device_free_methods(torch):
            compile_fn(_to_gpu_graph(gm, torch), fakes, **kwargs)
    finally:
        _STATE.inside = outer


def _compile_training_graphs(real_compile: Callable[..., Any], gm: Any, example_inputs: Any,
                             report: Callable[[str, str], None]) -> Any:
    """A graph whose backward is needed: AOT autograd traces and partitions it on the CPU, where autograd works
    without a GPU, and each forward and backward graph it hands to Inductor's inner compile is compiled on fake
    ``cuda:0`` inputs instead, then run eagerly. The backward graph is compiled when the program first runs it,
    as on a GPU."""
    from torch._functorch.aot_autograd import make_boxed_func
    from torch._inductor import compile_fx as module

    from irscope.compile.inductor_graphs import counted, made_graphs
    from irscope.compile.inductor_launches import launching

    real_inner = module.compile_fx_inner

    def inner(graph: Any, inputs: Any, **kwargs: Any) -> Any:
        what = "torch.compile backward graph" if kwargs.get("is_backward") else "torch.compile graph"
        with made_graphs() as ids:
            _reported(report, what, _compile_on_gpu, launching(real_inner), graph, list(inputs), **kwargs)
        return make_boxed_func(counted(graph.forward, ids))

    return real_compile(dynamo_graph_copy(gm), example_inputs, inner_compile=inner)


def dynamo_graph_copy(gm: Any) -> Any:
    """A deep copy of Dynamo's graph module that AOT autograd still reads as Dynamo's.

    ``copy.deepcopy`` keeps the module's ``meta`` but drops ``_param_name_to_source`` and each placeholder's
    ``_dynamo_source``, from which AOT autograd tells the parameters (static inputs); without them the
    partitioner no longer treats parameters as free to save, and saves their transposes instead (a different
    forward and backward than the GPU compiles: measured on the H200, train step program).
    """
    copied = copy.deepcopy(gm)
    if hasattr(gm, "_param_name_to_source"):
        copied._param_name_to_source = gm._param_name_to_source
    for old, new in zip(gm.graph.find_nodes(op="placeholder"), copied.graph.find_nodes(op="placeholder"), strict=True):
        if hasattr(old, "_dynamo_source"):
            new._dynamo_source = old._dynamo_source
    return copied


def _reported(report: Callable[[str, str], None], what: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``; an exception is reported as ``what`` not captured (and None returned)."""
    try:
        return fn(*args, **kwargs)
    except Exception as exc:  # the program goes on eagerly; the failure is reported as not captured
        lines = str(exc).strip().splitlines()  # Inductor's messages can run on for pages: the first line says it
        report(what, f"Inductor could not compile it for the target: {type(exc).__name__}: {lines[0] if lines else ''}"
                     f"{raised_at(exc)}")
        return None


def wrap_compile_fx(module: Any, report: Callable[[str, str], None]) -> None:
    """Make ``torch._inductor.compile_fx.compile_fx`` compile each graph for the target too, then run it eagerly."""
    real_compile = module.compile_fx
    if getattr(real_compile, "_irscope_offline", False):
        return

    def compile_fx(gm: Any, example_inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if getattr(_STATE, "inside", False):
            return real_compile(gm, example_inputs, *args, **kwargs)  # Inductor calling itself
        from irscope.compile.inductor_graphs import counted, made_graphs

        with made_graphs() as ids:  # an inference graph's; a training graph's halves count their own runs
            run = _reported(report, "torch.compile graph", _compile_for_target, real_compile, gm,
                            list(example_inputs), report)
        # The program's own tensors are on the CPU: it runs the graph eagerly there.
        return counted(run or gm.forward, ids)

    compile_fx._irscope_offline = True  # type: ignore[attr-defined]
    module.compile_fx = compile_fx


def skip_launchers(module: Any) -> None:
    """Inductor's kernels compile for the target but are never loaded onto a GPU (there is none); their launches
    are recorded (``inductor_launches``)."""
    from irscope.compile import inductor_launches

    module.CachingAutotuner._make_launchers = lambda self: None
    inductor_launches.install(module)


def no_device_init(module: Any) -> None:
    """Fake tensors never touch the (absent) GPU: constants bound for ``cuda`` stay fake, as on a GPU-less machine."""
    module.FakeTensorMode.avoid_device_init = property(lambda self: True)
    if hasattr(module, "init_gpu_context"):  # torch 2.11 makes a real cuda tensor first, for the backward's sake
        module.init_gpu_context = lambda device: None


def cpu_random_patterns(module: Any) -> None:
    """Inductor traces its randperm replacement patterns on the CPU: a CPU-only torch has no GPU random generator.

    The patterns match graphs by their operations, not their device, so the ones traced on the CPU match the same.
    """
    real_init = module._misc_patterns_init

    def init(input_device: Any = None) -> Any:
        return real_init("cpu")

    module._misc_patterns_init = init


def cpu_constant_folding(module: Any) -> None:
    """Inductor's joint-graph pass folds constants (a causal mask's ``torch.ones``) by running them for real on the
    graph's device; on the stand-in GPU they run on the CPU. Only the folded scalar is kept: the graph's nodes keep
    their ``cuda`` device, as on a GPU."""
    folder = module.UniformValueConstantFolder
    for name in ("__init__", "run"):
        setattr(folder, name, _on_cpu(getattr(folder, name)))


def gpu_joint_graph(module: Any) -> None:
    """A training graph's joint-graph passes run on AOT autograd's trace of it on the CPU
    (``_compile_training_graphs``), where a device check (``bmm_to_mm``: a batch-1 bmm becomes an mm on the GPU) would
    see the CPU; offline every graph Inductor compiles stands for a GPU graph, so a CPU pair passes the check for the
    GPU, and constants still fold on the CPU (``cpu_constant_folding``)."""
    cpu_constant_folding(module)
    real = module.check_device
    if getattr(real, "_irscope_offline", False):
        return

    def check_device(a: Any, b: Any, device: str = "cuda") -> bool:
        return bool(real(a, b, device)) or (device == "cuda" and a.device.type == b.device.type == "cpu")

    check_device._irscope_offline = True  # type: ignore[attr-defined]
    module.check_device = check_device


def cpu_constant_propagation(module: Any) -> None:
    """AOT autograd's tracer computes the value of each small op whose inputs are all constants for real (Hugging
    Face's ``torch.tensor([], device=cuda)`` of a fresh KV cache, moved to ``cuda``), on the graph's device; on the
    stand-in GPU it computes them on the CPU. The values serve ``.item()`` and the like, the same on either device;
    the traced graph keeps its ``cuda`` device."""
    real = module.unset_fake_temporarily
    if getattr(real, "_irscope_offline", False):
        return

    @contextlib.contextmanager
    def unset_fake_temporarily() -> Iterator[Any]:
        with real() as outer, _cpu_for_gpu_ops()():
            yield outer

    unset_fake_temporarily._irscope_offline = True  # type: ignore[attr-defined]
    module.unset_fake_temporarily = unset_fake_temporarily


def untimed_mm_padding(module: Any) -> None:
    """Inductor pads an mm's shapes when it measures the padded mm faster on the GPU, timing both on real tensors
    made there; offline nothing can be timed, so an mm is padded only when Inductor is told to (``force_shape_pad``),
    as the unpadded mm's first (offline: fastest) time would decide."""

    def should_pad(*args: Any, **kwargs: Any) -> bool:
        import torch

        return bool(torch._inductor.config.force_shape_pad)

    module._should_pad = should_pad


_MODES: list[Any] = []


def _cpu_for_gpu_ops() -> Any:
    """A dispatch mode in which a real aten call that asks for the GPU (a ``device`` argument) gets the CPU."""
    if _MODES:
        return _MODES[0]
    import torch
    from torch.utils._python_dispatch import TorchDispatchMode
    from torch.utils._pytree import tree_map

    def cpu(value: Any) -> Any:
        return torch.device("cpu") if isinstance(value, torch.device) and value.type == "cuda" else value

    class CpuForGpuOps(TorchDispatchMode):
        """An aten call that asks for the GPU gets the CPU."""

        def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            return func(*tree_map(cpu, tuple(args)), **tree_map(cpu, dict(kwargs or {})))

    _MODES.append(CpuForGpuOps)
    return CpuForGpuOps


def _on_cpu(method: Callable[..., Any]) -> Callable[..., Any]:
    """``method`` run with real aten calls for the GPU made on the CPU."""

    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        with _cpu_for_gpu_ops()():
            return method(self, *args, **kwargs)

    return run
