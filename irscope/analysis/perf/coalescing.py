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
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from irscope.parse.layout_kinds import BlockedLayout
from irscope.parse.layouts import parse_layouts

__all__ = ["Coalescing", "Gather", "coalescing", "gather_dram_sectors"]

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
# Example: %x_ptr: !tt.ptr<f16> {tt.divisibility = 16 : i32} loc("x_ptr"(#loc))
_PTR_ARG = re.compile(r"%(?P<name>[\w$.-]+):\s*!tt\.ptr<")
# Example: %idx_5 = tt.load %idx_4, %mask : tensor<128x!tt.ptr<i64>, #blocked>
_INT_LOAD = re.compile(r"tensor<[\dx]+x!tt\.ptr<i(?:8|16|32|64)>")
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
        gather: for an access whose address holds a loaded index, how its traffic was counted, else None.
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
    gather: Gather | None = None


@dataclass(frozen=True)
class Gather:
    """A load or store whose address holds values loaded from memory (``x[idx]``: an index tensor, a block table).

    Each distinct index of a warp's elements is taken to address its own 32-byte sectors (the indices are data:
    nothing says two are near), and a sector is what the L2 fetches from DRAM; elements that share an index and
    differ along the other dims are contiguous as the affine part of the address says. The sectors requested over
    the launch hit the L2 as far as it holds the gathered tensor: of ``n`` random sector requests into a tensor of
    ``S`` sectors, ``S (1 - e^(-n/S))`` are distinct (each fetched from DRAM once when the tensor fits the L2), and
    of the repeats the share the L2 cannot hold (``1 - L2 / tensor``) misses again. Locality the indices may have
    (a row of a ``torch.gather``, sorted tokens) is not known without their contents: then fewer miss.

    Attributes:
        dims: the tile dims along which the loaded index varies.
        tensor: the gathered tensor's parameter, or "" when it was not traced to one.
        tensor_bytes: its size, or 0 when the launch did not say.
        requested_sectors: 32-byte sectors the launch requests through this access (all CTAs, once each access).
        dram_sectors: of those, the ones expected to come from DRAM.
        bound: ``exact`` when the tensor's size was known, ``upper`` when every request was assumed to miss.
        useful_bytes: the bytes the launch asks for through this access (all CTAs).
    """

    dims: tuple[int, ...]
    tensor: str
    tensor_bytes: int
    requested_sectors: float
    dram_sectors: float
    bound: str
    useful_bytes: float = 0.0


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


_APART = 1 << 40  # a gathered index's stand-in step: each distinct index lands in segments of its own


