"""What a compiled kernel costs on the chip: registers, spills, shared memory, scratch, and the occupancy they allow.

NVIDIA figures come from the capture's cubin (``cuobjdump --dump-resource-usage``) and from the
capture's PTX assembled again with Triton's bundled ``ptxas -v`` (spills are only printed there);
the two are cross-checked. AMD figures come from the AMDGCN listing's metadata. The occupancy
model is the textbook one (CUDA occupancy calculator; LLVM's AMDGPU rules) with the limits below.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from irscope.parse.resources import (
    AmdUsage,
    CubinUsage,
    PtxasUsage,
    parse_amdgcn_usage,
    parse_cubin_usage,
    parse_ptxas_usage,
)
from irscope.store.store import Capture

if TYPE_CHECKING:
    from irscope.store.manifest import Manifest
    from irscope.toolchain.nvtools import ToolRun

__all__ = ["GPU_LIMITS", "GpuLimits", "NvidiaUsage", "Occupancy", "Resources", "amd_occupancy", "capture_resources",
           "nvidia_occupancy", "nvidia_usage"]


@dataclass(frozen=True)
class GpuLimits:
    """Per-SM (per-CU) limits of one GPU generation.

    Attributes:
        name: the GPUs these limits stand for.
        vendor: ``nvidia`` or ``amd``.
        max_warps: resident warps (waves) per SM (CU).
        max_ctas: resident CTAs (workgroups) per SM (CU).
        registers: 32-bit registers per SM (NVIDIA) or VGPRs per SIMD lane (AMD).
        register_unit: registers are allocated per warp in multiples of this (NVIDIA), or per wave
            in granules of this (AMD).
        partitions: SM sub-partitions (NVIDIA) or SIMDs per CU (AMD).
        shared: shared memory (LDS) per SM (CU), bytes.
        shared_per_cta: the most one CTA (workgroup) may use, bytes.
        reserved_per_cta: shared memory the driver reserves per CTA, bytes.
        max_waves_per_simd: AMD only: wave slots per SIMD.
        warp_size: threads per warp (32) or work-items per wave (64 on CDNA).
        max_threads: the most threads (work-items) one CTA (workgroup) may have: 1024 on both vendors
            (CUDA's maxThreadsPerBlock; AMD's largest flat workgroup size).
    """

    name: str
    vendor: str
    max_warps: int
    max_ctas: int
    registers: int
    register_unit: int
    partitions: int
    shared: int
    shared_per_cta: int
    reserved_per_cta: int = 0
    max_waves_per_simd: int = 0
    warp_size: int = 32
    max_threads: int = 1024


_KB = 1024
GPU_LIMITS: dict[str, GpuLimits] = {
    "sm80": GpuLimits("A100 (sm80)", "nvidia", 64, 32, 65536, 256, 4, 164 * _KB, 163 * _KB, 1 * _KB),
    "sm90": GpuLimits("H100/H200 (sm90)", "nvidia", 64, 32, 65536, 256, 4, 228 * _KB, 227 * _KB, 1 * _KB),
    "sm100": GpuLimits("B200 (sm100)", "nvidia", 64, 32, 65536, 256, 4, 228 * _KB, 227 * _KB, 1 * _KB),
    "gfx942": GpuLimits("MI300X (gfx942)", "amd", 32, 32, 512, 8, 4, 64 * _KB, 64 * _KB, 0, 8, warp_size=64),
    "gfx950": GpuLimits("MI355X (gfx950)", "amd", 32, 32, 512, 8, 4, 160 * _KB, 160 * _KB, 0, 8, warp_size=64),
}


@dataclass(frozen=True)
class Occupancy:
    """How many CTAs (workgroups) of the kernel fit on one SM (CU) at once.

    Attributes:
        gpu: the limits used.
        ctas: resident CTAs per SM (CU): the smallest of ``limits``.
        warps: resident warps (waves) per SM (CU).
        max_warps: the SM's (CU's) warp slots.
        limits: what each resource allows, in CTAs: ``registers``, ``shared memory``, ``warp slots``,
            ``CTA slots`` (AMD also ``SGPRs``).
        limiting: the resources that set ``ctas``.
        fits: False when one CTA alone exceeds a per-CTA limit (the launch would fail).
        waves_per_simd: AMD only: the waves per SIMD the registers allow (LLVM's "Occupancy"), else None.
        problems: when it does not fit, why, one sentence per limit exceeded.
    """

    gpu: str
    ctas: int
    warps: int
    max_warps: int
    limits: dict[str, int]
    limiting: tuple[str, ...]
    fits: bool = True
    waves_per_simd: int | None = None
    problems: tuple[str, ...] = ()

    @property
    def percent(self) -> float:
        """Resident warps as a share of the warp slots."""
        return 100.0 * self.warps / self.max_warps if self.max_warps else 0.0


@dataclass(frozen=True)
class Resources:
    """One capture's resource use.

    Attributes:
        kernel: the kernel's function name; ``target`` the target; ``config`` its launch config.
        config_index: which launch config.
        num_warps: warps (waves) per CTA.
        registers: registers per thread (NVIDIA) or architected VGPRs per lane (AMD), None if unknown.
        agprs / sgprs: AMD only: accumulation VGPRs and scalar registers.
        spill_stores / spill_loads: NVIDIA: spill bytes per thread (from ptxas -v); AMD: spilled
            VGPRs / SGPRs.
        stack_bytes: NVIDIA stack frame per thread.
        local_bytes: NVIDIA local memory per thread (spills and stack live there); AMD scratch per lane.
        shared_dynamic: Triton's shared memory (allocated at launch) per CTA.
        shared_static: static shared memory per CTA from the cubin (AMD: LDS known at compile time).
        shared_total: what one CTA takes from the SM, with the driver's reservation.
        shared_known: whether Triton's shared memory is recorded (its ``<name>.json``'s ``shared``, which a kernel
            dump folder does not keep); without it ``shared_dynamic`` is 0, ``shared_total`` a lower bound and the
            occupancy is not computed.
        barriers: named barriers (NVIDIA).
        occupancy: the occupancy these allow, or None without limits for the target.
        checks: cross-checks between sources, as sentences ("ptxas -v and the cubin agree: 208 registers").
        problems: what could not be found out.
    """

    kernel: str
    target: str
    config_index: int
    config: dict[str, object]
    num_warps: int
    registers: int | None
    agprs: int = 0
    sgprs: int = 0
    spill_stores: int = 0
    spill_loads: int = 0
    stack_bytes: int = 0
    local_bytes: int = 0
    shared_dynamic: int = 0
    shared_static: int = 0
    shared_total: int = 0
    shared_known: bool = True
    barriers: int = 0
    occupancy: Occupancy | None = None
    checks: tuple[str, ...] = ()
    problems: tuple[str, ...] = field(default=())

    @property
    def spills(self) -> bool:
        """Whether registers spill."""
        return self.spill_stores > 0 or self.spill_loads > 0


def _unrecorded_shared(m: Manifest) -> str:
    """Why the capture's shared memory is not known (Triton's metadata has no ``shared``), or "" when it is."""
    if isinstance(m.metadata.get("shared"), int):
        return ""
    where = "a kernel dump folder keeps no <name>.json" if m.origin == "dump" else "its metadata has no 'shared'"
    return (f"Triton's shared memory per {'workgroup' if m.backend == 'hip' else 'CTA'} is not recorded ({where}, "
            "and the TTGIR is written before it is allocated): the occupancy is not computed")


def _round_up(value: int, unit: int) -> int:
    return -(-value // unit) * unit


def nvidia_occupancy(limits: GpuLimits, registers: int, num_warps: int, shared_total: int) -> Occupancy:
    """CTAs per SM from registers (allocated per warp, per sub-partition), shared memory and warp slots."""
    per_warp = _round_up(max(registers, 1) * 32, limits.register_unit)
    per_partition = limits.registers // limits.partitions
    warps_by_regs = (per_partition // per_warp) * limits.partitions
    by_regs = warps_by_regs // num_warps
    problems = _thread_problems(limits, num_warps)
    if registers > 255:
        problems.append(f"{registers} registers per thread, over the 255 a thread may have")
    elif per_warp * _round_up(num_warps, limits.partitions) > limits.registers:
        problems.append(f"{num_warps} warps of {per_warp} registers need more than the {limits.registers} "
                        "registers of an SM")
    by_shared = limits.shared // shared_total if shared_total else limits.max_ctas
    if shared_total - limits.reserved_per_cta > limits.shared_per_cta:
        problems.append(f"{shared_total - limits.reserved_per_cta} B of shared memory exceed the "
                        f"{limits.shared_per_cta} B one CTA may use")
    result = {
        "registers": by_regs,
        "shared memory": by_shared,
        "warp slots": limits.max_warps // num_warps,
        "CTA slots": limits.max_ctas,
    }
    return _finish(limits, result, num_warps, problems)


def amd_occupancy(limits: GpuLimits, usage: AmdUsage, num_warps: int, lds_total: int) -> Occupancy:
    """Workgroups per CU from unified VGPRs (gfx90a+), SGPRs, LDS and wave slots (LLVM's AMDGPU rules)."""
    arch = usage.accum_offset if usage.accum_offset else _round_up(max(usage.vgprs, 1), 4)
    total = _round_up(arch + usage.agprs, limits.register_unit)
    waves_by_vgpr = min(limits.max_waves_per_simd, limits.registers // total) if total else limits.max_waves_per_simd
    sgprs = usage.sgprs_for_occupancy or usage.sgprs
    waves_by_sgpr = 10 if sgprs <= 80 else 9 if sgprs <= 88 else 8 if sgprs <= 100 else 7
    waves_by_sgpr = min(waves_by_sgpr, limits.max_waves_per_simd)
    per_simd = -(-num_warps // limits.partitions)  # waves of one workgroup on its busiest SIMD
    result = {
        "VGPRs": waves_by_vgpr // per_simd,
        "SGPRs": waves_by_sgpr // per_simd,
        "shared memory": limits.shared // lds_total if lds_total else limits.max_ctas,
        "warp slots": limits.max_warps // num_warps,
        "CTA slots": limits.max_ctas,
    }
    problems = _thread_problems(limits, num_warps)
    if usage.max_workgroup_size is not None and num_warps * limits.warp_size > usage.max_workgroup_size:
        problems.append(f"the kernel's metadata allows at most {usage.max_workgroup_size} work-items per "
                        "workgroup (.max_flat_workgroup_size)")
    if lds_total > limits.shared_per_cta:
        problems.append(f"{lds_total} B of LDS exceed the {limits.shared_per_cta} B one workgroup may use")
    if total > limits.registers:
        problems.append(f"{total} VGPRs per lane exceed the {limits.registers} of a SIMD")
    return _finish(limits, result, num_warps, problems, min(waves_by_vgpr, waves_by_sgpr))


def _thread_problems(limits: GpuLimits, num_warps: int) -> list[str]:
    """The per-CTA thread limit: more threads (work-items) than one CTA (workgroup) may have cannot launch."""
    threads = num_warps * limits.warp_size
    if threads <= limits.max_threads:
        return []
    amd = limits.vendor == "amd"
    warps, items, cta = ("waves", "work-items", "workgroup") if amd else ("warps", "threads", "CTA")
    return [f"{num_warps} {warps} x {limits.warp_size} = {threads} {items} per {cta}, over the {limits.max_threads} "
            f"{limits.name} allows"]


def _finish(limits: GpuLimits, result: dict[str, int], num_warps: int, problems: list[str],
            waves_per_simd: int | None = None) -> Occupancy:
    fits = not problems
    ctas = min(result.values()) if fits else 0
    limiting = tuple(k for k, v in result.items() if v == ctas)
    return Occupancy(limits.name, ctas, ctas * num_warps, limits.max_warps, result, limiting, fits, waves_per_simd,
                     tuple(problems))


@dataclass(frozen=True)
class NvidiaUsage:
    """What the two NVIDIA tools report about a capture's kernel (each run cached in the capture's ``derived/``).

    Attributes:
        cubin: ``cuobjdump --dump-resource-usage`` figures for the kernel, None when it printed none or failed.
        ptxas: ``ptxas -v`` figures for the kernel (the PTX assembled again), likewise.
        cubin_run / ptxas_run: the runs themselves: their command, whether the rerun reproduced the cubin, why not.
    """

    cubin: CubinUsage | None
    ptxas: PtxasUsage | None
    cubin_run: ToolRun
    ptxas_run: ToolRun


def nvidia_usage(capture: Capture) -> NvidiaUsage:
    """Run (or read the cached) cuobjdump and ptxas -v on an NVIDIA capture; the kernel's figures from each."""
    from irscope.toolchain.nvtools import ptxas_verbose, resource_usage

    function = capture.manifest.function
    cubin_run, ptxas_run = resource_usage(capture), ptxas_verbose(capture)
    cubin = next((u for u in parse_cubin_usage(cubin_run.stdout) if u.function == function), None) \
        if cubin_run.ok else None
    ptxas = next((u for u in parse_ptxas_usage(ptxas_run.stderr + ptxas_run.stdout) if u.function == function),
                 None) if ptxas_run.ok else None
    return NvidiaUsage(cubin, ptxas, cubin_run, ptxas_run)


def _nvidia(capture: Capture) -> Resources:
    m = capture.manifest
    problems: list[str] = []
    checks: list[str] = []
    usage = nvidia_usage(capture)
    cubin, ptxas = usage.cubin, usage.ptxas
    run = usage.cubin_run
    if not run.ok:
        problems.append(f"cuobjdump: {run.problem or run.stderr.strip()[:200]}")
    elif cubin is None:
        problems.append("cuobjdump printed no figures for the kernel")
    run = usage.ptxas_run
    if not run.ok:
        problems.append(f"ptxas -v: {run.problem or run.stderr.strip()[:200]}")
    elif ptxas is None:
        problems.append("ptxas -v printed no figures for the kernel")
    if cubin and ptxas:
        if cubin.registers == ptxas.registers:
            checks.append(f"ptxas -v on the PTX and the cubin agree: {cubin.registers} registers per thread")
        else:
            checks.append(f"ptxas -v says {ptxas.registers} registers, the cubin {cubin.registers} "
                          "(a different ptxas than Triton's, or other options)")
    registers = cubin.registers if cubin else (ptxas.registers if ptxas else None)
    num_warps = int(m.metadata.get("num_warps") or m.options.get("num_warps") or 4)
    dynamic = int(m.metadata.get("shared") or 0)
    static = cubin.shared if cubin else (ptxas.static_shared if ptxas else 0)
    limits = GPU_LIMITS.get(m.target)
    # The driver reserves 1 KB of shared memory per CTA; when the kernel uses shared memory, ptxas already puts
    # that reservation in the cubin's static SHARED (1024 for a Triton kernel whose only shared memory is
    # dynamic), so it is counted once: ncu's theoretical occupancy on an H200 agrees (13 CTAs of 16 KB + 1 KB).
    total = dynamic + max(static, limits.reserved_per_cta if limits else 0)
    unrecorded = _unrecorded_shared(m)
    occupancy = nvidia_occupancy(limits, registers, num_warps, total) if limits and registers and not unrecorded \
        else None
    if limits is None:
        problems.append(f"no occupancy limits known for {m.target}")
    if unrecorded:
        problems.append(unrecorded)
    return Resources(
        kernel=m.function, target=m.target, config_index=m.config_index, config=dict(m.config), num_warps=num_warps,
        registers=registers, spill_stores=ptxas.spill_stores if ptxas else 0,
        spill_loads=ptxas.spill_loads if ptxas else 0,
        stack_bytes=ptxas.stack_bytes if ptxas else (cubin.stack if cubin else 0),
        local_bytes=cubin.local if cubin else (ptxas.local_bytes if ptxas else 0),
        shared_dynamic=dynamic, shared_static=static, shared_total=total, shared_known=not unrecorded,
        barriers=ptxas.barriers if ptxas else 0, occupancy=occupancy, checks=tuple(checks), problems=tuple(problems))


def _amd(capture: Capture) -> Resources:
    m = capture.manifest
    usage = parse_amdgcn_usage(capture.read("amdgcn"))
    num_warps = int(m.metadata.get("num_warps") or m.options.get("num_warps") or 4)
    dynamic = int(m.metadata.get("shared") or 0)
    if usage is None:
        return Resources(m.function, m.target, m.config_index, dict(m.config), num_warps, None,
                         shared_dynamic=dynamic, problems=("the AMDGCN listing has no kernel metadata",))
    limits = GPU_LIMITS.get(m.target)
    total = dynamic + usage.lds_bytes
    unrecorded = _unrecorded_shared(m)
    occupancy = amd_occupancy(limits, usage, num_warps, total) if limits and not unrecorded else None
    checks = []
    if occupancy and usage.llvm_occupancy is not None:
        mine = occupancy.waves_per_simd
        checks.append(f"LLVM's kernel info says {usage.llvm_occupancy} waves per SIMD"
                      + (" (agrees with the register count)" if mine == usage.llvm_occupancy
                         else f"; the register count gives {mine} (LLVM also counts LDS known at compile time)"))
    return Resources(
        kernel=m.function, target=m.target, config_index=m.config_index, config=dict(m.config), num_warps=num_warps,
        registers=usage.vgprs, agprs=usage.agprs, sgprs=usage.sgprs, spill_stores=usage.vgpr_spills,
        spill_loads=usage.sgpr_spills, local_bytes=usage.scratch_bytes, shared_dynamic=dynamic,
        shared_static=usage.lds_bytes, shared_total=total, shared_known=not unrecorded, occupancy=occupancy,
        checks=tuple(checks), problems=(() if limits else (f"no occupancy limits known for {m.target}",))
        + ((unrecorded,) if unrecorded else ()))


def capture_resources(capture: Capture) -> Resources:
    """The resource use of a stored capture (NVIDIA: runs the bundled cuobjdump and ptxas once, then cached)."""
    return _nvidia(capture) if capture.manifest.backend == "cuda" else _amd(capture)
