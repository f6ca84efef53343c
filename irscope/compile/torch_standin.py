"""Inside an offline ``irscope capture``: torch's GPU questions answered as the target's GPU would; tensors stay on the
CPU.

What is answered (the same on a CPU-only torch and on a CUDA torch whose GPUs are hidden, ``CUDA_VISIBLE_DEVICES=``):

* ``torch.cuda``: ``is_available`` (True), ``init`` / ``_lazy_init`` (nothing to do; ``is_initialized`` stays
  False, so what torch queues for the GPU's initialisation never runs),
  ``device_count`` (1), ``current_device`` (0), ``set_device``, ``device(...)`` (a context that selects nothing),
  ``get_device_name``, ``get_device_capability``, ``get_device_properties`` (name, major, minor, total_memory,
  multi_processor_count, L2_cache_size, shared_memory_per_block, shared_memory_per_block_optin,
  shared_memory_per_multiprocessor, regs_per_multiprocessor, max_threads_per_multi_processor, warp_size,
  clock_rate, memory_clock_rate, memory_bus_width, gcnArchName, is_integrated, uuid), ``get_arch_list``,
  ``is_bf16_supported``, ``mem_get_info``, ``memory_allocated`` / ``max_memory_allocated`` / ``memory_reserved``
  / ``max_memory_reserved`` (0: nothing is allocated on the GPU), ``memory_stats`` ({}), ``empty_cache`` and
  the ``reset_*`` statistics calls, ``synchronize``, ``current_stream`` / ``default_stream`` (an idle stream,
  a ``torch.Stream`` of device ``cuda:0``), ``Stream`` / ``ExternalStream`` (the same), ``stream(...)`` /
  ``set_stream`` / ``_set_stream_by_id``, ``Event`` (record, wait, query, synchronize; ``elapsed_time`` is 1 ms,
  since nothing runs, so timing loops such as Triton's ``do_bench`` end after a few rounds), CUDA graphs
  (``CUDAGraph``, ``graph(...)``: the launches inside compile and do not run, as every launch; ``replay`` does
  nothing; ``is_current_stream_capturing`` False, ``graph_pool_handle``, ``make_graphed_callables`` returns the
  callables), ``get_rng_state`` / ``set_rng_state`` (and ``_all``: the CPU's state, as torch.compile saves it
  around each traced frame), ``manual_seed`` / ``manual_seed_all`` / ``seed`` / ``seed_all`` (nothing: the CPU's
  generator is the one used), ``initial_seed`` (the CPU's), ``_exchange_device`` / ``_maybe_exchange_device``
(Inductor's device guard);
* ``torch.accelerator``: ``is_available``, ``current_accelerator`` (``cuda``), ``device_count``,
  ``current_device_index`` / ``current_device_idx``, ``set_device_index`` / ``set_device_idx``,
  ``device_index(...)``, ``current_stream``, ``set_stream``, ``synchronize``, ``get_memory_info``, the memory
  statistics and ``empty_cache`` (as torch.cuda's);
* ``torch._C``: ``_cuda_getDeviceCount``, ``_cuda_getDevice``, ``_cuda_setDevice``, ``_cuda_exchangeDevice``,
  ``_cuda_maybeExchangeDevice``, ``_cuda_getCurrentRawStream`` (0: Inductor's generated wrappers import it),
  ``_cuda_isCurrentStreamCapturing``, ``_cuda_synchronize``, ``_cuda_emptyCache``, ``_cuda_getArchFlags``,
  ``_cuda_isInBadFork``, ``_accelerator_getAccelerator``, ``_accelerator_getDeviceIndex``,
  ``_accelerator_setDeviceIndex``, ``_accelerator_exchangeDevice``, ``_accelerator_maybeExchangeDevice``,
  ``_accelerator_getStream``, ``_accelerator_setStream``, ``_accelerator_synchronizeDevice``;
* ``torch.version``: ``hip`` a ROCm version for AMD targets, else None; ``cuda`` a CUDA version for NVIDIA targets
  (the installed torch's own when it has one), else None.

Not answered, each saying so in one line when the program dies of it (``standin_faults``):
``torch.cuda.Event.ipc_handle`` (no process shares the GPU's memory offline).

Tensors stay on the CPU: a torch-function mode turns ``device="cuda"`` (or ``"cuda:N"``, an int, a cuda
``torch.device``) in any torch call into the CPU, ``Tensor.cuda()`` into a CPU copy (the tensor itself when it is
already one made for the GPU) and ``pin_memory()`` into a no-op. Such a tensor, and every tensor computed from one,
says it is on the GPU (``device(type='cuda', index=0)``, ``is_cuda`` True): ``tensor_device``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from irscope.compile import gpu_random
from irscope.compile.standin_faults import cannot
from irscope.model.gpus import Gpu

HIP_VERSION = "6.4.0"  # what torch.version.hip says for AMD targets (a ROCm release that supports gfx942 and gfx950)
CUDA_VERSION = "12.8"  # torch.version.cuda for NVIDIA targets on a torch built without CUDA (supports sm80 to sm120)
TIMED_MS = 1.0  # what a stand-in Event's elapsed_time answers: nothing ran
STANDIN_MARK = "_irscope_standin"  # set on torch once it answers as a GPU it does not have: the GPU's name


class DeviceProperties:
    """What ``torch.cuda.get_device_properties`` returns on the stood-in GPU, with torch's attribute names.

    As on a ROCm build of torch, an AMD GPU's properties have no ``shared_memory_per_block_optin``.
    """

    def __init__(self, gpu: Gpu) -> None:
        self.name = gpu.product
        self.major, self.minor = gpu.capability
        self.total_memory = gpu.memory_bytes
        self.multi_processor_count = gpu.sm_count
        self.L2_cache_size = gpu.l2_cache_bytes
        self.shared_memory_per_block = gpu.shared_memory_per_block
        if gpu.vendor == "NVIDIA":
            self.shared_memory_per_block_optin = gpu.shared_memory_per_block_optin
        self.shared_memory_per_multiprocessor = gpu.shared_memory_per_sm
        self.regs_per_multiprocessor = gpu.registers_per_sm
        self.max_threads_per_multi_processor = gpu.max_threads_per_sm
        self.warp_size = gpu.warp_size
        self.clock_rate = gpu.boost_clock_mhz * 1000
        self.memory_clock_rate = gpu.memory_clock_khz
        self.memory_bus_width = gpu.memory_bus_width_bits
        self.gcnArchName = gpu.gcn_arch_name or gpu.product  # torch on CUDA reports the name here
        self.is_integrated = 0
        self.is_multi_gpu_board = 0
        self.uuid = "00000000-0000-0000-0000-000000000000"

    def __repr__(self) -> str:
        return (f"_CudaDeviceProperties(name='{self.name}', major={self.major}, minor={self.minor}, "
                f"total_memory={self.total_memory // (1024 * 1024)}MB, "
                f"multi_processor_count={self.multi_processor_count}, "
                f"L2_cache_size={self.L2_cache_size // (1024 * 1024)}MB)")


class DeviceContext:
    """``torch.cuda.device(i)`` / ``torch.accelerator.device_index(i)``: selects nothing (one stood-in device)."""

    def __init__(self, device: Any = None) -> None:
        self.idx = 0
        self.prev_idx = 0

    def __enter__(self) -> DeviceContext:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


class Event:
    """``torch.cuda.Event``: an event of a GPU on which nothing runs, so it is always complete."""

    cuda_event = 0
    event_id = 0

    def __init__(self, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False,
                 **_: Any) -> None:
        self.enable_timing = enable_timing

    def record(self, stream: Any = None) -> None:
        """Nothing to mark."""

    def wait(self, stream: Any = None) -> None:
        """Nothing to wait for."""

    def query(self) -> bool:
        """Always complete."""
        return True

    def synchronize(self) -> None:
        """Nothing to wait for."""

    def elapsed_time(self, end_event: Any) -> float:
        """TIMED_MS: nothing ran between the two events."""
        return TIMED_MS

    def ipc_handle(self) -> Any:
        """No other process shares the (absent) GPU."""
        cannot("torch.cuda.Event.ipc_handle", "an event shared between processes needs a GPU; offline none runs")


class CudaGraph:
    """``torch.cuda.CUDAGraph``: the launches made while capturing compile (and do not run); replay does nothing."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.captured = False

    def capture_begin(self, *args: Any, **kwargs: Any) -> None:
        """Nothing to record: launches compile and do not run."""

    def capture_end(self) -> None:
        """The capture is over."""
        self.captured = True

    def replay(self) -> None:
        """Nothing runs offline."""

    def reset(self) -> None:
        """Nothing was recorded."""
        self.captured = False

    def pool(self) -> tuple[int, int]:
        """A memory pool handle that names no memory."""
        return (0, 0)

    def enable_debug_mode(self) -> None:
        """Nothing to debug."""

    def debug_dump(self, path: str) -> None:
        """Nothing was recorded."""


