"""How wide each global load and store is: what its layout allows, and what the machine code does.

A thread can move its contiguous run of elements (the layout's register bases along the fastest
dim) in one instruction of up to 16 bytes, but the compiler vectorizes only as far as it can prove
the addresses contiguous and aligned (Triton's AxisInfo: `tt.divisibility` of the arguments,
strides, masks). So the width the layout allows is computed here from the element type of the
*pointer* and the layout, and the width used is read from the PTX / AMDGCN instructions that carry
the same source position (line and column) as the TTGIR op.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from irscope.analysis.instructions import access_bytes, canonical_op, classify
from irscope.analysis.layouts.to_linear import UnsupportedLayout, to_linear_layout
from irscope.parse.layouts import LayoutTable, parse_layout, parse_layouts
from irscope.parse.lineinfo import Listing, parse_amdgcn, parse_ptx
from irscope.parse.mlir_locs import innermost_in
from irscope.parse.mlir_ops import MlirModule, MlirOp, parse_module
from irscope.parse.ttgir_ops import SourceLoc, TensorType, element_bits, scan_ops
from irscope.store.store import Capture

__all__ = [
    "AccessWidth", "MachineAccess", "access_widths", "describe_access", "global_accesses", "match_accesses",
    "ttgir_accesses", "vector_phrase",
]

# TTGIR op -> what it does to global memory
_ACCESS_OPS = {
    "tt.load": "load", "tt.store": "store", "amdg.buffer_load": "load", "amdg.buffer_store": "store",
    "ttg.async_copy_global_to_local": "async copy", "amdg.buffer_load_to_local": "async copy",
}
# machine-code instruction classes (irscope.analysis.instructions) that match each TTGIR kind
_MACHINE_KINDS = {"load": ("global_load",), "store": ("global_store",), "async copy": ("async_copy",)}
_MAX_BYTES = 16
# operand positions of the pointer and the mask: tt.load %ptr, %mask, %other / tt.store %ptr, %value, %mask /
# ttg.async_copy_global_to_local %ptr, %smem mask %mask other %other
_ADDRESS_OPERANDS = {"tt.load": (0, 1), "tt.store": (0, 2), "ttg.async_copy_global_to_local": (0, 2)}
# Example: %x = tt.load %ptrs, %mask, %other : tensor<64x!tt.ptr<f16>, #blocked>   (operands before the type)
_OPERANDS = re.compile(r"^(?:%[^=]*=\s*)?[\w.]+\s+(?P<operands>[^:{]*)")
# Example: amdg.buffer_load %x_ptr[%x_9] stride = %s {contiguity = 8 : i32} : ...
_CONTIGUITY = re.compile(r"\bcontiguity\s*=\s*(?P<n>\d+)")
# Example: %stride_xm: i32 {tt.divisibility = 16 : i32} loc("stride_xm"(#loc))     (one tt.func argument)
_ARG = re.compile(r"%(?P<name>[\w$.-]+):\s*(?P<type>!tt\.ptr<[^>]*>|i\d+)(?P<attrs>\s*\{[^}]*\})?")


@dataclass(frozen=True)
class MachineAccess:
    """One global memory instruction of the machine code.

    Attributes:
        number: 1-based line in the PTX or AMDGCN text.
        opcode: the mnemonic with modifiers (`ld.global.v4.b32`, `buffer_load_dwordx4`).
        nbytes: bytes one thread moves with it.
    """

    number: int
    opcode: str
    nbytes: int


@dataclass(frozen=True)
class AccessWidth:
    """One global load, store or async copy of the TTGIR, with the width its layout allows and the one used.

    Attributes:
        op: the TTGIR op (`tt.load`, `amdg.buffer_store`, ...).
        kind: "load", "store" or "async copy".
        ttgir_line: 1-based line of the op in the TTGIR.
        loc: its source position (innermost frame in the kernel's file), or None.
        element: the pointee's element type as printed (`bf16`), read from the pointer operand.
        layout: label of the layout of the accessed tensor (`#blocked1` or inline text).
        shape: the accessed tensor's shape.
        contiguous: elements each thread holds contiguously along the layout's fastest dim.
        allowed_bytes: the widest access that run allows, capped at 16 bytes.
        masked: whether the op has a mask operand.
        compiler_contiguity: the `contiguity` the AMD backend recorded on a buffer op, or None.
        unaligned_args: the kernel's integer and pointer arguments without `tt.divisibility` (not known
            to be multiples of 16) that the access's address or mask depends on.
        stage: `ptx` or `amdgcn` when machine code was read, else "".
        machine: the stage's global memory instructions of the same kind at the same source position.
        same_position: how many accesses of this kind share the source position (a pipelined load's
            prologue and loop copies do; so do two loads of one line in different layouts, which the
            compiler makes of one `tl.load` whose value is used in two layouts); `machine` then holds the
            instructions of all of them, which line info cannot tell apart.
        position_bytes: the widest access any of the accesses at that source position allows (the bound
            on `machine`); 0 until the machine code is matched.
    """

    op: str
    kind: str
    ttgir_line: int
    loc: SourceLoc | None
    element: str
    layout: str
    shape: tuple[int, ...]
    contiguous: int
    allowed_bytes: int
    masked: bool
    compiler_contiguity: int | None
    unaligned_args: tuple[str, ...] = ()
    stage: str = ""
    machine: tuple[MachineAccess, ...] = ()
    same_position: int = 1
    position_bytes: int = 0

    @property
    def machine_bytes(self) -> int | None:
        """The widest instruction the machine code uses for it, or None when none was found."""
        return max((m.nbytes for m in self.machine), default=None)

    @property
    def bound_bytes(self) -> int:
        """The widest instruction the layouts of the accesses at this source position allow."""
        return max(self.allowed_bytes, self.position_bytes)

    @property
    def mixed_position(self) -> bool:
        """Whether accesses allowing different widths share this source position (their instructions mix)."""
        return self.same_position > 1 and self.position_bytes != self.allowed_bytes

    @property
    def agrees(self) -> bool | None:
        """Whether the machine code uses the width the layout allows (None when unknown).

        Unknown too when wider instructions at the source position may belong to another access there
        that allows them (line info names a position, not an op).
        """
        widest = self.machine_bytes
        if widest is None or (self.mixed_position and self.allowed_bytes < widest <= self.bound_bytes):
            return None
        return widest == self.allowed_bytes


def _contiguous(ll_bases: list[tuple[int, ...]]) -> int:
    """How many elements the first register bases walk contiguously (1, 2, 4 ...) along one dim."""
    if not ll_bases or not any(ll_bases[0]):
        return 1
    dim = next(i for i, v in enumerate(ll_bases[0]) if v)
    run = 1
    for basis in ll_bases:
        if basis[dim] != run or any(v for i, v in enumerate(basis) if i != dim):
            break
        run *= 2
    return run


def _accessed(types: tuple[TensorType, ...]) -> tuple[TensorType, str] | None:
    """(the register tensor accessed, the pointee element): a tensor of pointers first, else the data."""
    tensors = [t for t in types if t.kind == "tensor" and t.encoding]
    for typ in tensors:
        if typ.element.startswith("!tt.ptr<") and typ.element.endswith(">"):
            return typ, typ.element[len("!tt.ptr<"):-1]
    return (tensors[0], tensors[0].element) if tensors else None


def _unaligned_args(text: str) -> set[str]:
    """Integer (not i1) and pointer arguments of the kernel's `tt.func` that carry no `tt.divisibility`."""
    for line in text.splitlines():
        if "tt.func" in line and "public" in line:
            return {f"%{m['name']}" for m in _ARG.finditer(line)
                    if m["type"] != "i1" and "tt.divisibility" not in (m["attrs"] or "")}
    return set()


