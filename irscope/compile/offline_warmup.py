"""What ``JITFunction.warmup`` returns offline: the kernel compiled in this process, its handles read, never loaded.

A program that calls ``kernel.warmup(...)`` wants the ``CompiledKernel`` itself: Triton's fused-softmax
tutorial reads ``n_regs`` and ``metadata.shared`` after ``_init_handles()`` to size a persistent grid. On a GPU
``_init_handles`` loads the binary and asks the driver for its registers and spills; offline the binary is
read instead: ``cuobjdump --dump-resource-usage`` on the cubin (REG; spills are LOCAL / 4, as the CUDA
driver's figure Triton reads), or the AMDGCN listing's metadata (VGPRs and spills). Launching it runs
nothing, like every other launch of an offline capture.
"""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from irscope.errors import IrscopeError
from irscope.parse.resources import parse_amdgcn_usage, parse_cubin_usage
from irscope.toolchain.nvtools import tool_path

MAX_THREADS_PER_BLOCK = 1024
REGISTERS_PER_BLOCK = 65536
_WARP_REGISTER_UNIT = 256  # NVIDIA allocates a warp's registers 256 at a time


class OfflineHandlesError(IrscopeError):
    """The compiled binary's registers could not be read offline."""


def nvidia_handles(cubin: bytes, name: str) -> tuple[int, int, int]:
    """(registers, spills, max threads per block) of ``name`` in ``cubin``, from cuobjdump."""
    tool = tool_path("cuobjdump")
    if tool is None:
        raise OfflineHandlesError("cuobjdump not found (it ships with Triton in triton/backends/nvidia/bin): "
                                  "the warmed-up kernel's registers cannot be read offline")
    with tempfile.TemporaryDirectory(prefix="irscope-warm-") as scratch:
        path = Path(scratch) / f"{name}.cubin"
        path.write_bytes(cubin)
        done = subprocess.run([str(tool), "--dump-resource-usage", str(path)], capture_output=True, text=True,
                              timeout=60, check=False)
    usages = parse_cubin_usage(done.stdout)
    usage = next((u for u in usages if u.function == name), usages[0] if usages else None)
    if usage is None:
        raise OfflineHandlesError(f"cuobjdump --dump-resource-usage printed no function for {name} "
                                  f"(exit status {done.returncode}): its registers cannot be read offline")
    per_warp = -(-max(usage.registers, 1) * 32 // _WARP_REGISTER_UNIT) * _WARP_REGISTER_UNIT
    threads = min(MAX_THREADS_PER_BLOCK, REGISTERS_PER_BLOCK // per_warp * 32)
    return usage.registers, usage.local // 4, threads


def amd_handles(amdgcn: str) -> tuple[int, int, int]:
    """(VGPRs, spills, max threads per block) from an AMDGCN listing's metadata."""
    usage = parse_amdgcn_usage(amdgcn)
    if usage is None:
        raise OfflineHandlesError("the AMDGCN listing has no .vgpr_count: the warmed-up kernel's registers "
                                  "cannot be read offline")
    return usage.vgprs, usage.vgpr_spills + usage.sgpr_spills, usage.max_workgroup_size or MAX_THREADS_PER_BLOCK


class WarmKernel:
    """A ``CompiledKernel`` made offline for ``warmup()``: its asm and metadata, handles read from the binary.

    Attribute reads other than the handles go to the compiled kernel; ``kernel[grid](...)`` and ``run`` launch
    nothing (the compile was captured when ``warmup`` ran), the first noting its grid for ``irscope perf``.
    """

    def __init__(self, compiled: Any, jit: Any = None, key: str | None = None) -> None:
        self._compiled = compiled
        self._jit = jit  # the JITFunction and its launch key: a launch of this kernel notes its grid for perf
        self._key = key
        self._handles: tuple[int, int, int] | None = None

    def _init_handles(self) -> None:
        """Read registers, spills and the thread limit from the binary (once)."""
        if self._handles is not None:
            return
        c = self._compiled
        if "cubin" in c.asm:
            self._handles = nvidia_handles(c.asm["cubin"], c.name)
        else:
            self._handles = amd_handles(c.asm.get("amdgcn", ""))

    def _handle(self, index: int) -> int:
        self._init_handles()
        assert self._handles is not None
        return self._handles[index]

    @property
    def n_regs(self) -> int:
        """Registers per thread (AMD: architected VGPRs per lane)."""
        return self._handle(0)

    @property
    def n_spills(self) -> int:
        """Spilled registers, as the driver counts them."""
        return self._handle(1)

    @property
    def n_max_threads(self) -> int:
        """The most threads a block of this kernel may have."""
        return self._handle(2)

    def __getitem__(self, grid: Any) -> Callable[..., None]:
        """A launch over ``grid`` that runs nothing; its grid and arguments are noted as the JIT's launches are."""
        def launch(*args: Any, **kwargs: Any) -> None:
            if self._jit is not None and self._key is not None:
                from irscope.compile.launch_notes import note_launch
                from irscope.compile.session import _STATE

                _STATE.launch_spec = self._key
                note_launch(self._jit, args, {**kwargs, "grid": grid})
        return launch

    def run(self, *args: Any, **kwargs: Any) -> None:
        """A launch that runs nothing."""

    def __getattr__(self, attr: str) -> Any:
        return getattr(self._compiled, attr)

    def __repr__(self) -> str:
        return f"WarmKernel({getattr(self._compiled, 'name', '?')!r})"