def _footprint(coefs: dict[int, int], layout: BlockedLayout, shape: list[int], elem: int,
               gathered: dict[int, int] | None = None) -> tuple[int, int, int, int]:
    """Sectors, 64-byte segments, distinct bytes and the median segment step of what warp 0 holds in one tile;
    ``gathered``: dims along which a loaded index moves the address to a place of its own, each with how many
    neighbouring elements share one index (1: each its own; 64: Inductor's ``table[ids[x // 64]]`` rows)."""
    gathered = gathered or {}
    coords, _run = _lanes(layout, shape)
    ranges = [range(min(layout.size_per_thread[d], max(1, shape[d]))) for d in range(len(shape))]
    starts: set[int] = set()
    keys: dict[tuple[int, ...], int] = {}
    for coord in coords:
        for offset in itertools.product(*ranges):
            at = [(c + o) % max(1, shape[d]) for d, (c, o) in enumerate(zip(coord, offset, strict=True))]
            key = keys.setdefault(tuple(at[d] // run for d, run in sorted(gathered.items())), len(keys)) \
                if gathered else 0
            # within a run of elements sharing one index the affine rest still moves the address (``x % 64`` of
            # an embedding row); the index itself sets the run's place, _APART from any other index's
            starts.add(key * _APART + sum(coefs.get(d, 0) * a for d, a in enumerate(at) if gathered.get(d, 0) != 1))
    sectors = {b for a in starts for b in range(a // 32, (a + elem - 1) // 32 + 1)}
    segments = {b for a in starts for b in range(a // 64, (a + elem - 1) // 64 + 1)}
    ordered = sorted(segments)
    steps = sorted(b - a for a, b in itertools.pairwise(ordered))
    step = steps[len(steps) // 2] * 64 if steps else 64
    return len(sectors), len(segments), len(starts) * elem, step


def coalescing(ttgir: str, scalars: dict[str, int], tensor_bytes: Mapping[str, int] | None = None,
               l2_bytes: int = 0, programs: int = 1) -> list[Coalescing]:
    """Every global access of the module with its sectors per warp instruction; ``scalars``: known SSA values;
    ``tensor_bytes`` (by parameter), ``l2_bytes`` and ``programs`` (CTAs running the accesses): for gathers."""
    table = parse_layouts(ttgir)
    forms: dict[str, _Form] = {}
    found: list[Coalescing] = []
    gathered: dict[str, dict[int, int]] = {}  # values holding a loaded index: dim -> elements sharing one index
    runs: dict[str, dict[int, int]] = {}  # ``x // C`` over a tile longer than C: dim -> elements per value
    bases: dict[str, str] = {}  # pointer values -> the parameter they point into
    header = next((line for line in ttgir.splitlines() if "tt.func" in line), "")
    for arg in _PTR_ARG.finditer(header):
        bases[f"%{arg['name']}"] = arg["name"]
    sizes = dict(tensor_bytes or {})
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
            dims = gathered.get(pointer, {})
            if isinstance(layout, BlockedLayout) and coefs is not None and len(layout.order) == len(shape) and dims:
                found.append(_gather(number, op, elem, size, coefs, layout, shape, dims, bases.get(pointer, ""),
                                     sizes, l2_bytes, programs))
            elif not isinstance(layout, BlockedLayout) or coefs is None or len(layout.order) != len(shape):
                why = ("its layout is not blocked" if not isinstance(layout, BlockedLayout)
                       else "its address is not an affine function of the index (a wrap-around %, or an index "
                            "computed in a way irscope does not follow)")
                found.append(Coalescing(number, op, elem, elem, 0, 0, 1.0, size, f"not analysed: {why}"))
            else:
                sectors, useful, vector, note = _sectors(coefs, layout, shape, elem)
                segments = _spans(coefs, layout, shape, elem, 64)
                warp_sectors, warp_segments, warp_bytes, step = _footprint(coefs, layout, shape, elem)
                factor = max(1.0, warp_segments * 64 / warp_bytes) if warp_bytes else 1.0
                if not any(coefs.values()):  # every element the same address: one element's bytes, a broadcast
                    factor, size, note = 1.0, elem, "one address for the whole tile (a broadcast)"
                factor, note = _resident(factor, note, bases.get(pointer, ""), sizes, l2_bytes, size * max(1, programs))
                found.append(Coalescing(number, op, elem, vector, sectors, useful, factor, size, note, segments,
                                        _spans(coefs, layout, shape, elem, 128), warp_sectors, warp_segments,
                                        warp_bytes, step))
        if match is None:
            continue
        res = match["res"]
        _track(op, res, operands, text, forms, gathered, bases, runs)
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
            if op == "arith.divsi" and forms[res][0] is None:
                forms[res], found_runs = _quotient(forms.get(operands[0], (None, None)),
                                                   forms.get(operands[1], (None, None)), text)
                if found_runs:
                    runs[res] = found_runs
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


def _resident(factor: float, note: str, tensor: str, sizes: Mapping[str, int], l2_bytes: int,
              useful: float) -> tuple[float, str]:
    """An uncoalesced access into a tensor the L2 holds whole fetches each of the tensor's sectors from DRAM at most
    once: a sector one warp fetches and does not use is there for the warps that use it (the rotary tables of a
    Llama, read by every CTA), so the access moves at most the tensor's bytes however its lanes step. ``useful``:
    the bytes the launch asks for through it (all CTAs)."""
    total = sizes.get(tensor, 0)
    if factor <= 1.0 or not total or not l2_bytes or total > l2_bytes or useful <= 0:
        return factor, note
    capped = max(1.0, min(factor, total / useful))
    if capped >= factor:
        return factor, note
    return capped, (f"{note}; {tensor} ({total / 2**20:.2f} MiB) fits the L2, so its sectors come from DRAM at most "
                    f"once: {capped:.1f}x the useful bytes, not {factor:.0f}x")


def gather_dram_sectors(requested: float, tensor_bytes: int, l2_bytes: int) -> float:
    """DRAM sectors of ``requested`` random 32-byte sector requests into a tensor of ``tensor_bytes`` (see Gather)."""
    if tensor_bytes <= 0 or l2_bytes <= 0:
        return requested
    total = max(1.0, tensor_bytes / 32)
    distinct = total * -math.expm1(-requested / total)
    return distinct + (requested - distinct) * max(0.0, 1.0 - l2_bytes / tensor_bytes)


def _track(op: str, res: str, operands: list[str], text: str, forms: dict[str, _Form],
           gathered: dict[str, dict[int, int]], bases: dict[str, str], runs: dict[str, dict[int, int]]) -> None:
    """Follow loaded indices (the dims they vary along) and pointers' parameters through one op."""
    if op == "tt.load" and operands and _INT_LOAD.search(text):
        coefs = forms.get(operands[0], (None, None))[0]
        shape = _PTR_TENSOR.search(text)
        rank = len(shape["shape"].split("x")) if shape else 1
        varying = {d: 1 for d, c in coefs.items() if c} if coefs is not None else dict.fromkeys(range(rank), 1)
        varying.update({d: run for d, run in runs.get(operands[0], {}).items() if d not in varying})
        if varying:
            gathered[res] = varying
        # the index's own value is data: an address computed from it keeps only its affine rest; one index for the
        # whole tile (a page of a block table, Inductor's ``xindex // 1024`` row) moves the tile, it does not scatter it
        forms[res] = ({}, None)
        return
    for table in (gathered, runs):
        ins = [table[o] for o in operands if o in table]
        if not ins:
            continue
        if op == "tt.expand_dims" and (axis := _AXIS.search(text)) is not None:
            a = int(axis["n"])
            table[res] = {d + 1 if d >= a else d: run for d, run in ins[0].items()}
        elif op in _PASS_THROUGH or op in ("arith.addi", "arith.subi", "arith.muli", "tt.addptr", "tt.splat",
                                           "arith.select"):
            merged: dict[int, int] = {}
            for found in ins:
                for d, run in found.items():
                    merged[d] = min(run, merged.get(d, run))
            table[res] = merged
    if op == "arith.select" and len(operands) == 3:  # Inductor's wrap of a negative index: ``where(i < 0, i + n, i)``
        left, right = forms.get(operands[1], (None, None))[0], forms.get(operands[2], (None, None))[0]
        forms[res] = (left, None) if left is not None and left == right else (None, None)
    if operands and operands[0] in bases and op in ("tt.splat", "tt.addptr", "tt.broadcast", "tt.expand_dims",
                                                    "ttg.convert_layout"):
        bases[res] = bases[operands[0]]


def _gather(number: int, op: str, elem: int, size: int, coefs: dict[int, int], layout: BlockedLayout,
            shape: list[int], dims: dict[int, int], tensor: str, sizes: dict[str, int], l2_bytes: int,
            programs: int) -> Coalescing:
    """A gathered access: segments per warp with each distinct index apart, and the DRAM share the L2 leaves."""
    warp_sectors, warp_segments, warp_bytes, step = _footprint(coefs, layout, shape, elem, dims)
    requested = warp_sectors * (size / warp_bytes) * max(1, programs) if warp_bytes else 0.0
    total = sizes.get(tensor, 0)
    dram = gather_dram_sectors(requested, total, l2_bytes)
    useful = size * max(1, programs)
    factor = max(1.0, dram * 32 / useful) if useful else 1.0
    where = f"{tensor} ({total / 2**20:.1f} MiB)" if total else (tensor or "a tensor irscope did not trace")
    shared = "".join(f" ({run} elements share one along dim {d})" for d, run in sorted(dims.items()) if run > 1)
    note = (f"a gather through loaded indices along dim(s) {', '.join(map(str, sorted(dims)))}{shared}: "
            "each distinct index "
            f"its own 32-byte sectors, {warp_sectors} per warp tile for {warp_bytes} useful bytes; of the "
            f"{requested:.3g} sectors requested from {where}, {dram:.3g} expected from DRAM (the L2 holding "
            f"{min(1.0, l2_bytes / total) if total else 0:.0%} of it)"
            + ("" if total else " (its size unknown: every request counted as a miss, an upper bound)"))
    return Coalescing(number, op, elem, elem, warp_sectors, warp_bytes, factor, size, note, warp_segments,
                      warp_segments, warp_sectors, warp_segments, warp_bytes, step,
                      Gather(tuple(sorted(dims)), tensor, total, requested, dram, "exact" if total else "upper",
                             useful))


# Example: %x1 = arith.divsi %xindex, %cst_1 : tensor<1024xi32, #blocked> loc(#loc5)
_RESULT_SHAPE = re.compile(r":\s*tensor<(?P<shape>[\dx]+)x[a-z]")


def _quotient(a: _Form, b: _Form, text: str) -> tuple[_Form, dict[int, int]]:
    """``x // C`` of an index that steps ``c`` per element: over a tile whose extent along that dim times ``c`` is at
    most ``C``, one value across the tile (Inductor's row of a flat index, ``xindex // 1024``), as ``x % C`` is ``x``
    (a tile starting at a multiple of ``C``, as Inductor's blocks of a power-of-two row do); over a longer tile, one
    value per run of ``C / c`` elements (the runs, by dim, second)."""
    (ca, _va), (cb, vb) = a, b
    shape = _RESULT_SHAPE.search(text)
    if ca is None or cb or not vb or shape is None:
        return (None, None), {}
    dims = [int(d) for d in shape["shape"].split("x")]
    if not all(c >= 0 and d < len(dims) for d, c in ca.items()):
        return (None, None), {}
    if all(c * dims[d] <= vb for d, c in ca.items()):
        return ({}, None), {}
    if all(c and vb % c == 0 for c in ca.values()):
        return ({}, None), {d: vb // c for d, c in ca.items() if c * dims[d] > vb}
    return (None, None), {}
