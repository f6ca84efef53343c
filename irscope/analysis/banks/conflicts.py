"""Shared-memory bank conflicts of every shared-memory access of a kernel, predicted from its IR.

For each TTGIR op that reads or writes shared memory through the load/store unit (`ttg.local_load`,
`ttg.local_store`, `ttg.local_alloc` with a value, `ttg.async_copy_global_to_local`) the byte
address every lane touches is computed from the register layout of the value (irscope's linear
layouts) composed with the buffer's shared encoding (irscope.analysis.banks.shared_offsets), and the
width of each lane's access is read from the PTX instructions that carry the op's source position
(`ld.shared.v4.b32`, `ldmatrix...x4`, `cp.async.cg.shared.global ... 0x10`). irscope.analysis.banks.model
turns those addresses into wavefronts. wgmma / tcgen05 operand reads and TMA copies go through the
async proxy in the swizzled format they require: conflict-free by construction. Shared accesses whose
addresses the TTGIR does not show (the scratch buffers of `ttg.convert_layout`, `tt.reduce`, `tt.scan`)
are listed as unknown, with the instructions found.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from irscope.analysis.banks.model import ModelError, WarpAccess, instruction_wavefronts, warp_access
from irscope.analysis.banks.ptx_addresses import ThreadAddresses, evaluate_addresses
from irscope.analysis.banks.sass import sass_widths
from irscope.analysis.banks.shared_offsets import OffsetMap, UnsupportedShared, shared_offset_map
from irscope.analysis.instructions import canonical_op
from irscope.analysis.layouts.linear import LinearLayout
from irscope.analysis.layouts.to_linear import UnsupportedLayout, to_linear_layout
from irscope.errors import StoreError
from irscope.parse.layouts import Layout, LayoutTable, OpaqueLayout, parse_layout, parse_layouts
from irscope.parse.lineinfo import Instruction, Listing, parse_ptx
from irscope.parse.mlir_locs import innermost_in
from irscope.parse.mlir_ops import MlirModule, parse_module
from irscope.parse.ttgir_ops import OpLine, SourceLoc, TensorType, element_bits, parse_module_info, scan_ops
from irscope.store.store import Capture

__all__ = ["BankReport", "SharedAccess", "bank_report", "predict_bank_conflicts"]

# TTGIR op -> (direction, class of PTX instruction it becomes)
_LSU_OPS = {
    "ttg.local_load": ("load", "ld"),
    "ttg.local_store": ("store", "st"),
    "ttg.local_alloc": ("store", "st"),
    "ttg.async_copy_global_to_local": ("store", "cp"),
}
# ops that read or write shared memory outside the load/store unit, by construction without bank conflicts
_ASYNC_PROXY = {
    "ttng.warp_group_dot":
        "wgmma reads its shared operands through the async proxy in the swizzled nvmma_shared format",
    "ttng.tc_gen5_mma": "tcgen05.mma reads its shared operands through the async proxy in the nvmma_shared format",
    "ttng.tc_gen5_mma_scaled": "tcgen05.mma reads its shared operands through the async proxy",
    "ttng.async_tma_copy_global_to_local":
        "a TMA copy writes the buffer in its swizzled format through the async proxy",
    "ttng.async_tma_copy_local_to_global": "a TMA copy reads the buffer in its swizzled format through the async proxy",
    "ttng.async_tma_gather": "a TMA gather writes the buffer through the async proxy",
    "ttng.async_tma_scatter": "a TMA scatter reads the buffer through the async proxy",
    "ttng.async_tma_reduce": "a TMA reduction reads the buffer through the async proxy",
}
# ops whose shared accesses use a scratch buffer laid out by the lowering (not printed in the TTGIR)
_SCRATCH_OPS = ("ttg.convert_layout", "tt.reduce", "tt.scan", "tt.histogram", "tt.gather", "ttg.barrier")
# ncu counter each direction lands in (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld / _op_st)
_COUNTER = {"ld": "ld", "st": "st", "cp": "ldgsts"}

# Example: ld.shared.v4.b32 | st.shared.b16 | ld.shared::cta.v2.f32 | atom.shared.add.u32
_PTX_SHARED = re.compile(r"^(?P<op>ld|st|atom|red)\.shared(?:::\w+)?\S*?(?:\.v(?P<vec>[248]))?\.[bfsu](?P<bits>\d+)$")
# Example: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 | stmatrix.sync.aligned.m8n8.x2.shared.b16
_PTX_MATRIX = re.compile(r"^(?P<op>ld|st)matrix\.sync\.aligned\.m8n8\.x(?P<n>[124])(?:\.trans)?"
                         r"\.shared(?:::\w+)?\.b16$")
# Example: cp.async.cg.shared.global [ %r29 + 0 ], [ %rd26 + 0 ], 0x10, %r31;
_PTX_CP = re.compile(r"^cp\.async\.c[ag]\.shared(?:::\w+)?\.global\S*\s+\[[^\]]*\],\s*\[[^\]]*\],"
                     r"\s*(?P<n>0x[0-9a-fA-F]+|\d+)")
# Example: !ttg.memdesc<128x16xf16, #shared, #smem, mutable, 128x64>   (the allocation shape comes last)
_ALLOC_SHAPE = re.compile(r",\s*(?P<shape>\d+(?:x\d+)*)\s*>$")


@dataclass(frozen=True)
class SharedAccess:
    """One shared-memory access of a kernel and its predicted bank behaviour.

    Attributes:
        op: the TTGIR op (`ttg.local_load`, `ttg.async_copy_global_to_local`, `ttng.warp_group_dot`,
            or for scratch accesses the op(s) at that source position, `tt.reduce`).
        ttgir_line: 1-based line of the op in the TTGIR (0 for scratch accesses found only in the PTX).
        loc: its source position (innermost frame in the kernel's file), or None.
        where: `file.py:LINE` of that position, or "" when unknown.
        direction: "load" (shared -> registers) or "store" (into shared; async copies too).
        counter: the ncu counter its conflicts land in: "ld", "st", "ldgsts" (cp.async) or "" (none).
        encoding: the shared encoding as printed (`#ttg.swizzled_shared<{vec = 8, ...}>`), or "".
        register_layout: the register-side layout label (`#blocked1`), or "".
        shape: the register tensor's shape (the memdesc's for async-proxy ops).
        element: the element type (`f16`).
        instructions: the distinct PTX instructions it became (`ldmatrix.sync.aligned.m8n8.x4.shared.b16`).
        ptx_count: how many PTX instructions of its kind carry its source position (shared with
            `same_position` - 1 other ops at that position).
        same_position: how many ops of the same kind share the source position.
        lane_bytes: bytes one lane moves per instruction in the model (0 when not modelled).
        ways: the worst phase's wavefronts (1 = conflict-free, N = N-way); 0 when unknown.
        kind: "conflict-free", "N-way" or "unknown" (see `verdict` for "8-way").
        reason: one line of evidence.
        instructions_per_warp: warp-level instructions one execution of the op issues per warp.
        wavefronts_per_instruction: average wavefronts per warp-level instruction.
        ideal_wavefronts_per_instruction: wavefronts per instruction without conflicts.
        conflicts_per_warp: extra wavefronts per warp per execution of the op.
        conflicts_per_cta: extra wavefronts per CTA per execution (one loop iteration when inside a
            loop): multiply by trip count and CTAs to compare with ncu.
        loop_line: TTGIR line of the innermost `scf.for` around the op, or None.
        ptx_ways: the worst phase's wavefronts with the addresses evaluated from the PTX's own
            arithmetic for every thread (irscope.analysis.banks.ptx_addresses); 0 when not evaluated.
        ptx_conflicts_per_cta: extra wavefronts per CTA from those addresses (the position's
            instructions split evenly over `same_position` ops), or None when not evaluated.
        sass: the distinct SASS instructions of its kind on its source line (`LDS.128`, `LDSM.16.MT88.4`),
            filled only by `predict_bank_conflicts(capture, with_sass=True)`.
    """

    op: str
    ttgir_line: int
    loc: SourceLoc | None
    where: str
    direction: str
    counter: str
    encoding: str
    register_layout: str
    shape: tuple[int, ...]
    element: str
    instructions: tuple[str, ...]
    ptx_count: int
    same_position: int
    lane_bytes: int
    ways: int
    kind: str
    reason: str
    instructions_per_warp: int = 0
    wavefronts_per_instruction: float = 0.0
    ideal_wavefronts_per_instruction: int = 0
    conflicts_per_warp: int = 0
    conflicts_per_cta: int = 0
    loop_line: int | None = None
    ptx_ways: int = 0
    ptx_conflicts_per_cta: int | None = None
    sass: tuple[str, ...] = ()

    @property
    def conflicts_per_instruction(self) -> float:
        """Extra wavefronts per warp-level instruction (what ncu counts, per instruction)."""
        return round(self.wavefronts_per_instruction - self.ideal_wavefronts_per_instruction, 3) if self.ways else 0.0

    @property
    def verdict(self) -> str:
        """`conflict-free`, `8-way` or `unknown`."""
        return f"{self.ways}-way" if self.kind == "N-way" else self.kind


@dataclass(frozen=True)
class BankReport:
    """Every shared-memory access of a capture, with its predicted bank conflicts.

    Attributes:
        accesses: one entry per op (and per scratch access found only in the PTX), in TTGIR order.
        num_warps: warps per CTA the counts assume.
        target: `cuda:90`, `hip:gfx942` ...
        stage: the machine code read for instruction widths ("ptx"), or "" when none was.
        problems: what could not be read.
    """

    accesses: list[SharedAccess]
    num_warps: int
    target: str
    stage: str = "ptx"
    problems: list[str] = field(default_factory=list)

    def conflicts_per_cta(self, counter: str) -> int | None:
        """Sum of the modelled conflicts per CTA (each op run once) for one ncu counter; None if any is unknown."""
        chosen = [a for a in self.accesses if a.counter == counter]
        if any(a.kind == "unknown" for a in chosen):
            return None
        return sum(a.conflicts_per_cta for a in chosen)


@dataclass
class _Position:
    """The PTX shared-memory instructions at one source position, by class."""

    by_class: dict[str, list[Instruction]] = field(default_factory=dict)
    claimed: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class _Evidence:
    """Wavefronts of some PTX instructions from their evaluated addresses, summed over every warp of a CTA."""

    worst: int
    conflicts: int
    wavefronts: int
    ideal: int
    count: int
    failure: str = ""


def _evidence(insns: list[Instruction], addresses: dict[int, ThreadAddresses | str], lanes: int) -> _Evidence:
    worst = conflicts = wavefronts = ideal = 0
    for insn in insns:
        found = addresses.get(insn.number)
        if not isinstance(found, ThreadAddresses):
            return _Evidence(0, 0, 0, 0, len(insns), found or "not evaluated")
        nbytes, matrices = _width([insn])
        for waves, best, ways in instruction_wavefronts(found.addresses, nbytes, matrices, lanes):
            wavefronts += waves
            ideal += best
            worst = max(worst, ways)
    conflicts = wavefronts - ideal
    return _Evidence(worst, conflicts, wavefronts, ideal, len(insns))


def _ptx_class(insn: Instruction) -> str | None:
    """`ld`, `st`, `cp` (cp.async into shared), `bulk` (TMA), or None for non-shared instructions."""
    opcode = insn.opcode
    if match := _PTX_MATRIX.match(opcode):
        return match["op"]
    if match := _PTX_SHARED.match(opcode):
        return "st" if match["op"] in ("st", "red") else "ld"
    if opcode.startswith("cp.async.bulk"):
        return "bulk"
    if _PTX_CP.match(insn.text):
        return "cp"
    return None


Key = tuple[str, int, int]


def _key(loc: SourceLoc) -> Key:
    """(file name, line, column): where an op or instruction comes from."""
    return loc.file.rsplit("/", 1)[-1], loc.line, loc.col


def _positions(listing: Listing, kernel_file: str) -> dict[Key, _Position]:
    """Shared-memory instructions by source position: the innermost frame in the kernel's file, else the first."""
    found: dict[Key, _Position] = {}
    for insn in listing.instructions:
        cls = _ptx_class(insn)
        own = ((innermost_in(insn.frames, kernel_file) if kernel_file else None)
               or (insn.frames[0] if insn.frames else None))
        if cls is None or own is None:
            continue
        found.setdefault(_key(own), _Position()).by_class.setdefault(cls, []).append(insn)
    return found


