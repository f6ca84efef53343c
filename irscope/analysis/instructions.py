"""What an op or instruction does, in the few classes that matter for pipelining and tensor cores.

One table of patterns covers TTGIR ops, PTX, SASS and AMDGCN mnemonics, so every view names the
same things the same way: ``mma`` (tensor-core / matrix-core math), ``async_copy`` (global to
shared without registers: cp.async, TMA, LDGSTS), ``wait`` (waiting on those, with a pending
count), ``shared_load`` (ldmatrix, LDSM, ds_read, local_load), ``global_load``, ``shared_store``,
``global_store``, ``scalar_load`` (AMD scalar memory loads), ``atomic``, ``barrier`` and ``convert`` (a
layout conversion).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["KINDS", "InstructionKind", "access_bytes", "canonical_op", "classify", "pending_count"]

KINDS: dict[str, str] = {
    "mma": "matrix instructions",
    "async_copy": "async copies global -> shared",
    "wait": "waits",
    "shared_load": "shared -> register loads",
    "global_load": "global loads into registers",
    "scalar_load": "scalar loads (AMD: s_load, uniform values and descriptors)",
    "shared_store": "register -> shared stores",
    "global_store": "global stores",
    "atomic": "atomics (read-modify-write, compare-and-swap)",
    "barrier": "barriers",
    "convert": "layout conversions",
}


@dataclass(frozen=True)
class InstructionKind:
    """One class of ops or instructions.

    Attributes:
        kind: a key of KINDS.
        pattern: matches the op name or mnemonic (with modifiers) of any stage.
    """

    kind: str
    pattern: re.Pattern[str]


# PTX's memory-order and scope qualifiers between ``ld``/``st`` and the state space: ``tl.load(volatile=True)``
# prints ``ld.volatile.global``, a library's inline-asm acquire load ``ld.acquire.gpu.global``.
_PTX_ORDER = r"(?:(?:weak|volatile|relaxed|acquire|release|mmio)\.)*(?:(?:cta|cluster|gpu|sys)\.)?"

# Order matters: the first match wins (a wait mnemonic starts like the copy it waits for).
_TABLE: tuple[InstructionKind, ...] = (
    # Example: cp.async.wait_group 2 | wgmma.wait_group.sync.aligned 1 | DEPBAR.LE SB0, 0x2 | s_waitcnt vmcnt(0)
    InstructionKind("wait", re.compile(
        r"^(?:cp\.async\.(?:bulk\.)?wait_(?:group|all)|wgmma\.wait_group|mbarrier\.(?:try_)?wait|"
        r"DEPBAR|WARPGROUP\.DEPBAR|SYNCS\.PHASECHK|s_waitcnt|"
        r"ttg\.async_wait|ttng\.warp_group_dot_wait|ttng\.wait_barrier|amdg\.async_wait)")),
    # Example: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 | HGMMA.64x256x16.F32 | DMMA.8x8x4
    #          v_mfma_f32_32x32x8_f16
    InstructionKind("mma", re.compile(
        r"^(?:mma\.sync|wgmma\.mma_async|tcgen05\.mma|HMMA|HGMMA|IGMMA|QGMMA|BGMMA|DMMA|UTC\w*MMA|IMMA|"
        r"v_mfma|v_smfmac|v_wmma|"
        r"tt\.dot(?:_scaled)?$|ttng\.warp_group_dot$|ttng\.tc_gen5_mma|amdg\.\w*mfma)")),
    # Example: cp.async.cg.shared.global | LDGSTS.E.BYPASS.128 | ttg.async_copy_global_to_local
    InstructionKind("async_copy", re.compile(
        r"^(?:cp\.async\.(?:ca|cg)|cp\.async\.bulk\.tensor|cp\.async\.bulk\.shared|LDGSTS|UTMALDG|UBLKCP|"
        r"ttg\.async_copy_global_to_local|ttng\.async_tma_copy_global_to_local|ttng\.async_copy|"
        r"amdg\.buffer_load_to_local|amdg\.async_copy|buffer_load_\w+_lds|global_load_lds)")),
    # Example: ldmatrix.sync.aligned.m8n8.x4.shared.b16 | LDSM.16.M88.4 | ds_read_b128 | ttg.local_load
    InstructionKind("shared_load", re.compile(
        r"^(?:ldmatrix|ld\.shared|LDSM|LDS\b|LDS\.|ds_read|ds_load|ttg\.local_load)")),
    # Example: s_load_dwordx2 s[42:43], s[0:1], 0x0   (AMD: a value every lane shares, into scalar registers)
    InstructionKind("scalar_load", re.compile(r"^(?:s_load_|s_buffer_load_)")),
    # Example: ld.global.v4.b32 | ld.volatile.global.b32 | ld.acquire.gpu.global.b32 | LDG.E.128 | buffer_load_dwordx4
    InstructionKind("global_load", re.compile(
        r"^(?:ld\.(?:" + _PTX_ORDER + r")?global|LDG\b|LDG\.|global_load|buffer_load|tt\.load$|amdg\.buffer_load$"
        r"|tt\.descriptor_load)")),
    # Example: st.shared.v4.b32 | STS.128 | ds_write_b128 | ttg.local_store
    InstructionKind("shared_store", re.compile(
        r"^(?:st\.shared|stmatrix|STS\b|STS\.|STSM|ds_write|ds_store|ttg\.local_store|ttg\.local_alloc)")),
    # Example: st.global.v4.b32 | st.release.gpu.global.b32 | STG.E.128 | buffer_store_dwordx2 | tt.store
    InstructionKind("global_store", re.compile(
        r"^(?:st\.(?:" + _PTX_ORDER + r")?global|STG\b|STG\.|global_store|buffer_store|tt\.store$|amdg\.buffer_store$"
        r"|tt\.descriptor_store)")),
    # Example: atom.global.acq_rel.gpu.cas.b32 | red.global.add.f32 | ATOMG.E.CAS.STRONG.GPU | RED.E.ADD.F32.FTZ.RN
    # | global_atomic_cmpswap | buffer_atomic_add_f32 | tt.atomic_cas | tt.atomic_rmw
    InstructionKind("atomic", re.compile(
        r"^(?:atom\.|red\.|ATOM\b|ATOM\.|ATOMG|ATOMS|RED\b|RED\.|global_atomic_|buffer_atomic_|flat_atomic_|"
        r"tt\.atomic_(?:cas|rmw)$|amdg\.buffer_atomic_\w+$)")),
    # Example: bar.sync 0 | BAR.SYNC.DEFER_BLOCKING 0x0 | s_barrier
    InstructionKind("barrier",
                    re.compile(r"^(?:bar\.sync|barrier\.sync|BAR\.|BAR\b|s_barrier|ttg\.barrier|gpu\.barrier)")),
    # Example: ttg.convert_layout
    InstructionKind("convert", re.compile(r"^ttg\.convert_layout$")),
)

# Example: cp.async.wait_group 	2   |   wgmma.wait_group.sync.aligned 1
_PTX_COUNT = re.compile(r"^(?:cp\.async\.(?:bulk\.)?wait_group|wgmma\.wait_group)\S*\s+(?P<n>\d+)")
# Example: DEPBAR.LE SB0, 0x2   |   WARPGROUP.DEPBAR.LE gsb0, 0x1
_SASS_COUNT = re.compile(r"DEPBAR\.LE\s+\w+,\s*(?P<n>0x[0-9a-f]+|\d+)")
# Example: {num = 2 : i32}   |   {pendings = 1 : i32}
_MLIR_COUNT = re.compile(r"\b(?:num|pendings)\s*=\s*(?P<n>\d+)")
# Example: s_waitcnt vmcnt(2) lgkmcnt(0)
_AMD_COUNT = re.compile(r"vmcnt\((?P<n>\d+)\)")
# Example: ld.global.v4.b32 | st.global.v2.b16 | ld.volatile.global.b32
_PTX_WIDTH = re.compile(r"^(?:ld|st)\." + _PTX_ORDER + r"global\S*?(?:\.v(?P<vec>\d))?\.[bfsu](?P<bits>\d+)")
# Example: LDG.E.128 | STG.E.64 | LDG.E.U16.CONSTANT | LDGSTS.E.BYPASS.128   (no size token: 32 bits)
_SASS_WIDTH = re.compile(r"^(?:LDG|STG|LDGSTS)\b(?:.*?\.(?P<bits>128|64|U16|S16|U8|S8)(?=\.|$))?")
# Example: cp.async.cg.shared.global [ %r29 + 0 ], [ %rd26 + 0 ], 0x10, %r31
_CP_ASYNC_SIZE = re.compile(r"^cp\.async\.c[ag]\.\S*\s+\[[^\]]*\],\s*\[[^\]]*\],\s*(?P<n>0x[0-9a-f]+|\d+)")
# Example: global_load_dwordx4 | buffer_load_dwordx2 | buffer_load_ushort
_AMD_WIDTH = re.compile(r"_(?:load|store)_(?:dword(?:x(?P<n>\d))?|(?P<short>u?short|b16)|(?P<byte>u?byte))")


# Dialect prefixes Triton printed before 3.2 (``#triton_gpu.``), and the ones it prints now.
_OLD_PREFIXES = (("triton_gpu.", "ttg."), ("triton_nvidia_gpu.", "ttng."), ("triton_amdgpu.", "amdg."))


def canonical_op(name: str) -> str:
    """An op name in today's spelling: ``triton_gpu.local_load`` -> ``ttg.local_load``."""
    for old, new in _OLD_PREFIXES:
        if name.startswith(old):
            return new + name[len(old):]
    return name


