"""Inside an offline ``irscope capture``: the program's questions about its GPU answered as the target's GPU would.

Libraries size their tiles from the device (fla reads the name, capability and shared memory, Liger the SM
count), so a program compiled for sm90 on a machine without a GPU must hear what an H100 would say. torch's
questions (``torch.cuda``, ``torch.accelerator``, ``torch._C``'s device functions, ``torch.version``) are answered
by ``torch_standin``, when the program first imports torch (a process that never does pays nothing); Triton's here
and in ``program_hook.OfflineDriver``. Triton's ``driver.active`` answers:

* ``get_current_target`` (the target), ``get_current_device`` (0), ``set_current_device``,
  ``get_current_stream`` (0), ``get_device_capability``, ``get_active_torch_device`` (``cuda:0``; the
  tensors made there stay on the CPU, see tensor_device), ``get_device_interface`` (the stood-in ``torch.cuda``),
  ``is_active``, ``get_benchmarker`` (``offline_bench``: each benchmark launches once, which compiles, and returns
  made-up times in call order), ``get_empty_cache_for_benchmark`` (a buffer that holds nothing), ``clear_cache``,
  ``map_python_to_cpp_type`` (the real driver's table);
* ``utils``: ``get_device_properties`` (the keys Triton's own CUDA / HIP driver returns), ``get_device_capability``,
  ``get_current_device``, ``set_current_device``, ``get_default_stream`` (0), ``is_stream_capturing`` (False),
  ``set_printf_fifo_size``.

Not answered, each saying so in one line when the program dies of it (``standin_faults``): ``launcher_cls``,
``utils.load_binary``, ``utils.unload_module``, ``utils.launch`` (nothing is loaded onto a GPU or run offline),
``utils.cuOccupancyMaxActiveClusters``, ``utils.fill_tma_descriptor_tiled`` / ``_im2col`` (they need the GPU's
driver and memory), and any other attribute (its name is recorded: "the stand-in has no driver.active.X").
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

from irscope.compile.records import OfflineTarget
from irscope.compile.standin_faults import cannot, has_no
from irscope.model.gpus import DEFAULT_GPU, GPUS, Gpu

UNLOADABLE = ("load_binary", "unload_module", "launch", "cuOccupancyMaxActiveClusters", "fill_tma_descriptor_tiled",
              "fill_tma_descriptor_im2col")  # what Triton's utils do with a GPU's driver; offline there is none


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

    def get_default_stream(self, device: int = 0) -> int:
        """The null stream."""
        return 0

    def is_stream_capturing(self, *args: Any) -> bool:
        """Never: nothing runs, so nothing is captured into a CUDA graph."""
        return False

    def set_printf_fifo_size(self, size: int) -> None:
        """No kernel prints offline."""

    def __getattr__(self, name: str) -> Any:
        if name in UNLOADABLE:
            return lambda *args, **kwargs: cannot(f"driver.active.utils.{name}", "it needs the GPU's driver, and "
                                                  "offline nothing is loaded onto a GPU or run")
        raise has_no("driver.active.utils", name)


def _report_failure(name: str, error: str) -> None:
    """Record something that could not be captured (it is listed as NOT captured after the run)."""
    from irscope.compile.session import write_record

    write_record("failures", {"name": name, "error": error})


def _keep_standin_driver(helpers: Any) -> None:
    """Inductor's generated modules call ``set_driver_to_gpu()``, which would swap the real driver in."""
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


def _patch_torch(module: Any, gpu: Gpu) -> None:
    """torch answers as the GPU, and its attention picks the fused kernel that GPU's would (``sdpa_choice``)."""
    from irscope.compile import sdpa_choice, torch_standin
    from irscope.compile.session import write_record

    torch_standin.patch_torch(module, gpu)
    if gpu.vendor == "NVIDIA":
        sdpa_choice.install(gpu.capability, lambda text: write_record("notes", {"event": "note", "text": text}))


def install(driver: Any, target: OfflineTarget) -> Gpu | None:
    """Make ``driver`` (the offline stand-in) and, once imported, torch answer as the target's GPU; returns it."""
    gpu = gpu_for(target)
    if gpu is None:
        return None
    driver.utils = TritonUtils(gpu)
    driver.get_device_capability = lambda device=None: gpu.capability
    from irscope.compile import inductor_offline, inductor_provenance

    actions: dict[str, Any] = {
        "torch": lambda module: _patch_torch(module, gpu),
        "torch._inductor.runtime.triton_helpers": _keep_standin_driver,
        "torch._inductor.runtime.triton_heuristics": inductor_offline.skip_launchers,
        "torch._inductor.compile_fx": lambda module: inductor_offline.wrap_compile_fx(module, _report_failure),
        "torch._subclasses.fake_tensor": inductor_offline.no_device_init,
        "torch._inductor.fx_passes.misc_patterns": inductor_offline.cpu_random_patterns,
        "torch._inductor.fx_passes.joint_graph": inductor_offline.gpu_joint_graph,
        "torch.fx.experimental.proxy_tensor": inductor_offline.cpu_constant_propagation,
        "torch._inductor.fx_passes.pad_mm": inductor_offline.untimed_mm_padding,
        "torch._inductor.codegen.triton": inductor_provenance.install,
    }
    for name in list(actions):
        if name in sys.modules:
            actions.pop(name)(sys.modules[name])
    if actions:
        sys.meta_path.insert(0, _AfterImport(actions))
    return gpu