def _alloc_shape(memdesc: TensorType) -> tuple[int, ...]:
    match = _ALLOC_SHAPE.search(memdesc.text)
    if not match:
        return memdesc.shape
    alloc = tuple(int(s) for s in match["shape"].split("x"))
    return alloc[len(alloc) - len(memdesc.shape):] if len(alloc) > len(memdesc.shape) else alloc


def _forms(insns: list[Instruction]) -> Counter[tuple[int, int]]:
    """How many instructions of each form (bytes per lane, ldmatrix/stmatrix .xN or 0) there are."""
    forms: Counter[tuple[int, int]] = Counter()
    for insn in insns:
        if match := _PTX_MATRIX.match(insn.opcode):
            forms[(4, int(match["n"]))] += 1
        elif match := _PTX_SHARED.match(insn.opcode):
            forms[(int(match["vec"] or 1) * int(match["bits"]) // 8, 0)] += 1
        elif match := _PTX_CP.match(insn.text):
            forms[(int(match["n"], 0), 0)] += 1
    return forms


def _width(insns: list[Instruction]) -> tuple[int, int]:
    """(bytes per lane, .xN or 0) of the most common instruction form, (0, 0) when none."""
    forms = _forms(insns)
    return forms.most_common(1)[0][0] if forms else (0, 0)


def _model_forms(linear: LinearLayout, offsets: OffsetMap, element_bytes: int, lanes: int,
                 insns: list[Instruction], sass_bytes: int = 0) -> tuple[WarpAccess, str]:
    """Model the access with the PTX instruction form that fits the registers (ops sharing a position may differ).

    A form fits when the model accepts it and the PTX has at least as many such instructions as the model
    issues per warp; the most common fitting form wins. Raises the first form's ModelError when none fits.
    """
    forms = _forms(insns)
    accepted: list[tuple[WarpAccess, tuple[int, int]]] = []
    first_error: ModelError | None = None
    for (nbytes, matrices), _ in forms.most_common():
        try:
            accepted.append((warp_access(linear, offsets, element_bytes, nbytes, matrices, lanes), (nbytes, matrices)))
        except ModelError as exc:
            first_error = first_error or exc
    if not accepted:
        raise first_error or ModelError("no shared-memory instruction form to model")
    fitting = [(m, f) for m, f in accepted if forms[f] >= m.instructions] or accepted
    model, (nbytes, matrices) = fitting[0]
    if sass_bytes > nbytes and not matrices:
        try:
            wide = warp_access(linear, offsets, element_bytes, sass_bytes, 0, lanes)
        except ModelError:
            wide = None
        if wide is not None:
            return wide, (f"; ptxas merged the PTX's {nbytes}-byte accesses: the SASS at this line is mostly "
                          f"{sass_bytes}-byte, which the model uses")
    if len(forms) == 1:
        return model, ""
    form = f".x{matrices} matrix" if matrices else f"{nbytes}-byte"
    return model, (f"; the PTX at this position mixes {len(forms)} instruction forms, the {form} one fits "
                   "these registers")


def _of_form(insns: list[Instruction], model: WarpAccess) -> list[Instruction]:
    """The instructions of the form the model used."""
    form = (model.lane_bytes, model.matrices)
    return [i for i in insns if _forms([i]).get(form)] or insns


def _layout(text: str, table: LayoutTable, problems: list[str]) -> Layout:
    return parse_layout(text, table.aliases, problems)


def _loop_lines(module: MlirModule) -> dict[int, int]:
    """Op line -> TTGIR line of the innermost `scf.for` around it (ops outside loops are absent)."""
    found: dict[int, int] = {}
    for op in module.ops:
        parent = op.parent
        while parent is not None:
            outer = module.ops[parent]
            if canonical_op(outer.name) == "scf.for":
                found[op.line] = outer.line
                break
            parent = outer.parent
    return found


def _where(loc: SourceLoc | None) -> str:
    return f"{loc.file.rsplit('/', 1)[-1]}:{loc.line}" if loc else ""


def _modelled(access: SharedAccess, model: WarpAccess, num_warps: int, note: str) -> SharedAccess:
    ways = model.worst_ways
    per_insn = model.wavefronts / model.instructions if model.instructions else 0.0
    ideal = model.ideal / model.instructions if model.instructions else 0.0
    kind = "conflict-free" if ways <= 1 else "N-way"
    phases = model.phases_per_instruction
    unit = "matrices" if model.matrices else "phases"
    reason = (
        f"{model.lane_bytes} bytes per lane, {phases} {unit} per instruction: "
        + ("no phase puts more distinct words in a bank than its ideal" if ways <= 1
           else f"the worst phase is {ways}-way "
                f"({per_insn:g} wavefronts per instruction instead of {ideal:g})")
    )
    ptx_each = access.ptx_count / max(1, access.same_position)
    if access.ptx_count and ptx_each != model.instructions:
        reason += f"; the PTX has {ptx_each:g} such instructions per op, the model {model.instructions} per warp"
    if not model.exact:
        reason += "; sampled, the padded buffer is not linear"
    return replace(
        access, lane_bytes=model.lane_bytes, ways=max(1, ways), kind=kind, reason=reason + note,
        instructions_per_warp=model.instructions, wavefronts_per_instruction=round(per_insn, 3),
        ideal_wavefronts_per_instruction=round(ideal), conflicts_per_warp=model.conflicts,
        conflicts_per_cta=model.conflicts * num_warps,
    )


def _unknown(access: SharedAccess, why: str) -> SharedAccess:
    return replace(access, kind="unknown", ways=0, reason=why)


def _lsu_access(
    op: OpLine, loc: SourceLoc | None, position: _Position | None, same: int, table: LayoutTable,
    num_warps: int, lanes: int, amd: bool, loop_line: int | None, problems: list[str], sass_bytes: int = 0,
) -> SharedAccess:
    name = canonical_op(op.op)
    direction, cls = _LSU_OPS[name]
    types = op.result_types + op.operand_types
    memdesc = next((t for t in types if t.kind == "memdesc"), None)
    tensor = next((t for t in types if t.kind == "tensor" and t.encoding), None)
    insns = position.by_class.get(cls, []) if position else []
    if position is not None and insns:
        position.claimed.add(cls)
    element = memdesc.element if memdesc else ""
    access = SharedAccess(
        op=name, ttgir_line=op.line, loc=loc, where=_where(loc), direction=direction, counter=_COUNTER[cls],
        encoding=memdesc.encoding if memdesc else "", register_layout=tensor.encoding if tensor else "",
        shape=tensor.shape if tensor else (), element=element,
        instructions=tuple(dict.fromkeys(i.opcode for i in insns)), ptx_count=len(insns), same_position=same,
        lane_bytes=0, ways=0, kind="unknown", reason="", loop_line=loop_line,
    )
    if memdesc is None or tensor is None:
        return _unknown(access, "the op line shows no register tensor and shared buffer types")
    if amd:
        return _unknown(access, "AMD LDS banking (ds_read/ds_write phases, 64 lanes) is not modelled")
    if not insns:
        return _unknown(access, f"no shared-memory instruction in the PTX carries source position {_where(loc) or '?'}")
    shared = _layout(memdesc.encoding, table, problems)
    register = _layout(tensor.encoding, table, problems)
    for bad in (shared, register):
        if isinstance(bad, OpaqueLayout):
            return _unknown(access,
                            f"layout {'#' + bad.name if bad.name else bad.text} could not be read: {bad.reason}")
    try:
        access = replace(access, encoding=shared.text or memdesc.encoding)
        offsets = shared_offset_map(shared, _alloc_shape(memdesc))
        linear = to_linear_layout(register, tensor.shape)
        model, note = _model_forms(linear, offsets, max(1, element_bits(element) // 8), lanes, insns,
                                   sass_bytes if cls in ("ld", "st") else 0)
    except (UnsupportedShared, UnsupportedLayout, ModelError) as exc:
        return _unknown(access, str(exc))
    if note:
        access = replace(access, instructions=tuple(dict.fromkeys(i.opcode for i in _of_form(insns, model))))
    return _modelled(access, model, num_warps, note)


def _proxy_access(op: OpLine, loc: SourceLoc | None, loop_line: int | None) -> SharedAccess:
    name = canonical_op(op.op)
    memdescs = [t for t in op.result_types + op.operand_types if t.kind == "memdesc"
                and "shared" in t.memory_space + t.text]
    first = memdescs[0] if memdescs else None
    return SharedAccess(
        op=name, ttgir_line=op.line, loc=loc, where=_where(loc), direction="load" if "dot" in name or "mma" in name
        or "local_to_global" in name or "scatter" in name or "reduce" in name else "store",
        counter="", encoding=first.encoding if first else "", register_layout="", shape=first.shape if first else (),
        element=first.element if first else "", instructions=(), ptx_count=0, same_position=1, lane_bytes=0, ways=1,
        kind="conflict-free", reason=_ASYNC_PROXY[name] + ": no load/store-unit bank conflicts by construction",
        loop_line=loop_line,
    )


def bank_report(ttgir: str, ptx: str | None, kernel_file: str = "", sass: Listing | None = None) -> BankReport:
    """Predict the bank conflicts of a TTGIR module, reading instruction widths from its PTX (None: AMD or absent).

    With the SASS listing, a line whose LDS/STS ptxas made wider than the PTX's is modelled at the SASS width.
    """
    info = parse_module_info(ttgir)
    num_warps = info.num_warps or 4
    lanes = info.threads_per_warp or 32
    amd = info.target.startswith("hip")
    table = parse_layouts(ttgir)
    problems = list(table.problems)
    if info.num_warps is None:
        problems.append("the module names no ttg.num-warps: per-CTA counts assume 4 warps")
    module = parse_module(ttgir)
    by_line = {op.line: op for op in module.ops}
    loops = _loop_lines(module)
    listing = parse_ptx(ptx) if ptx is not None else None
    positions = _positions(listing, kernel_file) if listing else {}
    widths = sass_widths(sass, kernel_file) if sass is not None else {}
    if listing:
        problems += listing.problems

    def loc_of(op: OpLine) -> SourceLoc | None:
        mlir = by_line.get(op.line)
        chain = mlir.location.frames if mlir else ()
        return (innermost_in(chain, kernel_file) if kernel_file else None) or (chain[0] if chain else op.loc)

    ops = list(scan_ops(ttgir))
    lsu = []
    for op in ops:
        name = canonical_op(op.op)
        if name == "ttg.local_alloc" and not any(t.kind == "tensor" for t in op.operand_types + op.result_types):
            continue  # an allocation without a value writes nothing
        if name in _LSU_OPS:
            lsu.append((op, loc_of(op)))
    same: Counter[tuple[Key, str]] = Counter()
    for op, loc in lsu:
        if loc is not None:
            same[(_key(loc), _LSU_OPS[canonical_op(op.op)][1])] += 1
    accesses: list[SharedAccess] = []
    for op in ops:
        name = canonical_op(op.op)
        loc = loc_of(op) if name in _LSU_OPS or name in _ASYNC_PROXY else None
        if name in _ASYNC_PROXY:
            accesses.append(_proxy_access(op, loc, loops.get(op.line)))
        elif (op, loc) in lsu:
            key = _key(loc) if loc else None
            count = same[(key, _LSU_OPS[name][1])] if key else 1
            wide = widths.get((key[0], key[1], _LSU_OPS[name][1]), 0) if key else 0
            accesses.append(_lsu_access(op, loc, positions.get(key) if key else None, count, table, num_warps,
                                        lanes, amd, loops.get(op.line), problems, wide))
    addresses: dict[int, ThreadAddresses | str] = {}
    if listing and not amd:
        numbers = [i.number for pos in positions.values() for insns in pos.by_class.values() for i in insns]
        addresses = evaluate_addresses(listing.instructions, numbers, num_warps * lanes)
    scratch = _scratch_accesses(ops, positions, module, loops, loc_of)
    accesses = [_with_evidence(a, key or (_key(a.loc) if a.loc else None), positions, addresses, num_warps, lanes)
                for a, key in [(a, None) for a in accesses] + scratch]
    accesses.sort(key=lambda a: (a.ttgir_line == 0, a.ttgir_line, a.loc.line if a.loc else 0))
    return BankReport(accesses, num_warps, info.target, "ptx" if listing else "", problems)


def _scratch_accesses(
    ops: list[OpLine], positions: dict[Key, _Position], module: MlirModule, loops: dict[int, int],
    loc_of: Callable[[OpLine], SourceLoc | None],
) -> list[tuple[SharedAccess, Key]]:
    """Shared instructions no modelled op claimed: scratch buffers of layout conversions, reductions, scans."""
    by_line = {op.line: op for op in module.ops}
    owners: dict[Key, list[OpLine]] = {}
    for op in ops:
        if canonical_op(op.op) in _SCRATCH_OPS:
            mlir = by_line.get(op.line)
            for frame in dict.fromkeys(mlir.location.frames if mlir else (op.loc,) if op.loc else ()):
                owners.setdefault(_key(frame), []).append(op)
    found = []
    for key, position in positions.items():
        for cls, insns in position.by_class.items():
            if cls in position.claimed or cls == "bulk":
                continue
            mine = owners.get(key, [])
            names = sorted({canonical_op(o.op) for o in mine}) or ["?"]
            first = mine[0] if mine else None
            loc = loc_of(first) if first else SourceLoc(insns[0].frames[0].file if insns[0].frames else key[0],
                                                        *key[1:])
            label = " / ".join(names)
            why = (f"{label}: a scratch buffer laid out by Triton's lowering, not printed in the TTGIR"
                   if mine else "no TTGIR op that irscope models carries this source position")
            found.append((SharedAccess(
                op=label, ttgir_line=first.line if first else 0, loc=loc, where=_where(loc),
                direction="store" if cls == "st" else "load", counter=_COUNTER.get(cls, ""), encoding="",
                register_layout="", shape=(), element="", instructions=tuple(dict.fromkeys(i.opcode for i in insns)),
                ptx_count=len(insns), same_position=max(1, len(mine)), lane_bytes=_width(insns)[0], ways=0,
                kind="unknown", reason=why, loop_line=loops.get(first.line) if first else None,
            ), key))
    return found


_CLASS_OF_COUNTER = {"ld": "ld", "st": "st", "ldgsts": "cp"}


def _with_evidence(access: SharedAccess, key: Key | None, positions: dict[Key, _Position],
                   addresses: dict[int, ThreadAddresses | str], num_warps: int, lanes: int) -> SharedAccess:
    """Attach what the PTX's evaluated addresses say; for scratch accesses that is the prediction."""
    cls = _CLASS_OF_COUNTER.get(access.counter)
    position = positions.get(key) if key else None
    insns = position.by_class.get(cls, []) if position and cls else []
    if not insns:
        return access
    evidence = _evidence(insns, addresses, lanes)
    same = max(1, access.same_position)
    scratch = access.op not in _LSU_OPS
    if evidence.failure:
        return replace(access, reason=f"{access.reason}; {evidence.failure}") if scratch else access
    access = replace(access, ptx_ways=max(1, evidence.worst), ptx_conflicts_per_cta=evidence.conflicts // same)
    if scratch or access.kind == "unknown":  # the PTX's addresses are then the prediction
        per_warp = evidence.count // same
        issued = evidence.count * num_warps
        return replace(
            access, ways=max(1, evidence.worst), kind="conflict-free" if evidence.worst <= 1 else "N-way",
            instructions_per_warp=per_warp, wavefronts_per_instruction=round(evidence.wavefronts / issued, 3),
            ideal_wavefronts_per_instruction=round(evidence.ideal / issued),
            conflicts_per_cta=evidence.conflicts // same,
            conflicts_per_warp=evidence.conflicts // (same * num_warps),
            reason=f"{access.reason}; addresses evaluated from the PTX's own arithmetic for all "
                   f"{num_warps * lanes} threads: the worst phase is {max(1, evidence.worst)}-way",
        )
    if access.kind != "unknown" and evidence.worst != access.ways:
        widened = "ptxas merged" in access.reason  # the PTX's narrower instructions do not run as such
        access = replace(access, reason=f"{access.reason}; " + ("at the PTX's own widths " if widened else "but ")
                         + "the PTX's own address arithmetic (first loop iteration) gives "
                         + f"{max(1, evidence.worst)}-way")
    return access


# Example: LDS.128 | LDSM.16.MT88.4 | STS.64 | STSM.16.M88.4 | LDGSTS.E.BYPASS.LTC128B.128
_SASS_CLASS = (("LDGSTS", "ldgsts"), ("LDSM", "ld"), ("LDS", "ld"), ("STSM", "st"), ("STS", "st"))


def _with_sass(report: BankReport, listing: Listing, kernel_file: str) -> BankReport:
    """Attach each access's SASS instructions: same counter class, same source line (SASS has no columns)."""
    by_line: dict[tuple[str, int, str], list[str]] = {}
    for insn in listing.instructions:
        cls = next((c for prefix, c in _SASS_CLASS if insn.opcode == prefix or insn.opcode.startswith(prefix + ".")),
                   None)
        own = innermost_in(insn.frames, kernel_file) or (insn.frames[0] if insn.frames else None)
        if cls is not None and own is not None:
            by_line.setdefault((own.file.rsplit("/", 1)[-1], own.line, cls), []).append(insn.opcode)
    accesses = []
    for access in report.accesses:
        found = (by_line.get((access.loc.file.rsplit("/", 1)[-1], access.loc.line, access.counter))
                 if access.loc else None)
        accesses.append(replace(access, sass=tuple(dict.fromkeys(found))) if found else access)
    return replace(report, accesses=accesses)


def predict_bank_conflicts(capture: Capture, with_sass: bool = False) -> BankReport:
    """Every shared-memory access of a stored capture with its predicted bank conflicts (reads the store only).

    With `with_sass`, each access also names its SASS instructions (nvdisasm on the capture's cubin,
    cached in the capture; a capture without one says so in `problems`).
    """
    ttgir = capture.read("ttgir")
    ptx: str | None = None
    if capture.manifest.backend == "cuda":
        try:
            ptx = capture.read("ptx")
        except StoreError:
            ptx = None
    listing: Listing | None = None
    why = ""
    if with_sass and capture.manifest.backend == "cuda":
        from irscope.analysis.sourcemap import sass_listing

        listing, why = sass_listing(capture)
    report = bank_report(ttgir, ptx, capture.manifest.kernel_path, listing)
    if capture.manifest.backend == "cuda" and ptx is None:
        report.problems.append("the capture has no PTX: instruction widths unknown")
    if with_sass and capture.manifest.backend == "cuda":
        if listing is None:
            report.problems.append(f"no SASS: {why}")
        else:
            report = _with_sass(report, listing, capture.manifest.kernel_path)
    return report