class GraphContext:
    """``torch.cuda.graph(g)``: the body runs (its launches compile), as on a GPU; nothing is recorded."""

    def __init__(self, cuda_graph: Any, *args: Any, **kwargs: Any) -> None:
        self.cuda_graph = cuda_graph

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        getattr(self.cuda_graph, "capture_end", lambda: None)()


def stream_type(torch: Any) -> type:
    """``torch.cuda.Stream`` on the stood-in GPU: a ``torch.Stream`` of ``cuda:0`` that is always idle."""

    class Stream(torch.Stream):
        """A stream of the stood-in GPU: nothing runs on it, so it is always idle."""

        cuda_stream = 0

        def __new__(cls, device: Any = None, priority: int = 0, **_: Any) -> Any:
            return super().__new__(cls, stream_id=0, device_index=0, device_type=1)  # DeviceType::CUDA

        def __init__(self, device: Any = None, priority: int = 0, **_: Any) -> None:
            self.priority = priority

        def query(self) -> bool:
            return True

        def is_capturing(self) -> bool:
            return False  # optimizers' step() asks (a CUDA graph capture); nothing is captured offline

        def synchronize(self) -> None:
            return None

        def wait_stream(self, stream: Any) -> None:
            return None

        def wait_event(self, event: Any) -> None:
            return None

        def record_event(self, event: Any = None) -> Any:
            return event if event is not None else Event()

    return Stream


