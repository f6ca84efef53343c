"""How well each global access of a kernel is coalesced: 32-byte sectors a warp touches per useful byte.

The pointer of every ``tt.load`` / ``tt.store`` / async copy is followed back through the TTGIR's integer
tensor arithmetic as an affine function of the element index (``make_range``, ``splat``, ``expand_dims``,
``broadcast``, ``addi``, ``muli`` by a value known at launch, ``addptr``); the access's blocked layout says
which elements the 32 lanes of a warp hold, so the bytes each lane addresses follow, and from them the
sectors one warp instruction fetches. ``x[i * 16]`` in fp32 touches 32 sectors for 128 useful bytes: 8x the
traffic of a coalesced load. Accesses whose address is not affine (a gather through loaded indices, a
``%`` that wraps) or whose layout is not blocked are reported as not analysed.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from irscope.parse.layout_kinds import BlockedLayout
from irscope.parse.layouts import parse_layouts

__all__ = ["Coalescing", "coalescing"]

# Example: %x_21 = tt.addptr %x_19, %x_20 : tensor<64x64x!tt.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
_DEF = re.compile(r"^\s*(?P<res>%[\w$.-]+)(?::\d+)?\s*=\s*(?P<op>[a-z_]+\.[\w.]+)\s*(?P<rest>.*)$")
# Example: tt.store %6, %x_22 : tensor<64x64x!tt.ptr<f32>, #blocked1>
_STORE = re.compile(r"^\s*tt\.store\s+(?P<ptr>%[\w$.-]+)")
# Example: tensor<128x64x!tt.ptr<f16>, #blocked1>
_PTR_TENSOR = re.compile(r"tensor<(?P<shape>[\dx]+)x!tt\.ptr<(?P<elem>[a-zA-Z]+\d*)>,\s*(?P<layout>#[\w]+)")
# Example: {axis = 1 : i32}
_AXIS = re.compile(r"\baxis\s*=\s*(?P<n>\d+)")
# Example: arith.constant dense<16> : tensor<1024xi32, #blocked>
_DENSE = re.compile(r"^dense<(?P<v>-?\d+)>\s*:\s*tensor")
# Example: arith.constant 64 : i32
_SCALAR_CONST = re.compile(r"^(?P<v>-?\d+)\s*:\s*i\d+")
# Example: iter_args(%a_ptrs_96 = %a_ptrs_58, %b_ptrs_97 = %b_ptrs_59)
_ITER = re.compile(r"(?P<new>%[\w$.-]+)\s*=\s*(?P<old>%[\w$.-]+)")
_OPERAND = re.compile(r"%[\w$.-]+")
_ELEM_BYTES = {"f16": 2, "bf16": 2, "f32": 4, "f64": 8, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "i1": 1,
               "f8E4M3FN": 1, "f8E5M2": 1}
_PASS_THROUGH = frozenset({"arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast", "ttg.convert_layout",
                           "arith.remsi", "arith.remui", "tt.broadcast"})


@dataclass(frozen=True)
class Coalescing:
    """One global access and how many sectors a warp instruction of it fetches.

    Attributes:
        line: TTGIR line of the access; ``op`` its op name.
        element_bytes: the pointee's size; ``vector_bytes`` what one lane moves per instruction.
        sectors: 32-byte sectors one warp instruction touches (warp 0, first register).
        useful_bytes: distinct bytes the warp asks for in that instruction.
        factor: DRAM bytes per useful byte over all the elements warp 0 holds (all its registers, whose sectors
            the L1 and L2 share): ``warp_segments * 64 / warp_bytes`` (1 = coalesced, >= 1).
        tensor_bytes: bytes of the whole access (the pointer tensor's elements times the element size).
        segments: 64-byte DRAM segments the warp instruction touches (HBM moves 64 bytes per access).
        lines: 128-byte lines it touches (one L2 request each).
        note: how the lanes' addresses step, in words, or why the access was not analysed.
        warp_sectors / warp_segments / warp_bytes: sectors, segments and distinct bytes of every element warp 0
            holds in one layout tile (``size_per_thread`` x ``threads_per_warp``), all its registers together.
        segment_step: the median address step between those segments, in bytes (64 when they are neighbours).
    """

    line: int
    op: str
    element_bytes: int
    vector_bytes: int
    sectors: int
    useful_bytes: int
    factor: float
    tensor_bytes: int
    note: str
    segments: int = 0
    lines: int = 0
    warp_sectors: int = 0
    warp_segments: int = 0
    warp_bytes: int = 0
    segment_step: int = 0


_Form = tuple[dict[int, int] | None, int | None]  # (coefficient per dim in elements/bytes, known uniform value)


def _numel(shape: list[int]) -> int:
    total = 1
    for size in shape:
        total *= size
    return total


def _operands(rest: str) -> list[str]:
    head = re.sub(r"\{[^}]*\}", "", rest.split(" : ", 1)[0])
    return _OPERAND.findall(head)


def _combine(op: str, a: _Form, b: _Form) -> _Form:
    (ca, va), (cb, vb) = a, b
    if ca is None or cb is None:
        return None, None
    if op in ("arith.addi", "arith.subi"):
        sign = 1 if op == "arith.addi" else -1
        coefs = dict(ca)
        for d, c in cb.items():
            coefs[d] = coefs.get(d, 0) + sign * c
        value = (va + sign * vb) if va is not None and vb is not None and not ca and not cb else None
        return coefs, value
    if op == "arith.muli":
        if not ca and va is not None:
            return {d: c * va for d, c in cb.items()}, (va * vb if vb is not None and not cb else None)
        if not cb and vb is not None:
            return {d: c * vb for d, c in ca.items()}, None
        return None, None
    if op == "arith.divsi" and not cb and vb and all(c % vb == 0 for c in ca.values()):
        return {d: c // vb for d, c in ca.items()}, (va // vb if va is not None and not ca else None)
    return None, None


def _lanes(layout: BlockedLayout, shape: list[int]) -> tuple[list[list[int]], int]:
    """Coordinates of the first element each lane of warp 0 holds, and the contiguous elements along the fastest dim."""
    coords = []
    for lane in range(32):
        rest = lane
        coord = [0] * len(shape)
        for dim in layout.order:
            tpw = layout.threads_per_warp[dim]
            coord[dim] = ((rest % tpw) * layout.size_per_thread[dim]) % max(1, shape[dim])
            rest //= tpw
        coords.append(coord)
    fastest = layout.order[0]
    return coords, min(layout.size_per_thread[fastest], shape[fastest])


def _sectors(coefs: dict[int, int], layout: BlockedLayout, shape: list[int], elem: int) -> tuple[int, int, int, str]:
    coords, run = _lanes(layout, shape)
    fastest = layout.order[0]
    contiguous = coefs.get(fastest, 0) == elem
    vector = min(16, run * elem) if contiguous else elem
    addresses = {sum(coefs.get(d, 0) * c for d, c in enumerate(coord)) for coord in coords}
    sectors: set[int] = set()
    for address in addresses:
        sectors.update(range((address // 32), ((address + vector - 1) // 32) + 1))
    steps = ", ".join(f"dim {d}: {c} B" for d, c in sorted(coefs.items()) if c)
    return len(sectors), len(addresses) * vector, vector, f"bytes per index step: {steps or 'none (one address)'}"


def _spans(coefs: dict[int, int], layout: BlockedLayout, shape: list[int], elem: int, size: int) -> int:
    """Distinct ``size``-byte blocks one warp instruction touches."""
    coords, run = _lanes(layout, shape)
    vector = min(16, run * elem) if coefs.get(layout.order[0], 0) == elem else elem
    blocks: set[int] = set()
    for coord in coords:
        address = sum(coefs.get(d, 0) * c for d, c in enumerate(coord))
        blocks.update(range(address // size, (address + vector - 1) // size + 1))
    return len(blocks)


def _footprint(coefs: dict[int, int], layout: BlockedLayout, shape: list[int], elem: int) -> tuple[int, int, int, int]:
    """Sectors, 64-byte segments, distinct bytes and the median segment step of what warp 0 holds in one tile."""
    coords, _run = _lanes(layout, shape)
    ranges = [range(min(layout.size_per_thread[d], max(1, shape[d]))) for d in range(len(shape))]
    starts: set[int] = set()
    for coord in coords:
        for offset in itertools.product(*ranges):
            starts.add(sum(coefs.get(d, 0) * ((c + o) % max(1, shape[d]))
                           for d, (c, o) in enumerate(zip(coord, offset, strict=True))))
    sectors = {b for a in starts for b in range(a // 32, (a + elem - 1) // 32 + 1)}
    segments = {b for a in starts for b in range(a // 64, (a + elem - 1) // 64 + 1)}
    ordered = sorted(segments)
    steps = sorted(b - a for a, b in itertools.pairwise(ordered))
    step = steps[len(steps) // 2] * 64 if steps else 64
    return len(sectors), len(segments), len(starts) * elem, step


def coalescing(ttgir: str, scalars: dict[str, int]) -> list[Coalescing]:
    """Every global access of the module with its sectors per warp instruction; ``scalars``: known SSA values."""
    table = parse_layouts(ttgir)
    forms: dict[str, _Form] = {}
    found: list[Coalescing] = []
    for number, text in enumerate(ttgir.splitlines(), 1):
        if "iter_args(" in text:
            inner = text.split("iter_args(", 1)[1].split(")", 1)[0]
            for pair in _ITER.finditer(inner):
                if pair["old"] in forms:
                    forms[pair["new"]] = forms[pair["old"]]
        store = _STORE.match(text)
        match = _DEF.match(text)
        op, rest = (match["op"], match["rest"]) if match else ("tt.store", text.split("tt.store", 1)[-1])
        if match is None and store is None:
            continue
        operands = _operands(rest)
        if op in ("tt.load", "tt.store", "ttg.async_copy_global_to_local"):
            pointer = store["ptr"] if store else (operands[0] if operands else "")
            tensor = _PTR_TENSOR.search(text)
            if tensor is None:
                continue
            shape = [int(s) for s in tensor["shape"].split("x")]
            elem = _ELEM_BYTES.get(tensor["elem"], 4)
            size = elem * _numel(shape)
            layout = table.get(tensor["layout"])
            coefs = forms.get(pointer, (None, None))[0]
            if not isinstance(layout, BlockedLayout) or coefs is None or len(layout.order) != len(shape):
                why = ("its layout is not blocked" if not isinstance(layout, BlockedLayout)
                       else "its address is not an affine function of the index (a gather, or a wrap-around %)")
                found.append(Coalescing(number, op, elem, elem, 0, 0, 1.0, size, f"not analysed: {why}"))
            else:
                sectors, useful, vector, note = _sectors(coefs, layout, shape, elem)
                segments = _spans(coefs, layout, shape, elem, 64)
                warp_sectors, warp_segments, warp_bytes, step = _footprint(coefs, layout, shape, elem)
                factor = max(1.0, warp_segments * 64 / warp_bytes) if warp_bytes else 1.0
                found.append(Coalescing(number, op, elem, vector, sectors, useful, factor, size, note, segments,
                                        _spans(coefs, layout, shape, elem, 128), warp_sectors, warp_segments,
                                        warp_bytes, step))
        if match is None:
            continue
        res = match["res"]
        if op == "tt.make_range":
            forms[res] = ({0: 1}, None)
        elif op == "arith.constant":
            dense = _DENSE.match(rest)
            if dense:
                forms[res] = ({}, int(dense["v"]))
            elif (scalar := _SCALAR_CONST.match(rest)) is not None:
                forms[res] = ({}, int(scalar["v"]))
        elif op == "tt.splat" and operands:
            forms[res] = ({}, scalars.get(operands[0]))
        elif op == "tt.expand_dims" and operands and (axis := _AXIS.search(rest)) is not None:
            coefs, known = forms.get(operands[0], (None, None))
            a = int(axis["n"])
            forms[res] = (None if coefs is None else {(d + 1 if d >= a else d): c for d, c in coefs.items()}, known)
        elif op in _PASS_THROUGH and operands:
            forms[res] = forms.get(operands[0], (None, None))
        elif op in ("arith.addi", "arith.subi", "arith.muli", "arith.divsi") and len(operands) == 2:
            forms[res] = _combine(op, forms.get(operands[0], (None, None)), forms.get(operands[1], (None, None)))
        elif op == "tt.addptr" and len(operands) == 2:
            tensor = _PTR_TENSOR.search(text)
            elem = _ELEM_BYTES.get(tensor["elem"], 4) if tensor else 1
            base, offset = forms.get(operands[0], (None, None)), forms.get(operands[1], (None, None))
            if base[0] is None or offset[0] is None:
                forms[res] = (None, None)
            else:
                coefs = dict(base[0])
                for d, c in offset[0].items():
                    coefs[d] = coefs.get(d, 0) + c * elem
                forms[res] = (coefs, None)
    return found
