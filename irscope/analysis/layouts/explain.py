"""What each layout of a TTGIR module means, where it is used, and what it costs in registers."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from irscope.analysis.layouts.access_widths import (
    AccessWidth,
    describe_access,
    global_accesses,
    vector_phrase,
)
from irscope.analysis.layouts.conversions import ConversionCost, Provenance, conversion_cost, machine_evidence
from irscope.analysis.layouts.linear import LinearLayout, matrix_order
from irscope.analysis.layouts.to_linear import UnsupportedLayout, mma_operand_tile, to_linear_layout
from irscope.parse.layouts import (
    AmdMfmaLayout,
    AmdRotatingSharedLayout,
    AmdWmmaLayout,
    BlockedLayout,
    DistributedLinearLayout,
    DotOperandLayout,
    Layout,
    LayoutTable,
    NvidiaMmaLayout,
    NVMMASharedLayout,
    OpaqueLayout,
    PaddedSharedLayout,
    PartitionedSharedLayout,
    SharedLinearLayout,
    SliceLayout,
    SwizzledSharedLayout,
    TensorMemoryLayout,
    TensorMemoryScalesLayout,
    parse_layout,
    parse_layouts,
    split_modules,
)
from irscope.parse.lineinfo import Listing
from irscope.parse.ttgir_ops import (
    ModuleInfo,
    SourceLoc,
    TensorType,
    element_bits,
    parse_module_info,
    scan_ops,
)

__all__ = [
    "Conversion",
    "LayoutInfo",
    "LayoutReport",
    "LayoutUse",
    "RegisterUse",
    "analyze_layout_file",
    "analyze_layouts",
    "explain_layout",
    "registers_per_thread",
]

_DTYPE_WORDS = {
    "f16": "fp16", "bf16": "bf16", "f32": "fp32", "f64": "fp64", "i1": "i1", "i8": "int8", "i16": "int16",
    "i32": "int32", "i64": "int64", "f8E4M3FN": "fp8e4m3", "f8E5M2": "fp8e5m2", "f8E4M3FNUZ": "fp8e4m3fnuz",
    "f8E5M2FNUZ": "fp8e5m2fnuz",
}
_MFMA_ARCH = {1: "CDNA1 gfx908", 2: "CDNA2 gfx90a", 3: "CDNA3 gfx942", 4: "CDNA4 gfx950"}
_WMMA_ARCH = {1: "RDNA3", 2: "RDNA4", 3: "gfx1250"}


@dataclass(frozen=True)
class LayoutUse:
    """One op line whose types carry a layout.

    Attributes:
        op: the op name (`tt.load`).
        results: SSA names of the op's results.
        role: "result" when the layout is on a result type, else "operand".
        type: the tensor or memdesc type carrying the layout.
        line: 1-based line in the module text.
        loc: the source position, when the module's location table resolves it.
    """

    op: str
    results: tuple[str, ...]
    role: str
    type: TensorType
    line: int
    loc: SourceLoc | None


@dataclass(frozen=True)
class RegisterUse:
    """What one tensor type in a distributed layout costs each thread.

    Attributes:
        shape: the tensor shape.
        element: the element type as printed.
        elements_per_thread: register slots per thread, replicated elements included.
        unique_per_thread: distinct elements per thread.
        replication: how many threads hold each element (1 when nothing is replicated).
        element_bits: bits per element (pointers 64).
        registers: 32-bit registers the values take: ceil(elements_per_thread * bits / 32).
    """

    shape: tuple[int, ...]
    element: str
    elements_per_thread: int
    unique_per_thread: int
    replication: int
    element_bits: int
    registers: int


@dataclass(frozen=True)
class LayoutInfo:
    """One layout of the module with its meaning and uses.

    Attributes:
        label: `#blocked1` for an alias, or the attribute text of an inline layout.
        layout: the parsed layout.
        explanation: one sentence a Triton engineer would say about it.
        uses: every op line that carries it, in text order.
        registers: cost per distinct (shape, element type) it is used with; distributed layouts only.
    """

    label: str
    layout: Layout
    explanation: str
    uses: list[LayoutUse] = field(default_factory=list)
    registers: list[RegisterUse] = field(default_factory=list)

    @property
    def shapes(self) -> list[tuple[int, ...]]:
        """Distinct shapes it is used with, most frequent first."""
        return [shape for shape, _ in Counter(u.type.shape for u in self.uses).most_common()]


@dataclass(frozen=True)
class Conversion:
    """A `ttg.convert_layout`: data moving between two layouts (through shared memory or shuffles).

    Attributes:
        result: the SSA name of the converted value.
        source: label of the source layout.
        dest: label of the destination layout.
        shape: the tensor shape.
        element: the element type.
        line: 1-based line in the module text.
        loc: the source position, when resolvable.
        cost: how it is carried out (registers, shuffles, shared memory) and what it moves.
    """

    result: str
    source: str
    dest: str
    shape: tuple[int, ...]
    element: str
    line: int
    loc: SourceLoc | None
    cost: ConversionCost | None = None


@dataclass(frozen=True)
class LayoutReport:
    """Every layout of one TTGIR module, explained.

    Attributes:
        module: num-warps, threads-per-warp and target of the module.
        layouts: aliased layouts in definition order, then inline ones in order of first use.
        conversions: every convert_layout op in text order.
        problems: what could not be read or modelled, one sentence each.
        accesses: the global loads and stores checked against the machine code, when it was given.
        provenance: which layouts and conversions the kernel's first IR already had (irscope.analysis.layouts
            .provenance), when it was compared.
    """

    module: ModuleInfo
    layouts: list[LayoutInfo]
    conversions: list[Conversion]
    problems: list[str]
    accesses: list[AccessWidth] = field(default_factory=list)
    provenance: Provenance | None = None

    def get(self, label: str) -> LayoutInfo | None:
        """The layout with this label (`#mma` or `mma`), or None."""
        wanted = label if label.startswith("#") or not label else f"#{label}"
        return next((info for info in self.layouts if info.label == wanted), None)


def _dtype(element: str) -> str:
    if element.startswith("!tt.ptr<") and element.endswith(">"):
        return f"pointers to {_dtype(element[8:-1])}"
    return _DTYPE_WORDS.get(element, element)


def _dims(values: Sequence[int]) -> str:
    return "x".join(str(v) for v in values)


def _prod(values: Sequence[int]) -> int:
    return math.prod(values) if values else 1


def _warps_phrase(warps: Sequence[int]) -> str:
    total = _prod(warps)
    noun = "warp" if total == 1 else "warps"
    if len(warps) < 2:
        return f"{total} {noun}"
    if total == 1:
        return "1 warp"
    if warps[-2] == total:
        return f"{total} {noun} stacked {_dims(warps)}"
    if warps[-1] == total:
        return f"{total} {noun} side by side {_dims(warps)}"
    return f"{total} {noun} as {_dims(warps)}"


def _order_phrase(order: Sequence[int]) -> str:
    rank = len(order)
    if rank < 2:
        return ""
    if tuple(order) == matrix_order(rank, True):
        return f"order {list(order)} (row-major)"
    if tuple(order) == matrix_order(rank, False):
        return f"order {list(order)} (column-major)"
    return f"order {list(order)}"


def _fit_phrase(ll: LinearLayout | None, shape: Sequence[int] | None, element: str | None) -> str:
    if ll is None or not shape:
        return ""
    regs = ll.in_size("register")
    threads = ll.in_size("lane") * ll.in_size("warp") * ll.in_size("block")
    replication = regs * threads // _prod(shape)
    what = _dtype(element) if element else "elements"
    text = f"; for {_dims(shape)} each thread holds {regs} {what}"
    if replication > 1:
        text += f", every element held by {replication} threads"
    return text


def _blocked_sentence(layout: BlockedLayout, element: str | None, accesses: Sequence[tuple[str, str]]) -> str:
    spt, rank = layout.size_per_thread, len(layout.size_per_thread)
    what = _dtype(element) if element else "elements"
    contiguous = spt[layout.order[0]]
    vector = vector_phrase(contiguous, accesses)
    if _prod(spt) == 1:
        holds = f"each thread holds one {_dtype(element) if element else 'element'}"
    elif contiguous == _prod(spt):
        holds = f"each thread holds {_dims(spt)} contiguous {what}{vector}"
    else:
        holds = f"each thread holds {_dims(spt)} {what}, {contiguous} contiguous along dim {layout.order[0]}{vector}"
    warp = [s * t for s, t in zip(spt, layout.threads_per_warp, strict=True)]
    parts = [holds, f"a warp covers {_dims(warp)}", _warps_phrase(layout.warps_per_cta)]
    if rank > 1:
        parts.append(_order_phrase(layout.order))
    return "; ".join(p for p in parts if p)


def _mma_sentence(layout: NvidiaMmaLayout) -> str:
    warps = layout.warps_per_cta
    if layout.version_major == 3:
        groups = max(1, _prod(warps) // 4)
        instr = layout.instr_shape
        tile = f"64x{instr[1]}" if len(instr) > 1 else "64xN"
        who = f"{groups} warpgroups, each computing" if groups > 1 else "1 warpgroup computing"
        return (
            f"nvidia_mma v3 (Hopper wgmma), instrShape {_dims(instr)}, {_prod(warps)} warps as {_dims(warps)}"
            f" ({who} {tile} per wgmma)"
        )
    if layout.version_major == 2:
        return (
            f"nvidia_mma v2 ({_mma_v2_instruction(layout)}), instrShape {_dims(layout.instr_shape)}, {_prod(warps)} "
            f"warps as {_dims(warps)}; each warp computes {_dims(layout.instr_shape)} tiles, a quad of 4 lanes "
            "sharing a row, each lane 2 consecutive elements of it"
        )
    return f"nvidia_mma v{layout.version_major}, instrShape {_dims(layout.instr_shape)}, warps {_dims(warps)}"


def _mma_v2_instruction(layout: NvidiaMmaLayout) -> str:
    """`Ampere mma.sync`, or the fp64 DMMA that instrShape [8, 8] stands for."""
    if tuple(layout.instr_shape[-2:]) == (8, 8):
        return "fp64 DMMA, mma.sync m8n8k4"
    return "Ampere mma.sync"


def _mma_operand_phrase(layout: DotOperandLayout, parent: NvidiaMmaLayout, what: str) -> str:
    """`of every 8x4 tile of A a thread holds 1 fp64 (4 lanes along K x 8 along M)` for an mma.sync operand."""
    try:
        rows, cols = mma_operand_tile(layout, parent)
    except UnsupportedLayout:
        return ""
    per_thread = rows * cols // 32
    other = "M" if layout.op_idx == 0 else "N"
    operand = "A" if layout.op_idx == 0 else "B"
    return (
        f"; of every {rows}x{cols} tile of {operand} a thread holds {per_thread} {what} "
        f"(4 lanes along K x 8 along {other})"
    )


def _dot_sentence(layout: DotOperandLayout, element: str | None) -> str:
    operand = "A" if layout.op_idx == 0 else "B"
    parent = layout.parent
    head = f"dot operand {operand} (opIdx {layout.op_idx}) of {parent.label} ({parent.kind})"
    if isinstance(parent, BlockedLayout):
        return head + ": an FMA dot without tensor cores; each thread holds the whole K extent"
    if not layout.k_width:
        return head
    bits = f" ({layout.k_width * element_bits(element)} bits)" if element else ""
    what = _dtype(element) if element else "elements"
    text = head + (f", kWidth {layout.k_width}: each thread holds runs of {layout.k_width} consecutive {what} "
                   f"along K{bits}")
    if isinstance(parent, NvidiaMmaLayout) and parent.version_major == 2:
        text += _mma_operand_phrase(layout, parent, what)
    return text



def _slice_sentence(layout: SliceLayout) -> str:
    return (
        f"slice of {layout.parent.label} ({layout.parent.kind}) with dim {layout.dim} removed: the layout of a value "
        f"reduced along dim {layout.dim}, or to be expanded back along it"
    )


def _mfma_sentence(layout: AmdMfmaLayout) -> str:
    arch = _MFMA_ARCH.get(layout.version, f"version {layout.version}")
    instr = [v for v in layout.instr_shape if v]
    text = (
        f"amd_mfma v{layout.version} ({arch} MFMA), instrShape {_dims(instr)}, {_prod(layout.warps_per_cta)} "
        f"warps (64-lane wavefronts) as {_dims(layout.warps_per_cta)}"
    )
    if layout.is_transposed:
        text += "; transposed: each lane holds consecutive elements along N (good for chained dots and stores)"
    if layout.tiles_per_warp and _prod(layout.tiles_per_warp) > 1:
        text += f"; {_dims(layout.tiles_per_warp)} MFMA tiles per warp"
    return text


def _wmma_sentence(layout: AmdWmmaLayout) -> str:
    arch = _WMMA_ARCH.get(layout.version, f"version {layout.version}")
    if layout.warp_bases is not None:
        warps = f"{1 << len(layout.warp_bases)} warps placed by bases {[list(b) for b in layout.warp_bases]}"
    else:
        warps = f"{_prod(layout.warps_per_cta or ())} warps as {_dims(layout.warps_per_cta or ())}"
    text = f"amd_wmma v{layout.version} ({arch} WMMA), instrShape {_dims(layout.instr_shape)}, {warps}"
    return text + ("; transposed" if layout.is_transposed else "")


def _span(bases: Sequence[Sequence[int]], rank: int) -> tuple[list[int], int]:
    """Per dim, how far a set of bases reaches (2^bits), and how many of them are broadcasts."""
    span = [1] * rank
    zeros = 0
    for basis in bases:
        dims = [i for i, v in enumerate(basis) if v]
        if not dims:
            zeros += 1
        else:
            span[dims[0]] *= 2
    return span, zeros


def _linear_sentence(layout: DistributedLinearLayout) -> str:
    rank = layout.rank
    parts = []
    for name, bases in (("registers", layout.register), ("lanes", layout.lane), ("warps", layout.warp)):
        span, zeros = _span(bases, rank)
        extra = f" (+{zeros} broadcast bit{'s' if zeros > 1 else ''})" if zeros else ""
        parts.append(f"{name} span {_dims(span)}{extra}")
    kind = "generic linear" if layout.generic else "linear"
    return f"{kind} layout given by explicit bases: " + ", ".join(parts)


def _swizzle_sentence(layout: SwizzledSharedLayout | AmdRotatingSharedLayout, element: str | None) -> str:
    order = _order_phrase(layout.order)
    head = "shared memory" + (f", {order}" if order else "")
    if layout.max_phase <= 1:
        return head + ", not swizzled"
    what = _dtype(element) if element else "elements"
    size = f" ({layout.vec * element_bits(element) // 8} bytes)" if element else ""
    text = (
        f"{head}; vectors of {layout.vec} {what}{size} are XOR-swizzled over {layout.max_phase} phases, "
        f"the phase advancing every {'row' if layout.per_phase == 1 else f'{layout.per_phase} rows'}, so reading "
        "down a column touches different banks"
    )
    if isinstance(layout, AmdRotatingSharedLayout):
        text += f"; the pattern also rotates every {layout.per_phase * layout.max_phase} rows"
    if isinstance(layout, SwizzledSharedLayout) and layout.has_leading_offset:
        text += "; leading-offset (MMAv3) form"
    return text


def _shared_sentence(layout: Layout, element: str | None) -> str | None:
    if isinstance(layout, SwizzledSharedLayout | AmdRotatingSharedLayout):
        return _swizzle_sentence(layout, element)
    if isinstance(layout, NVMMASharedLayout):
        swizzle = (
            f"{layout.swizzling_byte_width}-byte swizzle" if layout.swizzling_byte_width else "no swizzling"
        )
        major = "the outer dim contiguous (transposed)" if layout.transposed else "rows contiguous"
        fp4 = ", fp4 padded" if layout.fp4_padded else ""
        return (
            f"shared memory in the NVMMA layout that wgmma/tcgen05 and TMA read directly: {swizzle} of "
            f"{layout.element_bit_width}-bit elements, {major}{fp4}"
        )
    if isinstance(layout, PaddedSharedLayout):
        pads = ", ".join(f"{p} after every {i}" for i, p in layout.intervals)
        mapping = (
            f", order {list(layout.order)}"
            if layout.order is not None else f", {len(layout.offset_bases)} offset bases"
        )
        return f"shared memory with padding ({pads} elements) to avoid bank conflicts{mapping}"
    if isinstance(layout, SharedLinearLayout):
        return (f"shared memory given by {len(layout.offset_bases)} explicit offset bases, "
                f"{layout.alignment}-byte aligned")
    if isinstance(layout, PartitionedSharedLayout):
        return (
            f"shared memory split along dim {layout.partition_dim} into {layout.num_partitions} buffers x "
            f"{layout.num_groups} groups, each piece in {layout.partition_layout.label}"
        )
    if isinstance(layout, TensorMemoryLayout):
        packing = "packed" if layout.col_stride == 1 and not layout.unpacked else "unpacked"
        return (
            f"Blackwell tensor memory: {layout.block_m}x{layout.block_n} blocks, column stride "
            f"{layout.col_stride} ({packing})" + (", across a CTA pair" if layout.two_ctas else "")
        )
    if isinstance(layout, TensorMemoryScalesLayout):
        return "Blackwell tensor memory holding the block scales of a scaled MMA"
    return None


def explain_layout(
    layout: Layout, shape: Sequence[int] | None = None, element: str | None = None, access: str = "access",
    accesses: Sequence[tuple[str, str]] | None = None,
) -> str:
    """One sentence describing `layout`, made concrete by the shape and element type it is used with.

    `accesses` lists the global memory accesses through the layout as (kind, element accessed) pairs;
    without it, one `access` of `element` is assumed.
    """
    if accesses is None:
        accesses = [(access, element)] if element else []
    shared = _shared_sentence(layout, element)
    if shared is not None:
        return shared
    if isinstance(layout, OpaqueLayout):
        if layout.reason.startswith("invalid: "):  # Triton's verifier would reject it (parse/layout_verify.py)
            return f"{layout.mnemonic}, {layout.reason}"
        return f"{layout.mnemonic}: not modelled by irscope ({layout.reason})"
    if isinstance(layout, BlockedLayout):
        text = _blocked_sentence(layout, element, accesses)
    elif isinstance(layout, NvidiaMmaLayout):
        text = _mma_sentence(layout)
    elif isinstance(layout, DotOperandLayout):
        text = _dot_sentence(layout, element)
    elif isinstance(layout, SliceLayout):
        text = _slice_sentence(layout)
    elif isinstance(layout, AmdMfmaLayout):
        text = _mfma_sentence(layout)
    elif isinstance(layout, AmdWmmaLayout):
        text = _wmma_sentence(layout)
    elif isinstance(layout, DistributedLinearLayout):
        text = _linear_sentence(layout)
    else:
        text = f"{layout.kind} layout"
    ll = None
    if shape:
        try:
            ll = to_linear_layout(layout, shape)
        except UnsupportedLayout:
            ll = None
    return text + _fit_phrase(ll, shape, element)


def registers_per_thread(layout: Layout, shape: Sequence[int], element: str) -> RegisterUse:
    """Registers one thread spends on a tensor of `shape` x `element` in `layout` (distributed only)."""
    ll = to_linear_layout(layout, shape)
    regs = ll.in_size("register")
    unique = 1 << sum(1 for basis in ll.in_bases("register") if any(basis))
    threads = ll.in_size("lane") * ll.in_size("warp") * ll.in_size("block")
    bits = element_bits(element)
    return RegisterUse(
        shape=tuple(shape),
        element=element,
        elements_per_thread=regs,
        unique_per_thread=unique,
        replication=max(1, regs * threads // _prod(shape)),
        element_bits=bits,
        registers=math.ceil(regs * bits / 32),
    )


def _main_element(uses: Sequence[LayoutUse]) -> str | None:
    """The element type a layout is mostly about: float data first, then pointees, then integers."""
    counts = Counter(u.type.element for u in uses)
    ranked = [element for element, _ in counts.most_common()]
    pointees = [e[8:-1] for e in ranked if e.startswith("!tt.ptr<") and e.endswith(">")]
    for group in (
        [e for e in ranked if e.startswith(("f", "bf"))],
        pointees,
        [e for e in ranked if not e.startswith("!tt.ptr") and e != "i1"],
        ranked,
    ):
        if group:
            return group[0]
    return None


def analyze_layouts(
    text: str, table: LayoutTable | None = None, first_line: int = 1, accesses: Sequence[AccessWidth] = (),
    listing: Listing | None = None,
) -> LayoutReport:
    """Explain every layout of one TTGIR module: meaning, uses, register cost and conversions.

    `first_line` is the line number of the module's first line in its file (for multi-module files).
    `accesses` (from irscope.analysis.layouts.access_widths) add what the machine code does for each global
    access to the explanation of its layout; `listing` (the capture's PTX) adds to each conversion's cost the
    instructions that carry its source position.
    """
    table = table or parse_layouts(text)
    problems = list(table.problems)
    module = parse_module_info(text)
    by_label: dict[str, LayoutInfo] = {}
    for name, layout in table.aliases.items():
        by_label[f"#{name}"] = LayoutInfo(label=f"#{name}", layout=layout, explanation="")
    inline: dict[str, Layout] = {}
    conversions: list[Conversion] = []
    for op in scan_ops(text, first_line):
        for role, types in (("result", op.result_types), ("operand", op.operand_types)):
            for typ in types:
                info = _info_for(typ.encoding, table, by_label, inline, problems)
                if info is not None:
                    info.uses.append(LayoutUse(op.op, op.results, role, typ, op.line, op.loc))
        if op.op.endswith(".convert_layout") and op.operand_types and op.result_types:
            src, dst = op.operand_types[0], op.result_types[0]
            cost = _conversion_cost(by_label.get(src.encoding), by_label.get(dst.encoding), src.shape, src.element)
            if cost is not None and listing is not None:
                cost = replace(cost, machine=machine_evidence(listing, op.loc))
            conversions.append(
                Conversion(op.results[0] if op.results else "", src.encoding, dst.encoding, src.shape, src.element,
                           op.line, op.loc, cost)
            )
    layouts = [_finish(info, problems, accesses) for info in by_label.values()]
    return LayoutReport(module=module, layouts=layouts, conversions=conversions, problems=problems,
                        accesses=list(accesses))


def _conversion_cost(src: LayoutInfo | None, dst: LayoutInfo | None, shape: tuple[int, ...],
                     element: str) -> ConversionCost | None:
    """The cost of one conversion, when both its layouts are known."""
    return conversion_cost(src.layout, dst.layout, shape, element) if src and dst else None


def _info_for(
    encoding: str, table: LayoutTable, by_label: dict[str, LayoutInfo], inline: dict[str, Layout],
    problems: list[str],
) -> LayoutInfo | None:
    """The LayoutInfo collecting uses of one printed encoding, created for inline layouts on first use."""
    if not encoding:
        return None
    if encoding in by_label:
        return by_label[encoding]
    if encoding.startswith("#") and "<" not in encoding and "." not in encoding:  # an alias, not `#gluon.auto_encoding`
        name = encoding[1:]
        if name in table.memory_spaces:
            return None
        problems.append(f"{encoding} is used but not defined")
        by_label[encoding] = LayoutInfo(
            label=encoding, layout=OpaqueLayout(name=name, mnemonic="?", reason="undefined alias"), explanation=""
        )
        return by_label[encoding]
    if encoding not in inline:
        inline[encoding] = parse_layout(encoding, table.aliases, problems)
    by_label[encoding] = LayoutInfo(label=encoding, layout=inline[encoding], explanation="")
    return by_label[encoding]


def _allocation_phrase(uses: Sequence[LayoutUse]) -> str:
    """`; allocated as 3x128x64 fp16 = 48 KiB` for layouts of memory allocated by the module."""
    allocs = {u.type.shape: u.type.element for u in uses if u.op.endswith("local_alloc") and u.role == "result"}
    if not allocs:
        return ""
    parts = []
    for shape, element in allocs.items():
        nbytes = _prod(shape) * element_bits(element) // 8
        size = f"{nbytes // 1024} KiB" if nbytes % 1024 == 0 else f"{nbytes} bytes"
        parts.append(f"{_dims(shape)} {_dtype(element)} = {size}")
    return "; allocated as " + ", ".join(parts)


def _finish(info: LayoutInfo, problems: list[str], machine: Sequence[AccessWidth] = ()) -> LayoutInfo:
    """Fill in the explanation and per-shape register costs once all uses are known."""
    tensor_uses = [u for u in info.uses if u.type.kind == "tensor"]
    accesses = global_accesses((u.op, u.type) for u in info.uses)
    moved = {e for _, e in accesses}
    element = next(iter(moved)) if len(moved) == 1 else _main_element(info.uses) if not moved else None
    shapes = [shape for shape, _ in Counter(u.type.shape for u in info.uses).most_common()]
    main_shape = shapes[0] if shapes and info.layout.distributed else None
    explanation = explain_layout(info.layout, main_shape, element, accesses=accesses)
    explanation += _allocation_phrase(info.uses)
    same = Counter(replace(a, ttgir_line=0) if a.loc else a for a in machine if a.layout == info.label)
    for access, count in same.items():  # a pipelined load's prologue and loop copies read alike
        explanation += "; " + describe_access(access, allowed=False, count=count)
    registers: list[RegisterUse] = []
    if info.layout.distributed:
        seen: set[tuple[tuple[int, ...], str]] = set()
        for use in tensor_uses:
            key = (use.type.shape, use.type.element)
            if key in seen:
                continue
            seen.add(key)
            try:
                registers.append(registers_per_thread(info.layout, use.type.shape, use.type.element))
            except UnsupportedLayout as exc:
                problems.append(f"{info.label} with shape {use.type.shape_text}: {exc}")
    return LayoutInfo(info.label, info.layout, f"{info.label}: {explanation}", info.uses, registers)


def analyze_layout_file(text: str) -> list[LayoutReport]:
    """Analyze each module of a file (lit-test files hold several, separated by `// -----`).

    Line numbers in the reports count from the top of the file.
    """
    reports = []
    consumed = 0
    for chunk in split_modules(text):
        start = text.index(chunk, consumed)
        reports.append(analyze_layouts(chunk, first_line=text.count("\n", 0, start) + 1))
        consumed = start + len(chunk)
    return reports