def _memory_answers() -> dict[str, Any]:
    """Memory statistics of a GPU on which nothing is allocated."""
    nothing = {name: (lambda device=None: 0) for name in ("memory_allocated", "max_memory_allocated",
                                                          "memory_reserved", "max_memory_reserved")}
    calls = {name: (lambda device=None: None) for name in ("empty_cache", "reset_peak_memory_stats",
                                                           "reset_accumulated_memory_stats",
                                                           "reset_max_memory_allocated")}
    return {**nothing, **calls, "memory_stats": lambda device=None: {}}


def _cuda_answers(torch: Any, gpu: Gpu, props: DeviceProperties, stream: Any) -> dict[str, Any]:
    """torch.cuda's answers, by name."""
    total = gpu.memory_bytes
    arch = gpu.gcn_arch_name.split(":")[0] if gpu.gcn_arch_name else f"sm_{props.major}{props.minor}"

    @contextlib.contextmanager
    def in_stream(stream: Any = None) -> Iterator[None]:
        yield

    return {
        **_memory_answers(),
        "is_available": lambda: True,
        "init": lambda: None,  # is_initialized stays False: calls queued for the GPU's initialisation never run
        "_lazy_init": lambda: None,
        "device_count": lambda: 1,
        "current_device": lambda: 0,
        "set_device": lambda device: None,
        "synchronize": lambda device=None: None,
        "get_device_name": lambda device=None: props.name,
        "get_device_capability": lambda device=None: (props.major, props.minor),
        "get_device_properties": lambda device=None: props,
        "get_arch_list": lambda: [arch],
        "is_bf16_supported": lambda including_emulation=True: gpu.vendor == "AMD" or props.major >= 8,
        "mem_get_info": lambda device=None: (total, total),
        "current_stream": lambda device=None: stream,
        "default_stream": lambda device=None: stream,
        "Stream": type(stream),
        "ExternalStream": type(stream),
        "Event": Event,
        "stream": in_stream,
        "set_stream": lambda stream: None,
        "_set_stream_by_id": lambda stream_id, device_index, device_type: None,
        "device": DeviceContext,
        "CUDAGraph": CudaGraph,
        "graph": GraphContext,
        "is_current_stream_capturing": lambda: False,
        "graph_pool_handle": lambda: (0, 0),
        "make_graphed_callables": lambda callables, *args, **kwargs: callables,
        # The GPU's random state is the CPU's (torch.compile saves and restores it around every frame it traces).
        "get_rng_state": lambda device="cuda": torch.get_rng_state(),
        "set_rng_state": lambda new_state, device="cuda": None,
        "get_rng_state_all": lambda: [torch.get_rng_state()],
        "set_rng_state_all": lambda new_states: None,
        "manual_seed": lambda seed: None,  # torch.manual_seed seeds the CPU's generator, the one that is used
        "manual_seed_all": lambda seed: None,
        "seed": lambda: None,
        "seed_all": lambda: None,
        "initial_seed": lambda: torch.initial_seed(),
        "_exchange_device": lambda device: 0,  # Inductor's DeviceGuard (two functions: dynamo keys handlers by them)
        "_maybe_exchange_device": lambda device: 0,
    }


