"""Register, spill, shared and scratch figures as the tools print them: ptxas -v, cuobjdump, AMDGCN metadata."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["AmdUsage", "CubinUsage", "PtxasUsage", "parse_amdgcn_usage", "parse_cubin_usage", "parse_ptxas_usage"]

# Example: ptxas-blackwell info    : Compiling entry function 'matmul_kernel' for 'sm_90a'
_PTXAS_ENTRY = re.compile(r"Compiling entry function '(?P<name>[^']+)' for '(?P<arch>[^']+)'")
# Example:     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
_PTXAS_FRAME = re.compile(r"(?P<stack>\d+) bytes stack frame, (?P<stores>\d+) bytes spill stores, "
                          r"(?P<loads>\d+) bytes spill loads")
# Example: ptxas info    : Used 255 registers, used 1 barriers, 416 bytes cmem[0]
_PTXAS_USED = re.compile(r"Used (?P<regs>\d+) registers(?P<rest>.*)$")
# Example: , used 1 barriers      /    , 1024 bytes smem     /    , 416 bytes cmem[0]    /    , 8 bytes lmem
_PTXAS_ITEM = re.compile(r"(?:used (?P<barriers>\d+) barriers|(?P<bytes>\d+) bytes (?P<what>smem|lmem|cmem\[\d+\]))")
# Example:  Function matmul_kernel:
_CUBIN_FUNC = re.compile(r"^\s*Function (?P<name>[^:\s]+):")
# Example:   REG:208 STACK:0 SHARED:1024 LOCAL:0 CONSTANT[0]:592 TEXTURE:0 SURFACE:0 SAMPLER:0
_CUBIN_ITEM = re.compile(r"(?P<key>[A-Z]+(?:\[\d+\])?):(?P<value>\d+)")
# Example:     .vgpr_count:     206   /   .max_flat_workgroup_size: 1024   (the kernel's .amdgpu_metadata entry)
_AMD_META = re.compile(r"^\s*-?\s*\.(?P<key>[a-z_]+):\s+(?P<value>\d+)\s*$")
# Example: ; Occupancy: 2     /    ; NumVgprs: 206    /    ; LDSByteSize: 0 bytes/workgroup (compile time only)
_AMD_COMMENT = re.compile(r"^;\s*(?P<key>[A-Za-z][\w ]*?):\s*(?P<value>\d+)\b")


@dataclass(frozen=True)
class PtxasUsage:
    """What ``ptxas -v`` reports for one entry function.

    Attributes:
        function: the entry's name.
        arch: the --gpu-name it was compiled for.
        registers: registers per thread.
        stack_bytes: stack frame per thread.
        spill_stores: bytes of registers spilled to local memory per thread.
        spill_loads: bytes reloaded from those spills per thread.
        barriers: named barriers used.
        static_shared: statically declared shared memory (Triton's is dynamic, so usually 0).
        local_bytes: other local memory, when printed.
    """

    function: str
    arch: str
    registers: int
    stack_bytes: int = 0
    spill_stores: int = 0
    spill_loads: int = 0
    barriers: int = 0
    static_shared: int = 0
    local_bytes: int = 0


@dataclass(frozen=True)
class CubinUsage:
    """What ``cuobjdump --dump-resource-usage`` reports for one function of a cubin.

    Attributes:
        function: its name.
        registers: REG, registers per thread.
        stack: STACK bytes per thread.
        shared: SHARED, static shared memory per CTA (sm90 cubins reserve 1 KB here).
        local: LOCAL bytes per thread.
        constant0: CONSTANT[0] bytes (the kernel's parameters and constants).
    """

    function: str
    registers: int
    stack: int
    shared: int
    local: int
    constant0: int


@dataclass(frozen=True)
class AmdUsage:
    """Resource figures of an AMDGCN kernel, from its metadata and LLVM's kernel-info comments.

    Attributes:
        vgprs: VGPRs per lane (``.vgpr_count``): on gfx90a and later the unified file's total, the architected
            VGPRs (aligned to 4) and the AGPRs together (LLVM's ``TotalNumVgprs``).
        agprs: accumulation VGPRs (``.agpr_count``).
        accum_offset: where the AGPRs start in the unified register file (gfx90a and later), or None.
        sgprs: scalar registers per wave (``.sgpr_count``).
        sgprs_for_occupancy: LLVM's ``NumSGPRsForWavesPerEU`` (with VCC and friends), or None.
        vgpr_spills: VGPRs spilled (``.vgpr_spill_count``).
        sgpr_spills: SGPRs spilled.
        lds_bytes: statically known LDS per workgroup (``.group_segment_fixed_size``).
        scratch_bytes: scratch (private memory) per lane (``.private_segment_fixed_size``).
        llvm_occupancy: waves per SIMD LLVM computed (``; Occupancy:``), or None.
        max_workgroup_size: the most work-items a workgroup of this kernel may have
            (``.max_flat_workgroup_size``), or None when not printed.
    """

    vgprs: int
    agprs: int
    accum_offset: int | None
    sgprs: int
    sgprs_for_occupancy: int | None
    vgpr_spills: int
    sgpr_spills: int
    lds_bytes: int
    scratch_bytes: int
    llvm_occupancy: int | None
    max_workgroup_size: int | None = None


def parse_ptxas_usage(text: str) -> list[PtxasUsage]:
    """Every entry function ``ptxas -v`` reported, in order."""
    found: list[PtxasUsage] = []
    name, arch = "", ""
    frame: re.Match[str] | None = None
    for line in text.splitlines():
        if entry := _PTXAS_ENTRY.search(line):
            name, arch, frame = entry["name"], entry["arch"], None
        elif (match := _PTXAS_FRAME.search(line)) and name:
            frame = match
        elif (used := _PTXAS_USED.search(line)) and name:
            items = {"barriers": 0, "smem": 0, "lmem": 0}
            for item in _PTXAS_ITEM.finditer(used["rest"]):
                if item["barriers"]:
                    items["barriers"] = int(item["barriers"])
                elif item["what"] in ("smem", "lmem"):
                    items[item["what"]] = int(item["bytes"])
            found.append(PtxasUsage(
                function=name, arch=arch, registers=int(used["regs"]),
                stack_bytes=int(frame["stack"]) if frame else 0,
                spill_stores=int(frame["stores"]) if frame else 0,
                spill_loads=int(frame["loads"]) if frame else 0,
                barriers=items["barriers"], static_shared=items["smem"], local_bytes=items["lmem"]))
            name = ""
    return found


def parse_cubin_usage(text: str) -> list[CubinUsage]:
    """Every function of ``cuobjdump --dump-resource-usage`` output, in order."""
    found: list[CubinUsage] = []
    name = ""
    for line in text.splitlines():
        if func := _CUBIN_FUNC.match(line):
            name = func["name"]
            continue
        items = {m["key"]: int(m["value"]) for m in _CUBIN_ITEM.finditer(line)}
        if name and "REG" in items:
            found.append(CubinUsage(name, items["REG"], items.get("STACK", 0), items.get("SHARED", 0),
                                    items.get("LOCAL", 0), items.get("CONSTANT[0]", 0)))
            name = ""
    return found


def parse_amdgcn_usage(text: str) -> AmdUsage | None:
    """The first kernel's resource figures in an AMDGCN listing, or None when it prints none."""
    meta: dict[str, int] = {}
    comments: dict[str, int] = {}
    for line in text.splitlines():
        if match := _AMD_META.match(line):
            meta.setdefault(match["key"], int(match["value"]))
        elif line.startswith(";") and (match := _AMD_COMMENT.match(line)):
            comments.setdefault(match["key"].strip(), int(match["value"]))
    if "vgpr_count" not in meta and "NumVgprs" not in comments:
        return None
    return AmdUsage(
        vgprs=meta.get("vgpr_count", comments.get("NumVgprs", 0)),
        agprs=meta.get("agpr_count", comments.get("NumAgprs", 0)),
        accum_offset=comments.get("AccumOffset"),
        sgprs=meta.get("sgpr_count", comments.get("TotalNumSgprs", 0)),
        sgprs_for_occupancy=comments.get("NumSGPRsForWavesPerEU"),
        vgpr_spills=meta.get("vgpr_spill_count", 0),
        sgpr_spills=meta.get("sgpr_spill_count", 0),
        lds_bytes=meta.get("group_segment_fixed_size", comments.get("LDSByteSize", 0)),
        scratch_bytes=meta.get("private_segment_fixed_size", comments.get("ScratchSize", 0)),
        llvm_occupancy=comments.get("Occupancy"),
        max_workgroup_size=meta.get("max_flat_workgroup_size"),
    )
