"""Inside an offline ``irscope capture``: the program's questions about its GPU answered as the target's GPU would.

Libraries size their tiles from the device (fla reads the name, capability and shared memory, Liger the SM
count), so a program compiled for sm90 on a machine without a GPU must hear what an H100 would say. Answered:

* ``torch.cuda``: ``is_available`` (True), ``device_count`` (1), ``current_device`` (0),
  ``set_device``, ``device(...)`` (a context that selects nothing), ``get_device_name``,
  ``get_device_capability``, ``get_device_properties`` (name, major, minor, total_memory,
  multi_processor_count, L2_cache_size, shared_memory_per_block, shared_memory_per_block_optin,
  shared_memory_per_multiprocessor, regs_per_multiprocessor, max_threads_per_multi_processor, warp_size,
  clock_rate, memory_clock_rate, memory_bus_width, gcnArchName, is_integrated, uuid), ``mem_get_info``,
  ``synchronize``, ``current_stream`` / ``default_stream`` (a null stream), ``get_rng_state`` /
  ``set_rng_state`` (and ``_all``: the CPU's state, as torch.compile saves it around each traced frame);
* ``torch.version.hip``: a version string for AMD targets, None for NVIDIA ones;
* Triton's ``driver.active``: ``get_current_target`` (already the stand-in's), ``get_device_capability``
  and ``utils.get_device_properties`` with the keys Triton's own CUDA / HIP drivers return.

Tensors stay on the CPU: a torch-function mode turns ``device="cuda"`` (or ``"cuda:N"``, an int, a cuda
``torch.device``) in any torch call into the CPU, and ``Tensor.cuda()`` / ``pin_memory()`` into no-ops. Such a
tensor still says ``device(type='cpu')`` and ``is_cuda`` False. The torch patches are applied when the program
first imports torch, so a process that never does pays nothing.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from pathlib import Path
from typing import Any

from irscope.compile import gpu_random
from irscope.compile.records import OfflineTarget
from irscope.model.gpus import DEFAULT_GPU, GPUS, Gpu

HIP_VERSION = "6.4.0"  # what torch.version.hip says for AMD targets (a ROCm release that supports gfx942 and gfx950)


def gpu_for(target: OfflineTarget) -> Gpu | None:
    """The GPU the capture's settings name for its target, else the target's default, else None."""
    name = target.gpu
    if isinstance(name, str) and name in GPUS:
        return GPUS[name]
    arch = target.arch
    target_name = f"sm{arch}" if target.backend == "cuda" else str(arch)
    default = DEFAULT_GPU.get(target_name)
    return GPUS[default] if default else None


def triton_properties(gpu: Gpu) -> dict[str, Any]:
    """``driver.active.utils.get_device_properties(i)`` as Triton's real driver for this vendor returns it."""
    props: dict[str, Any] = {
        "max_shared_mem": gpu.shared_memory_per_block_optin if gpu.vendor == "NVIDIA" else gpu.shared_memory_per_block,
        "max_num_regs": gpu.max_registers_per_block,
        "multiprocessor_count": gpu.sm_count,
        "warpSize": gpu.warp_size,
        "sm_clock_rate": gpu.boost_clock_mhz * 1000,  # kHz, as cuDeviceGetAttribute / hipDeviceProp give it
        "mem_clock_rate": gpu.memory_clock_khz,
        "mem_bus_width": gpu.memory_bus_width_bits,
    }
    if gpu.vendor == "AMD":
        props.update(arch=gpu.gcn_arch_name, max_threads_per_sm=gpu.max_threads_per_sm)
        if _amd_driver_reports("cooperativeLaunch"):  # Triton 3.9's HIP driver does; 3.5's does not
            props["cooperativeLaunch"] = 1
    return props


@functools.cache
def _amd_driver_reports(key: str) -> bool:
    """Whether the installed Triton's HIP driver (``backends/amd/driver.c``) puts ``key`` in its device properties.

    Unknown (no such file, say) counts as yes: the newest Triton's answer.
    """
    spec = importlib.util.find_spec("triton")
    origin = Path(spec.origin) if spec is not None and spec.origin else None
    try:
        return origin is None or f'"{key}"' in (origin.parent / "backends" / "amd" / "driver.c").read_text()
    except (OSError, UnicodeDecodeError):
        return True


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
                f"multi_processor_count={self.multi_processor_count}, L2_cache_size={self.L2_cache_size // (1024 * 1024)}MB)")


class TritonUtils:
    """Stands in for ``driver.active.utils``: the device questions Triton's real utils answer."""

    def __init__(self, gpu: Gpu) -> None:
        self.gpu = gpu

    def get_device_properties(self, device: int = 0) -> dict[str, Any]:
        """The same keys Triton's CUDA / HIP driver returns."""
        return triton_properties(self.gpu)

    def get_device_capability(self, device: int = 0) -> tuple[int, int]:
        """(major, minor)."""
        return self.gpu.capability

    def get_current_device(self) -> int:
        """Device 0."""
        return 0

    def set_current_device(self, device: int) -> None:
        """Nothing to select."""


class NullStream:
    """``torch.cuda.current_stream()``: a stream that is always idle."""

    cuda_stream = 0
    stream_id = 0
    device_index = 0

    def synchronize(self) -> None:
        """Nothing runs, so nothing to wait for."""

    def wait_stream(self, stream: Any) -> None:
        """Nothing runs, so nothing to wait for."""

    def query(self) -> bool:
        """Always done."""
        return True


