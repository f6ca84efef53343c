"""The work of one launch, read from the capture: loop trip counts from the sizes, and per CTA the instruction mix.

Trip counts come from evaluating the TTGIR's scalar integer arithmetic (``arith.addi``, ``arith.divsi``,
...) with the launch's integer arguments, the program id and the grid, up to each ``scf.for``'s bounds.
The instruction mix comes from the PTX (NVIDIA) or AMDGCN (AMD) listing: every instruction is attributed
to the innermost machine-code loop holding it, and that loop to the TTGIR loop ``irscope loops`` matched
it with. Counts are per thread (PTX) or per wave (AMDGCN) and are turned into per-CTA figures here.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from irscope.analysis.instructions import access_bytes, classify
from irscope.analysis.tcgen05 import Tcgen05Shape
from irscope.analysis.values import ScalarProgram, parse_scalar_program, run_program
from irscope.parse.lineinfo import AsmLoop, Instruction, Listing

__all__ = [
    "LoopTrips",
    "Mix",
    "dot_flops",
    "evaluate_trips",
    "mix_of",
    "mma_shape",
    "program_sample",
    "run_scalars",
    "scalar_program_parts",
    "scalar_values",
    "scaled",
    "split_by_loop",
]

# Example: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 | mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
_PTX_MMA = re.compile(r"\.m(?P<m>\d+)n(?P<n>\d+)k(?P<k>\d+)\.(?P<types>[\w.]+)")
# Example: v_mfma_f32_32x32x8_f16 | v_mfma_f32_16x16x16f16 | v_mfma_f32_32x32x16_bf16
_AMD_MMA = re.compile(r"^v_(?:s?mfma|wmma)_\w+?_(?P<m>\d+)x(?P<n>\d+)x(?P<k>\d+)_?(?P<types>\w*)")
# Example: fma.rn.f32 | add.f32 | mul.rn.f32 | ex2.approx.ftz.f32 | fma.rn.f16x2 | max.f32
_PTX_FLOAT = re.compile(r"^(?P<op>fma|add|sub|mul|max|min|ex2|lg2|rcp|div|sqrt|rsqrt|neg|abs)\.(?:[\w.]*\.)?"
                        r"(?P<t>f16x2|bf16x2|f32|f16|bf16|f64)$")
# Example: v_fma_f32 | v_add_f32_e32 | v_pk_fma_f32 | v_exp_f32 | v_max_f32_e32
_AMD_FLOAT = re.compile(r"^v_(?P<pk>pk_)?(?P<op>fma|fmac|add|sub|mul|max|min|exp|log|rcp|sqrt|rsq)"
                        r"\w*?_f(?P<bits>16|32|64)\b")

# Example: %acc = tt.dot %a, %b, %c, inputPrecision = tf32 : tensor<128x16xf16, ...> * tensor<16x256xf16, ...> -> ...
# Example: %acc = ttng.warp_group_dot %a, %b, %c {...} : !ttg.memdesc<128x64xf16, ...> * !ttg.memdesc<64x256xf16, ...>
_DOT = re.compile(r"=\s*(?:tt\.dot|ttng\.warp_group_dot|ttng\.tc_gen5_mma|tt\.dot_scaled)\s[^:]*:\s*"
                  r"[^<]*<(?P<m>\d+)x(?P<k>\d+)x[^*]*\*\s*[^<]*<(?P<k2>\d+)x(?P<n>\d+)x")
_MMA_TYPE_KEYS = (("e4m3", "fp8"), ("e5m2", "fp8"), ("fp8", "fp8"), ("bf16", "bf16"), ("tf32", "tf32"),
                  ("xf32", "tf32"), ("f16", "fp16"), ("s8", "int8"), ("u8", "int8"), ("i8", "int8"), ("f64", "fp64"),
                  ("f32", "fp32"))


@dataclass(frozen=True)
class LoopTrips:
    """How often one TTGIR loop runs.

    Attributes:
        ttgir_line: the line of its ``scf.for``.
        trips: iterations per program (CTA), averaged over the grid; None when the bounds could not be evaluated.
        busiest: iterations of the program that runs it most.
        depends_on_program: whether the count differs between programs (a persistent / strided loop).
        note: how it was found, or why it could not be.
        origin: ``arguments``, ``per_program`` (the same, differing per program id), ``known_values`` (asked of
            values known at run time) or ``unknown``.
        decided_by: when unknown, what its bounds come from (``bounds.bound_source``), "" when not found.
        read_from: the pointer arguments whose recorded (or given) contents the bounds were loaded from.
    """

    ttgir_line: int
    trips: float | None
    busiest: int | None
    depends_on_program: bool
    note: str
    origin: str = "unknown"
    decided_by: str = ""
    read_from: tuple[str, ...] = ()


@dataclass
class Mix:
    """What one CTA executes in one place (once, or one loop iteration), all figures per CTA.

    Attributes:
        mma: matrix instructions by mnemonic, issued per CTA (per warp group for wgmma, per warp otherwise).
        mma_flops: tensor-core FLOPs per CTA.
        mma_dtype: the operand type of the matrix instructions (``fp16``, ``tf32``...), "" when none.
        vector_flops: FLOPs of non-tensor float instructions per CTA (fma counts 2).
        vector_instructions: such instructions per CTA, in thread (lane) instructions.
        global_load_bytes / global_store_bytes: bytes the CTA requests from / sends to global memory.
        shared_loads / shared_stores: shared-memory instructions per CTA, in warp instructions.
        shared_wavefronts: shared-memory wavefronts (128 bytes each) those need without bank conflicts.
        lsu_wavefronts: the part of those from ld/st.shared and ldmatrix/stmatrix (not cp.async), by PTX width.
        warp_instructions: every PTX instruction per CTA, in warp instructions (NVIDIA only; 0 on AMD).
        barriers: CTA barriers per CTA.
        local_accesses: spill (local memory) instructions in warp instructions, from SASS when present.
        unknown_width: global instructions whose width the listing does not say (counted as 4 bytes).
    """

    mma: Counter[str] = field(default_factory=Counter)
    mma_flops: float = 0.0
    mma_dtype: str = ""
    vector_flops: float = 0.0
    vector_instructions: float = 0.0
    global_load_bytes: float = 0.0
    global_store_bytes: float = 0.0
    shared_loads: float = 0.0
    shared_stores: float = 0.0
    shared_wavefronts: float = 0.0
    lsu_wavefronts: float = 0.0
    warp_instructions: float = 0.0
    barriers: float = 0.0
    local_accesses: float = 0.0
    unknown_width: int = 0

    @property
    def shared_bytes(self) -> float:
        """Bytes the shared accesses move (128 per wavefront, conflict-free)."""
        return self.shared_wavefronts * 128


def mma_shape(opcode: str) -> tuple[int, int, int, str] | None:
    """(m, n, k, operand type) of a matrix instruction mnemonic, or None when it does not say."""
    match = _PTX_MMA.search(opcode) or _AMD_MMA.match(opcode)
    if match is None:
        return None
    types = match["types"].lower()
    # PTX wgmma names D then A, B (``.f32.f16.f16``); mma.sync names layouts first; the operand type is
    # the first one that is not the accumulator (f32/s32) or a layout.
    parts = [p for p in re.split(r"[._]", types) if p and p not in ("row", "col", "satfinite")]
    operand = parts[1] if len(parts) > 1 and parts[0] in ("f32", "s32", "f16") else (parts[0] if parts else "")
    if opcode.startswith("v_"):
        operand = types or "f32"
        operand = {"": "f32"}.get(operand, operand)
    key = next((k for needle, k in _MMA_TYPE_KEYS if needle in operand), operand)
    return int(match["m"]), int(match["n"]), int(match["k"]), key


def scalar_program_parts(ttgir: str) -> tuple[list[tuple[str, ...]], dict[int, tuple[str, str, str, str]], list[str]]:
    """The scalar integer ops of a module (or a loop body's lines), its loops' bounds by line, its integer arguments
    (straight-line ops only: not the ``scf.while`` and ``scf.if`` results ``run_program`` follows)."""
    program = parse_scalar_program(ttgir)
    return [op for op in program.ops if op[0] != "region"], dict(program.loops), list(program.args)


def run_scalars(ops: list[tuple[str, ...]], env: dict[str, int], pid: tuple[int, int, int],
                grid: tuple[int, int, int], data: Mapping[str, Sequence[int]] | None = None) -> dict[str, int]:
    """Evaluate the scalar ops in order from ``env`` for one program id (loads of pointer arguments in ``env``'s
    ``%name`` pointers are not resolved here; :func:`analysis.values.run_program` does)."""
    return run_program(ScalarProgram(tuple(ops), {}, ()), env, pid, grid, data).values


def _pids(grid: tuple[int, int, int], limit: int = 4096) -> list[tuple[int, int, int]]:
    """Program ids to evaluate: all of them for small grids, else an even sample (always with the first and last)."""
    total = grid[0] * grid[1] * grid[2]
    step = max(1, total // limit)
    picks = sorted(set(range(0, total, step)) | {total - 1})
    return [(p % grid[0], (p // grid[0]) % grid[1], p // (grid[0] * grid[1])) for p in picks]


def program_sample(grid: tuple[int, int, int], limit: int = 4096) -> list[tuple[int, int, int]]:
    """Program ids to evaluate: all of them for small grids, else an even sample (always with the first and last)."""
    return _pids(grid, limit)


def _env(program: ScalarProgram, values: Mapping[str, int]) -> dict[str, int]:
    return program.env(values)


def evaluate_trips(ttgir: str, values: dict[str, int], grid: tuple[int, int, int],
                   data: Mapping[str, Sequence[int]] | None = None) -> list[LoopTrips]:
    """The trip count of every ``scf.for`` of the module, for a launch with these integer arguments and grid, and the
    recorded contents (``data``) of the tensors its scalars are loaded from."""
    program = parse_scalar_program(ttgir)
    env = _env(program, values)
    missing = program.missing(values)
    runs = [run_program(program, env, pid, grid, data) for pid in _pids(grid)] if program.loops else []
    found: list[LoopTrips] = []
    for line, (_iv, lb, ub, st) in sorted(program.loops.items()):
        counts: list[int] = []
        deciders: frozenset[str] = frozenset()
        read: set[str] = set()
        for run in runs:
            bounds = [run.values.get(name) for name in (lb, ub, st)]
            if any(b is None for b in bounds):
                counts = []
                deciders = frozenset().union(*(run.loaded_from.get(n, frozenset()) for n in (lb, ub, st)))
                break
            low, high, step = (int(b) for b in bounds if b is not None)
            counts.append(max(0, -(-(high - low) // step)) if step > 0 else 0)
            read |= run.sources(lb, ub, st)
        if not counts:
            if deciders:
                why = (f"its bounds depend on values the kernel loads from {', '.join(sorted(deciders))}, whose "
                       f"contents were not recorded (capture the program, or give them with --data NAME=VALUES)")
            elif missing:
                why = f"its bounds need arguments with no value ({', '.join(missing)})"
            else:
                why = "its bounds are computed inside another loop or by ops irscope does not evaluate"
            found.append(LoopTrips(line, None, None, False, f"unknown: {why}", "unknown",
                                   f"loaded:{min(deciders)}" if deciders else ""))
            continue
        mean = sum(counts) / len(counts)
        varies = min(counts) != max(counts)
        source = "the launch's arguments" + (f" and the contents of {', '.join(sorted(read))}" if read else "")
        note = (f"from the loop bounds evaluated with {source}"
                + (f"; differs per program ({min(counts)}..{max(counts)}), averaged over the grid" if varies else ""))
        found.append(LoopTrips(line, mean, max(counts), varies, note, "per_program" if varies else "arguments", "",
                               tuple(sorted(read))))
    return found


def _innermost(loops: tuple[AsmLoop, ...], number: int) -> AsmLoop | None:
    holding = [loop for loop in loops if loop.contains(number)]
    return max(holding, key=lambda loop: loop.depth, default=None)


def _float_ops(opcode: str) -> tuple[float, float]:
    """(FLOPs, lane instructions) of one non-tensor float instruction for one thread (lane)."""
    if match := _PTX_FLOAT.match(opcode):
        lanes = 2.0 if match["t"].endswith("x2") else 1.0
        return (2.0 if match["op"] == "fma" else 1.0) * lanes, 1.0
    if match := _AMD_FLOAT.match(opcode):
        lanes = 2.0 if match["pk"] else 1.0
        return (2.0 if match["op"].startswith("fma") else 1.0) * lanes, 1.0
    return 0.0, 0.0


def _shared_wavefronts(opcode: str, text: str) -> float:
    """Wavefronts (128-byte shared-memory passes) one warp instruction needs with no bank conflict."""
    if opcode.startswith(("ldmatrix", "stmatrix")):
        match = re.search(r"\.x(\d)", opcode)
        return float(match[1]) if match else 1.0
    match = re.search(r"\.v(\d)\.[bfsu](\d+)", opcode) or re.search(r"\.()[bfsu](\d+)$", opcode)
    if match:
        return max(1.0, int(match[1] or 1) * int(match[2]) * 32 / 8 / 128)
    match = re.search(r"_b(\d+)", opcode)  # ds_read_b128
    if match:
        return max(1.0, int(match[1]) * 64 / 8 / 128)
    return 1.0


def mix_of(instructions: list[Instruction], num_warps: int, warp_size: int, amd: bool,
           active: dict[int, float] | None = None, tcgen05: Mapping[int, Tcgen05Shape | None] | None = None) -> Mix:
    """The per-CTA mix of these listing instructions (PTX: per thread; AMDGCN: per wave).

    ``active``: listing line -> share of the threads a predicated global access runs in (masked lanes move nothing).
    ``tcgen05``: listing line -> a tcgen05 MMA's shape from its instruction descriptor (``analysis.tcgen05``);
    one thread of the CTA issues it, so it counts once per CTA.
    """
    mix = Mix()
    threads = num_warps * warp_size
    for insn in instructions:
        opcode = insn.opcode
        kind = classify(opcode)
        if not amd:
            mix.warp_instructions += num_warps
        if kind == "mma" and opcode.startswith("tcgen05.mma"):
            mix.mma[opcode] += 1
            described = (tcgen05 or {}).get(insn.number)
            if described is not None:
                mix.mma_flops += described.flops_per_cta
                mix.mma_dtype = mix.mma_dtype or described.dtype
            continue
        if kind == "mma":
            shape = mma_shape(opcode)
            per = num_warps / 4 if opcode.startswith("wgmma") else float(num_warps)
            mix.mma[opcode] += int(per) if per >= 1 else 1
            if shape:
                m, n, k, dtype = shape
                mix.mma_flops += 2.0 * m * n * k * per
                mix.mma_dtype = mix.mma_dtype or dtype
            continue
        if kind in ("global_load", "async_copy", "global_store"):
            width = access_bytes(opcode, insn.text)
            if width is None:
                mix.unknown_width += 1
                width = 4
            moved: float = width * (warp_size if amd else 1) * (num_warps if amd else threads)
            moved *= (active or {}).get(insn.number, 1.0)
            if kind == "global_store":
                mix.global_store_bytes += moved
            else:
                mix.global_load_bytes += moved
            if kind == "async_copy" and not amd:
                mix.shared_stores += num_warps
                mix.shared_wavefronts += num_warps * max(1.0, width * 32 / 128)
            continue
        if kind in ("shared_load", "shared_store"):
            if kind == "shared_load":
                mix.shared_loads += num_warps
            else:
                mix.shared_stores += num_warps
            mix.shared_wavefronts += num_warps * _shared_wavefronts(opcode, insn.text)
            mix.lsu_wavefronts += num_warps * _shared_wavefronts(opcode, insn.text)
            continue
        if kind == "barrier":
            mix.barriers += 1
            continue
        if opcode.startswith(("LDL", "STL", "ld.local", "st.local", "scratch_", "buffer_store_dword off")):
            mix.local_accesses += num_warps
            continue
        flops, lanes = _float_ops(opcode)
        if flops:
            scale = (warp_size * num_warps) if amd else threads
            mix.vector_flops += flops * scale
            mix.vector_instructions += lanes * scale
    return mix


def split_by_loop(listing: Listing) -> tuple[list[Instruction], dict[str, list[Instruction]]]:
    """The listing's instructions outside every loop, and those of each loop (by label), innermost loop wins."""
    outside: list[Instruction] = []
    inside: dict[str, list[Instruction]] = {}
    for insn in listing.instructions:
        if insn.text.startswith("@!PT"):
            continue
        loop = _innermost(listing.loops, insn.number)
        if loop is None:
            outside.append(insn)
        else:
            inside.setdefault(loop.label, []).append(insn)
    return outside, inside


def scalar_values(ttgir: str, values: dict[str, int], grid: tuple[int, int, int],
                  data: Mapping[str, Sequence[int]] | None = None) -> dict[str, int]:
    """The scalar integer SSA values of program 0 for this launch (arguments, constants, arithmetic on them, scalars
    loaded from recorded tensor contents)."""
    program = parse_scalar_program(ttgir)
    return run_program(program, _env(program, values), (0, 0, 0), grid, data).values


def dot_flops(ttgir: str, span: tuple[int, int], inner: list[tuple[int, int]]) -> float:
    """2*M*N*K of the dot ops on TTGIR lines ``span`` (one loop iteration), leaving out the ``inner`` loops' lines."""
    total = 0.0
    for number, line in enumerate(ttgir.splitlines()[span[0] - 1:span[1]], span[0]):
        if any(lo <= number <= hi for lo, hi in inner):
            continue
        if (match := _DOT.search(line)) is not None:
            total += 2.0 * int(match["m"]) * int(match["n"]) * int(match["k"])
    return total


def scaled(mix: Mix, factor: float) -> Mix:
    """The mix times ``factor`` (one TTGIR iteration of a machine-code loop unrolled 1/factor times)."""
    return Mix(mma=Counter({k: round(v * factor) for k, v in mix.mma.items()}), mma_flops=mix.mma_flops * factor,
               mma_dtype=mix.mma_dtype, vector_flops=mix.vector_flops * factor,
               vector_instructions=mix.vector_instructions * factor, global_load_bytes=mix.global_load_bytes * factor,
               global_store_bytes=mix.global_store_bytes * factor, shared_loads=mix.shared_loads * factor,
               shared_stores=mix.shared_stores * factor, shared_wavefronts=mix.shared_wavefronts * factor,
               lsu_wavefronts=mix.lsu_wavefronts * factor, warp_instructions=mix.warp_instructions * factor,
               barriers=mix.barriers * factor, local_accesses=mix.local_accesses * factor,
               unknown_width=mix.unknown_width)