def _address_operands(op: MlirOp) -> list[str]:
    """The operands an access's addresses and mask come from (not the value stored, not `other`)."""
    picks = _ADDRESS_OPERANDS.get(canonical_op(op.name))
    if picks is None:
        return list(op.operands[1:] if canonical_op(op.name) == "amdg.buffer_store" else op.operands)
    return [op.operands[i] for i in picks if i < len(op.operands)]


def _args_feeding(module: MlirModule, index: int) -> set[str]:
    """The kernel arguments the addresses (and mask) of access op `index` depend on, through loops too."""
    func_args = {name for op in module.ops if op.name == "tt.func" for name in op.defines}
    return set(module.arguments_feeding(_address_operands(module.ops[index]), func_args, through_yields=True))


def ttgir_accesses(text: str, kernel_file: str = "", table: LayoutTable | None = None) -> list[AccessWidth]:
    """Every global access of a TTGIR module with the width its layout allows (no machine code yet).

    `kernel_file` picks the source frame for ops inlined from helpers (the innermost frame in that
    file); without it the op's innermost frame is used.
    """
    table = table or parse_layouts(text)
    module = parse_module(text)
    by_line = {op.line: op for op in module.ops}
    unaligned = _unaligned_args(text)
    found: list[AccessWidth] = []
    for op in scan_ops(text):
        kind = _ACCESS_OPS.get(canonical_op(op.op))
        accessed = _accessed(op.result_types + op.operand_types) if kind else None
        if kind is None or accessed is None:
            continue
        typ, element = accessed
        layout = parse_layout(typ.encoding, table.aliases)
        try:
            contiguous = _contiguous(list(to_linear_layout(layout, typ.shape).in_bases("register")))
        except UnsupportedLayout:
            contiguous = 1
        mlir_op = by_line.get(op.line)
        chain = mlir_op.location.frames if mlir_op else ()
        feeding = _args_feeding(module, mlir_op.index) & unaligned if mlir_op else unaligned
        loc = (innermost_in(chain, kernel_file) if kernel_file else None) or (chain[0] if chain else op.loc)
        operands = _OPERANDS.match(op.text)
        count = len([p for p in operands["operands"].split(",") if p.strip()]) if operands else 0
        masked = count > (2 if kind == "store" else 1) if op.op.startswith("tt.") else " mask " in op.text
        contiguity = _CONTIGUITY.search(op.text)
        found.append(AccessWidth(
            op=op.op, kind=kind, ttgir_line=op.line, loc=loc, element=element, layout=typ.encoding,
            shape=typ.shape, contiguous=contiguous,
            allowed_bytes=max(1, min(_MAX_BYTES, contiguous * element_bits(element) // 8)),
            masked=masked, compiler_contiguity=int(contiguity["n"]) if contiguity else None,
            unaligned_args=tuple(sorted(name.lstrip("%") for name in feeding)),
        ))
    return found


def match_accesses(accesses: list[AccessWidth], listing: Listing, kernel_file: str) -> list[AccessWidth]:
    """Attach to each access the machine instructions of its kind at its source line and column."""
    by_position: dict[tuple[str, int, int], list[MachineAccess]] = {}
    for insn in listing.instructions:
        kind = classify(insn.opcode)
        nbytes = access_bytes(insn.opcode, insn.text) if kind else None
        own = innermost_in(insn.frames, kernel_file) if kernel_file else (insn.frames[0] if insn.frames else None)
        if kind is None or nbytes is None or own is None:
            continue
        by_position.setdefault((kind, own.line, own.col), []).append(MachineAccess(insn.number, insn.opcode, nbytes))
    seen: dict[tuple[str, int, int], int] = {}
    widest: dict[tuple[str, int, int], int] = {}
    for access in accesses:
        if access.loc is not None:
            key = (access.kind, access.loc.line, access.loc.col)
            seen[key] = seen.get(key, 0) + 1
            widest[key] = max(widest.get(key, 0), access.allowed_bytes)
    out = []
    for access in accesses:
        machine: list[MachineAccess] = []
        same, bound = 1, access.allowed_bytes
        if access.loc is not None:
            for kind in _MACHINE_KINDS[access.kind]:
                machine += by_position.get((kind, access.loc.line, access.loc.col), [])
            same = seen[(access.kind, access.loc.line, access.loc.col)]
            bound = widest[(access.kind, access.loc.line, access.loc.col)]
        out.append(AccessWidth(**{**access.__dict__, "stage": listing.stage, "machine": tuple(machine),
                                  "same_position": same, "position_bytes": bound}))
    return out


def access_widths(capture: Capture, listing: Listing | None = None) -> list[AccessWidth]:
    """Every global access of a capture: the width its layout allows and the width its PTX / AMDGCN uses.

    ``listing``: the capture's PTX / AMDGCN already parsed by the caller (else it is read and parsed).
    """
    kernel_file = capture.manifest.kernel_path
    text = capture.read("ttgir")
    if listing is None:
        stage = "ptx" if capture.manifest.backend == "cuda" else "amdgcn"
        listing = (parse_ptx if stage == "ptx" else parse_amdgcn)(capture.read(stage))
    return match_accesses(ttgir_accesses(text, kernel_file), listing, kernel_file)


def _dtype(element: str) -> str:
    words = {"f16": "fp16", "bf16": "bf16", "f32": "fp32", "f64": "fp64", "i8": "int8", "i16": "int16",
             "i32": "int32", "i64": "int64"}
    return words.get(element, element)


def describe_access(access: AccessWidth, allowed: bool = True, count: int = 1) -> str:
    """One sentence: the width the layout allows and, when known, what the machine code does.

    With `allowed=False` the sentence leaves out what the layout allows (said elsewhere) unless the
    machine code disagrees with it; `count` > 1 describes that many identical accesses at once.
    """
    where = f"line {access.loc.line}" if access.loc else f"ttgir line {access.ttgir_line}"
    verb = {"load": "loads", "store": "stores", "async copy": "async copies"}[access.kind]
    run = access.contiguous * element_bits(access.element) // 8
    many = f" ({run // access.allowed_bytes} per run)" if run > access.allowed_bytes else ""
    claim = (
        f"{access.contiguous} contiguous {_dtype(access.element)} per thread allow "
        f"{access.allowed_bytes}-byte {verb}{many}"
    )
    head = f"{access.op} at {where}{f' ({count} ops)' if count > 1 else ''}: "
    if not access.stage:
        return head + claim
    stage = access.stage.upper()
    if not access.machine:
        return head + claim + f"; no {stage} instruction of that kind carries this source position"
    widths = sorted({(m.nbytes, m.opcode) for m in access.machine}, reverse=True)
    lines = ", ".join(str(m.number) for m in access.machine[:3]) + (" ..." if len(access.machine) > 3 else "")
    used = (
        f"the {stage} has " + ", ".join(f"{n}-byte `{opcode}`" for n, opcode in widths)
        + f" ({stage} line{'s' if len(access.machine) > 1 else ''} {lines})"
    )
    others = access.same_position - count
    if others > 0:
        noun = {"load": "load", "store": "store", "async copy": "async cop"}[access.kind]
        noun += ("ies" if noun.endswith("cop") else "s") if others > 1 else ("y" if noun.endswith("cop") else "")
        used += f", shared with {others} other {noun} at the same position"
    widest = access.machine_bytes or 0
    if widest == access.allowed_bytes:
        return head + (f"{claim}; {used}" if allowed else used)
    if access.mixed_position and access.allowed_bytes < widest <= access.bound_bytes:
        return head + (f"{claim}; {used}; the layouts of the {verb} at this position allow up to "
                       f"{access.bound_bytes} bytes, and line info names a position, not an op, so which "
                       "instruction is this one's cannot be told")
    if widest > access.allowed_bytes:
        return head + f"{claim}, but {used}, wider than the layout's run"
    return head + f"{claim}, but {used}: {_why_narrower(access)}"


def _why_narrower(access: AccessWidth) -> str:
    """What keeps the compiler from the full width, as far as the TTGIR shows it."""
    reasons = []
    nbytes = element_bits(access.element) // 8
    if access.compiler_contiguity is not None and access.compiler_contiguity * nbytes < access.allowed_bytes:
        reasons.append(f"the compiler proved only {access.compiler_contiguity} contiguous elements")
    if access.unaligned_args:
        names = ", ".join(access.unaligned_args)
        verb = "carries" if len(access.unaligned_args) == 1 else "carry"
        reasons.append(
            f"the addresses are not known to be {access.allowed_bytes}-byte aligned: they depend on {names}, "
            f"which {verb} no tt.divisibility (not known to be a multiple of 16)"
        )
    if access.masked:
        reasons.append("the mask may not be constant over each run")
    if not reasons:
        reasons.append("the compiler could not prove the addresses contiguous and aligned")
    return "; or ".join(reasons)


def global_accesses(uses: Iterable[tuple[str, TensorType]]) -> list[tuple[str, str]]:
    """(kind, element read or written) of the global accesses among (op, type) uses of a layout.

    The element is the pointer's pointee (a bf16 load stays bf16 when its values become fp32); kind is
    "load" (async copies included) or "store".
    """
    found: list[tuple[str, str]] = []
    for op, typ in uses:
        kind = _ACCESS_OPS.get(canonical_op(op))
        if kind is None or typ.kind != "tensor":
            continue
        element = typ.element
        if element.startswith("!tt.ptr<") and element.endswith(">"):
            element = element[len("!tt.ptr<"):-1]
        elif op.startswith(("tt.", "ttg.")):
            continue  # the mask or the value of a tt.load/tt.store: the pointer tensor says what moves
        kind = "load" if kind == "async copy" else kind
        if (kind, element) not in found:
            found.append((kind, element))
    return found


def vector_phrase(contiguous: int, accesses: Sequence[tuple[str, str]]) -> str:
    """` (the layout allows one 16-byte load)`: what a thread's contiguous run allows for each access.

    `accesses` are (kind, element) pairs as global_accesses gives them. Whether the compiler really
    vectorizes that far depends on what it can prove of the addresses (see access_widths).
    """
    parts = []
    elements = {element for _, element in accesses}
    for access, element in dict.fromkeys(accesses):
        nbytes = contiguous * element_bits(element) // 8
        of = f" of {_dtype(element)}" if len(elements) > 1 else ""
        if contiguous < 2 or nbytes < 2:
            continue
        if nbytes <= _MAX_BYTES:
            parts.append(f"one {nbytes}-byte {access}{of}")
        elif nbytes % _MAX_BYTES == 0:
            plural = "es" if access.endswith("s") else "s"
            parts.append(f"{nbytes // _MAX_BYTES} {_MAX_BYTES}-byte {access}{plural}{of}")
    return f" (the layout allows {' and '.join(parts)})" if parts else ""