class DeviceContext:
    """``torch.cuda.device(i)``: selects nothing (there is one stood-in device)."""

    def __init__(self, device: Any = None) -> None:
        self.idx = 0

    def __enter__(self) -> DeviceContext:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def _is_gpu_device(value: Any) -> bool:
    """Whether a torch ``device=`` value names the GPU (``"cuda"``, ``"cuda:0"``, ``0``, ``torch.device("cuda")``)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    if isinstance(value, str):
        return value.split(":")[0] in ("cuda", "hip")
    return getattr(value, "type", None) == "cuda"


def _patch_torch(torch: Any, gpu: Gpu) -> None:
    """Answer torch.cuda's device questions as ``gpu`` would and keep the program's tensors on the CPU."""
    from torch.overrides import TorchFunctionMode

    props = DeviceProperties(gpu)
    cuda = torch.cuda
    stream = NullStream()
    total = gpu.memory_bytes
    answers: dict[str, Any] = {
        "is_available": lambda: True,
        "device_count": lambda: 1,
        "current_device": lambda: 0,
        "set_device": lambda device: None,
        "synchronize": lambda device=None: None,
        "get_device_name": lambda device=None: props.name,
        "get_device_capability": lambda device=None: (props.major, props.minor),
        "get_device_properties": lambda device=None: props,
        "mem_get_info": lambda device=None: (total, total),
        "current_stream": lambda device=None: stream,
        "default_stream": lambda device=None: stream,
        "device": DeviceContext,
        # The GPU's random state is the CPU's (torch.compile saves and restores it around every frame it traces).
        "get_rng_state": lambda device="cuda": torch.get_rng_state(),
        "set_rng_state": lambda new_state, device="cuda": None,
        "get_rng_state_all": lambda: [torch.get_rng_state()],
        "set_rng_state_all": lambda new_states: None,
    }
    for name, value in answers.items():
        setattr(cuda, name, value)
    cuda.default_generators = gpu_random.generators(torch)  # Philox seed and offset, as FlagGems' dropout reads
    torch.version.hip = HIP_VERSION if gpu.vendor == "AMD" else None
    cuda._exchange_device = lambda device: 0  # Inductor's DeviceGuard (two functions: dynamo keys handlers by them)
    cuda._maybe_exchange_device = lambda device: 0
    if not hasattr(torch._C, "_cuda_getCurrentRawStream"):
        torch._C._cuda_getCurrentRawStream = lambda device: 0  # Inductor's generated wrappers import it

    tensor = torch.Tensor
    no_ops = {tensor.cuda, tensor.pin_memory}
    moves = {tensor.to}  # the one method that takes the device positionally

    class CpuForGpu(TorchFunctionMode):
        """Every torch call that asks for the GPU gets the CPU."""

        def __torch_function__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
            kwargs = kwargs or {}
            if func in no_ops:
                return args[0]
            if "device" in kwargs and _is_gpu_device(kwargs["device"]):
                kwargs = {**kwargs, "device": "cpu"}
            if func in moves and len(args) > 1:
                args = (args[0], *("cpu" if not isinstance(a, torch.Tensor) and _is_gpu_device(a) else a
                                   for a in args[1:]))
            return func(*args, **kwargs)

    CpuForGpu().__enter__()  # for the life of the program's main thread


def _report_failure(name: str, error: str) -> None:
    """Record something that could not be captured (it is listed as NOT captured after the run)."""
    from irscope.compile.session import write_record

    write_record("failures", {"name": name, "error": error})


def _keep_standin_driver(helpers: Any) -> None:
    """Inductor's generated modules call ``set_driver_to_gpu()``, which would replace the stand-in with the real driver."""
    helpers.set_driver_to_gpu = lambda: None


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs ``actions[name](module)`` once, right after module ``name`` is imported."""

    def __init__(self, actions: dict[str, Any]) -> None:
        self.actions = actions

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname not in self.actions:
            return None
        action = self.actions.pop(fullname)
        if not self.actions:
            sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader

        class Loader(importlib.abc.Loader):
            def create_module(self, spec: Any) -> Any:
                return loader.create_module(spec)

            def exec_module(self, module: types.ModuleType) -> None:
                loader.exec_module(module)
                action(module)

        spec.loader = Loader()
        return spec


def install(driver: Any, target: OfflineTarget) -> Gpu | None:
    """Make ``driver`` (the offline stand-in) and, once imported, torch answer as the target's GPU; returns it."""
    gpu = gpu_for(target)
    if gpu is None:
        return None
    driver.utils = TritonUtils(gpu)
    driver.get_device_capability = lambda device=None: gpu.capability
    from irscope.compile import inductor_offline

    actions: dict[str, Any] = {
        "torch": lambda module: _patch_torch(module, gpu),
        "torch._inductor.runtime.triton_helpers": _keep_standin_driver,
        "torch._inductor.runtime.triton_heuristics": inductor_offline.skip_launchers,
        "torch._inductor.compile_fx": lambda module: inductor_offline.wrap_compile_fx(module, _report_failure),
        "torch._subclasses.fake_tensor": inductor_offline.no_device_init,
        "torch._inductor.fx_passes.misc_patterns": inductor_offline.cpu_random_patterns,
    }
    for name in list(actions):
        if name in sys.modules:
            actions.pop(name)(sys.modules[name])
    if actions:
        sys.meta_path.insert(0, _AfterImport(actions))
    return gpu
