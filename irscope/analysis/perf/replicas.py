"""Global loads whose layout gives the same element to several threads: the copies are L1/L2 hits, not DRAM reads.

A ``tt.load`` of a ``#ttg.slice<{dim = d, parent = #blocked}>`` tensor is issued by every thread of the parent
layout, and the ``threads_per_warp[d] x warps_per_cta[d]`` threads along the sliced dim ask for the same addresses
in the same instruction (fla's chunk_gla intra_sub_intra loads a 128-element row of k and g in a slice of a
``[2, 16] x [8, 1]`` layout: 16 copies). A blocked layout whose CTA tile is larger than the tensor wraps it and
replicates likewise. A scalar ``tt.load`` (of one ``!tt.ptr<T>``, not a tensor of them: a sequence length, an
expert's count) is issued by every thread of the CTA for the same address. The PTX counts every thread's bytes; the
DRAM moves each element once.
"""

from __future__ import annotations

import re

from irscope.parse.layout_kinds import BlockedLayout
from irscope.parse.layouts import parse_layouts

__all__ = ["replicated_loads"]

# Example: %b_k = tt.load %p_k_65, %m_k : tensor<128x!tt.ptr<bf16>, #ttg.slice<{dim = 0, parent = #blocked1}>>
_LOAD = re.compile(r"=\s*tt\.load\s.*:\s*tensor<(?P<shape>[\dx]+)x!tt\.ptr<(?P<elem>\w+)>,\s*"
                   r"(?:#ttg\.slice<\{dim\s*=\s*(?P<dim>\d+),\s*parent\s*=\s*(?P<parent>#\w+)\}>|(?P<layout>#\w+))")
# Example: %seq_len_5 = tt.load %seq_len : !tt.ptr<i32> loc(#loc68)
_SCALAR_LOAD = re.compile(r"=\s*tt\.load\s[^:]*:\s*!tt\.ptr<(?P<elem>\w+)>\s*(?:loc|$)")
_WARPS = re.compile(r'"ttg\.num-warps"\s*=\s*(\d+)')
_LANES = re.compile(r'"ttg\.threads-per-warp"\s*=\s*(\d+)')
_BYTES = {"f64": 8, "i64": 8, "f32": 4, "i32": 4, "f16": 2, "bf16": 2, "i16": 2}


def _wrap(layout: BlockedLayout, shape: list[int], dims: list[int]) -> int:
    """How many times the layout's CTA tile covers each element along ``dims`` (1 when the tensor is larger)."""
    copies = 1
    for axis, d in enumerate(dims):
        tile = layout.size_per_thread[d] * layout.threads_per_warp[d] * layout.warps_per_cta[d]
        copies *= max(1, tile // max(1, shape[axis]))
    return copies


def replicated_loads(ttgir: str) -> dict[int, float]:
    """Per TTGIR line of a global load with replicated elements: the bytes beyond one copy of each, per execution."""
    table = parse_layouts(ttgir)
    found: dict[int, float] = {}
    warps, lanes = _WARPS.search(ttgir), _LANES.search(ttgir)
    threads = int(warps[1]) * int(lanes[1]) if warps and lanes else 0
    for number, line in enumerate(ttgir.splitlines(), 1):
        match = _LOAD.search(line)
        if match is None:
            if threads > 1 and (scalar := _SCALAR_LOAD.search(line)) is not None:
                elem = scalar["elem"]
                size = 1 if elem.startswith("f8") or elem in ("i8", "i1") else _BYTES.get(elem, 4)
                found[number] = float(size * (threads - 1))
            continue
        shape = [int(s) for s in match["shape"].split("x")]
        elem = 1 if match["elem"].startswith("f8") or match["elem"] in ("i8", "i1") else _BYTES.get(match["elem"], 4)
        parent = table.get(match["parent"] or match["layout"])
        if not isinstance(parent, BlockedLayout):
            continue
        if match["dim"] is not None:
            d = int(match["dim"])
            if len(parent.size_per_thread) != len(shape) + 1:
                continue
            rest = [i for i in range(len(parent.size_per_thread)) if i != d]
            copies = parent.threads_per_warp[d] * parent.warps_per_cta[d] * _wrap(parent, shape, rest)
        elif len(parent.size_per_thread) == len(shape):
            copies = _wrap(parent, shape, list(range(len(shape))))
        else:
            continue
        if copies > 1:
            elements = 1
            for s in shape:
                elements *= s
            found[number] = float(elements * elem * (copies - 1))
    return found