def classify(opcode: str) -> str | None:
    """The class of an op name or mnemonic (a key of KINDS), or None for everything else."""
    opcode = canonical_op(opcode)
    for entry in _TABLE:
        if entry.pattern.match(opcode):
            return entry.kind
    return None


def pending_count(text: str) -> int | None:
    """How many operations a wait lets stay in flight (``cp.async.wait_group 2`` -> 2), or None."""
    for pattern in (_PTX_COUNT, _SASS_COUNT, _MLIR_COUNT, _AMD_COUNT):
        if match := pattern.search(text):
            return int(match["n"], 0)
    return None


def access_bytes(opcode: str, text: str = "") -> int | None:
    """Bytes one thread moves with a global load, store or cp.async, when the instruction says."""
    if match := _CP_ASYNC_SIZE.match(text):
        return int(match["n"], 0)
    if match := _PTX_WIDTH.match(opcode):
        return int(match["vec"] or 1) * int(match["bits"]) // 8
    if match := _SASS_WIDTH.match(opcode):
        bits = match["bits"]
        return {"128": 16, "64": 8, "U16": 2, "S16": 2, "U8": 1, "S8": 1}.get(bits or "", 4)
    if match := _AMD_WIDTH.search(opcode):
        if match["short"]:
            return 2
        if match["byte"]:
            return 1
        return 4 * int(match["n"] or 1)
    return None