def _accelerator_answers(torch: Any, gpu: Gpu, stream: Any) -> dict[str, Any]:
    """torch.accelerator's answers, by name."""
    total = gpu.memory_bytes
    return {
        **_memory_answers(),
        "is_available": lambda: True,
        "current_accelerator": lambda check_available=False: torch.device("cuda"),
        "device_count": lambda: 1,
        "current_device_index": lambda: 0,
        "current_device_idx": lambda: 0,
        "set_device_index": lambda device: None,
        "set_device_idx": lambda device: None,
        "device_index": DeviceContext,
        "current_stream": lambda device=None: stream,
        "set_stream": lambda stream: None,
        "synchronize": lambda device=None: None,
        "get_memory_info": lambda device=None: (total, total),
        "empty_host_cache": lambda: None,
    }


def _c_answers(torch: Any, arch: str, stream: Any) -> dict[str, Any]:
    """torch._C's device functions, by name (torch.cuda and torch.accelerator call these)."""
    return {
        "_cuda_getDeviceCount": lambda: 1,
        "_cuda_getDevice": lambda: 0,
        "_cuda_setDevice": lambda device: None,
        "_cuda_exchangeDevice": lambda device: 0,
        "_cuda_maybeExchangeDevice": lambda device: 0,
        "_cuda_getCurrentRawStream": lambda device: 0,  # Inductor's generated wrappers import it
        "_cuda_isCurrentStreamCapturing": lambda: False,
        "_cuda_synchronize": lambda: None,
        "_cuda_emptyCache": lambda: None,
        "_cuda_getArchFlags": lambda: arch,
        "_cuda_isInBadFork": lambda: False,
        "_accelerator_getAccelerator": lambda: torch.device("cuda"),
        "_accelerator_getDeviceIndex": lambda: 0,
        "_accelerator_setDeviceIndex": lambda device: None,
        "_accelerator_exchangeDevice": lambda device: 0,
        "_accelerator_maybeExchangeDevice": lambda device: 0,
        "_accelerator_getStream": lambda device=None: stream,
        "_accelerator_setStream": lambda stream: None,
        "_accelerator_synchronizeDevice": lambda device=None: None,
    }


def _is_gpu_device(value: Any) -> bool:
    """Whether a torch ``device=`` value names the GPU (``"cuda"``, ``"cuda:0"``, ``0``, ``torch.device("cuda")``)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    if isinstance(value, str):
        return value.split(":")[0] in ("cuda", "hip")
    return getattr(value, "type", None) == "cuda"


def _device_kind(value: Any) -> str | None:
    """``"gpu"`` for a torch ``device=`` value that names the GPU, ``"cpu"`` for another device (the CPU, ``meta``),
    None for anything else (``None``, a dtype)."""
    if _is_gpu_device(value):
        return "gpu"
    if isinstance(value, str) or type(value).__name__ == "device":
        return "cpu"
    return None


def _keep_tensors_on_cpu(torch: Any) -> None:
    """Every torch call that asks for the GPU gets the CPU, for the life of the program's main thread; the tensors
    made for the GPU say they are on it (``tensor_device``)."""
    from torch.overrides import TorchFunctionMode

    from irscope.compile import tensor_device

    tensor = torch.Tensor
    # ``~t`` selects t's device in torch's C++ binding, which a torch built without CUDA cannot do for the fake
    # ``cuda`` tensors Inductor traces with (its decomposition of an embedding's backward inverts a mask).
    tensor.__invert__ = lambda self: torch.bitwise_not(self)
    to_gpu = {tensor.cuda}
    no_ops = {tensor.pin_memory}
    moves = {tensor.to}  # the one method that takes the device positionally
    devices = tensor_device.TensorDevices(torch)
    compiling = torch.compiler.is_compiling

    class CpuForGpu(TorchFunctionMode):
        """Every torch call that asks for the GPU gets the CPU; a tensor made for the GPU says it is on it."""

        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            kwargs = kwargs or {}
            if func in no_ops:
                return args[0]
            if func in to_gpu:
                return args[0] if compiling() else devices.to_gpu(args[0])
            device = None
            if "device" in kwargs:
                device = _device_kind(kwargs["device"])
                if device == "gpu":
                    kwargs = {**kwargs, "device": "cpu"}
            if func in moves and len(args) > 1:
                for a in args[1:]:
                    device = device or (("gpu" if tensor_device.is_marked(a) else "cpu") if isinstance(a, tensor)
                                        else _device_kind(a))
                args = (args[0], *("cpu" if not isinstance(a, torch.Tensor) and _is_gpu_device(a) else a
                                   for a in args[1:]))
            if compiling():
                return func(*args, **kwargs)
            answer = devices.answer(func, args)
            if answer is not tensor_device.UNANSWERED:
                return answer
            return devices.after(func, args, kwargs, func(*args, **kwargs), device)

    mode = CpuForGpu()
    mode.__enter__()
    tensor_device.parameters_keep_mark(torch)
    tensor_device.functions_keep_marks(torch, mode)
    tensor_device.custom_ops_keep_mode(torch, mode)


def torch_sees_gpu(torch: Any) -> bool:
    """Whether torch has a real GPU: not when it is answering as irscope's offline stand-in for one (a replay or
    FILE:FUNCTION import in this process put it there; it stays for the process)."""
    return getattr(torch, STANDIN_MARK, None) is None and bool(torch.cuda.is_available())


def patch_torch(torch: Any, gpu: Gpu) -> None:
    """Answer torch's device questions as ``gpu`` would and keep the program's tensors on the CPU."""
    import torch.accelerator
    import torch.cuda.graphs

    setattr(torch, STANDIN_MARK, gpu.product)
    props = DeviceProperties(gpu)
    stream = stream_type(torch)()
    cuda = _cuda_answers(torch, gpu, props, stream)
    for name, value in cuda.items():
        setattr(torch.cuda, name, value)
    torch.cuda.default_generators = gpu_random.generators(torch)  # Philox seed and offset, as FlagGems' dropout reads
    for name in ("CUDAGraph", "graph", "is_current_stream_capturing", "graph_pool_handle", "make_graphed_callables"):
        setattr(torch.cuda.graphs, name, cuda[name])
    for name, value in _accelerator_answers(torch, gpu, stream).items():
        setattr(torch.accelerator, name, value)
    for name, value in _c_answers(torch, cuda["get_arch_list"]()[0], stream).items():
        setattr(torch._C, name, value)
    nvidia = gpu.vendor == "NVIDIA"
    torch.version.hip = None if nvidia else HIP_VERSION
    torch.version.cuda = (torch.version.cuda or CUDA_VERSION) if nvidia else None
    if not getattr(torch, "_irscope_tensors_kept", False):  # once a process: a replay for another target answers
        torch._irscope_tensors_kept = True  # as that GPU (above) but must not stack a second mode and wrappers
        _keep_tensors_on_cpu(torch)
