"""A persistent grid's L2 footprint per round, from the tile order its TTIR computes.

A persistent kernel walks its output tiles in an ``scf.for`` whose lower bound is the program id and whose step is
the grid (the tutorial persistent matmul: ``for tile_id in range(start_pid, num_tiles, NUM_SMS)``). Round ``r`` is
the ``r``-th trip of every CTA: those tiles run at the same time. For each ``tt.load`` in the loop the scalars
splatted into its address (``start_m`` for A's row panel, ``start_n`` for B's column panel) are evaluated per tile
with the launch's arguments: equal values are the same panel. Within a round the CTAs walk their inner loop in step,
so a panel several tiles share is read from DRAM once; a panel the previous round read as well is still in the L2
only when what the round read in between fits the share of the L2 that data every SM reads can use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from irscope.analysis.perf.work import run_scalars, scalar_program_parts

__all__ = ["SHARED_L2_SHARE", "PanelTraffic", "descriptor_args", "panel_traffic", "wave_traffic"]

# The H100/H200 (and A100) L2 is two partitions, each caching for the SMs of the GPCs wired to it (NVIDIA's A100
# and H100 whitepapers): a line every SM reads is held in both, so data the whole grid shares can use about half
# the L2. Measured on the H200 (benchmarks/l2_shared_share.py, 2026-12-02, tests/data/perf_foreign/
# l2_shared_h200.json): a buffer every SM reads twice stays in the L2 up to 32.1 MiB of its 60 MiB, 0.536.
SHARED_L2_SHARE = 0.54
# Tiles evaluated at most (a persistent grid's trips over all CTAs); more and the model is not applied
_MAX_TILES = 65536

# Example: %a_71 = tt.load %a_ptrs_58, %a_70, %cst_1 : tensor<128x64x!tt.ptr<f16>> loc(#loc122)
_LOAD = re.compile(r"=\s*tt\.load\s+(?P<ptr>%[\w$.-]+).*?:\s*tensor<(?P<shape>[\dx]+)x!tt\.ptr<(?P<elem>\w+)>>")
# Example: %offs_am_12 = tt.splat %start_m : i32 -> tensor<128xi32>
# Example: %a = tt.descriptor_load %a_desc[%offset_am, %offset_ak] : !tt.tensordesc<tensor<128x64xbf16>> -> ...
_DESC = re.compile(r"tt\.descriptor_(?P<op>load|store)\s+%[\w$.-]+\[(?P<index>[^\]]*)\].*?"
                   r"!tt\.tensordesc<tensor<(?P<shape>[\dx]+)x(?P<elem>\w+)>>")
_SPLAT = re.compile(r"^\s*(?P<res>%[\w$.-]+)\s*=\s*tt\.splat\s+(?P<a>%[\w$.-]+)\s*:\s*i\d+\b")
# Example: %a_ptrs_56 = arith.addi %a_ptrs_54, %a_ptrs_55 : tensor<128x64xi32>
_DEF = re.compile(r"^\s*(?P<res>%[\w$.-]+)(?::\d+)?\s*=\s*(?P<rest>.*)$")
_FOR = re.compile(r"scf\.for\s+(?P<iv>%[\w$.-]+)\s*=\s*(?P<lb>%[\w$.-]+)\s+to\s+(?P<ub>%[\w$.-]+)"
                  r"\s+step\s+(?P<st>%[\w$.-]+)")
# Example: scf.for %start_n = %c0_i32 to %N_CTX step %c64_i32 iter_args(%acc_28 = %cst, %offsetkv_y_31 = %offset_y_17)
_ITER_ARGS = re.compile(r"iter_args\((?P<args>[^)]*)\)")
_ITER_ARG = re.compile(r"(%[\w$.-]+)\s*=\s*(%[\w$.-]+)")
_BITS = {"f64": 64, "i64": 64, "f32": 32, "i32": 32, "tf32": 32, "f16": 16, "bf16": 16, "i16": 16}


@dataclass(frozen=True)
class PanelTraffic:
    """The DRAM bytes the loads of a persistent grid's tile loop move, round by round, and how they were found."""

    dram_bytes: float
    rounds: int
    footprint_bytes: float
    why: str
    store_bytes: float = 0.0
    requested_bytes: float = 0.0  # what the loads ask for over the grid (wave_traffic: the descriptor loads)
    descriptors: tuple[str, ...] = ()  # the descriptor arguments whose traffic this is (wave_traffic)


def _span(lines: list[str], start: int) -> int:
    """The index of the line closing the block opened on line ``start`` (by indentation)."""
    indent = len(lines[start]) - len(lines[start].lstrip())
    for j in range(start + 1, len(lines)):
        text = lines[j]
        if text.strip().startswith("}") and len(text) - len(text.lstrip()) == indent:
            return j
    return len(lines) - 1


def _elem_bytes(elem: str) -> float:
    if elem.startswith("f8") or elem in ("i8", "i1"):
        return 1.0
    return _BITS.get(elem, 32) / 8


def _splatted(ptr: str, defs: dict[str, str], splats: dict[str, str]) -> list[str]:
    """The scalars splatted into the address ``ptr`` derives from (followed back through its defining ops)."""
    seen, todo, found = set(), [ptr], []
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in splats:
            found.append(splats[name])
        elif name in defs:
            todo.extend(re.findall(r"%[\w$.-]+", defs[name].split(" : ")[0]))
    return sorted(found)


def panel_traffic(ttir: str, values: dict[str, int], grid: tuple[int, int, int], l2_bytes: int
                  ) -> PanelTraffic | None:
    """The loads' DRAM bytes of a grid-strided tile loop, by the panels each round's tiles touch; None if none."""
    lines = ttir.splitlines()
    ops, _loops, args = scalar_program_parts(ttir)
    env = {f"%{name}": int(values[name]) for name in args if name in values}
    ctas = grid[0] * grid[1] * grid[2]
    if not ctas or ctas > 4096:
        return None
    first = _run_prefix(ops, env, ctas, grid)
    for i, line in enumerate(lines):
        match = _FOR.search(line)
        if match is None:
            continue
        end = _span(lines, i)
        body = lines[i + 1:end]
        if not any("load" in b for b in body) or not any("scf.for" in b for b in body):
            continue
        lows = [run.get(match["lb"]) for run in first[:2]]
        if len(lows) < 2 or None in lows or lows[0] == lows[1]:
            continue  # not strided over the grid by program id
        loads = _loads(lines, i + 1, end)
        tiles: list[list[int]] = []
        for run in first:
            lb, ub, st = (run.get(match[k]) for k in ("lb", "ub", "st"))
            if lb is None or ub is None or st is None or st <= 0:
                return None
            tiles.append(list(range(lb, ub, st)))
        if not loads or sum(len(t) for t in tiles) > _MAX_TILES:
            return None
        body_ops, _l, _a = scalar_program_parts("\n".join(body))
        rounds = [[run_scalars(body_ops, {**first[p], match["iv"]: own[r]}, (0, 0, 0), (1, 1, 1))
                   for p, own in enumerate(tiles) if r < len(own)] for r in range(max(len(t) for t in tiles))]
        dram, biggest, _asked = _by_round(rounds, loads, l2_bytes)
        why = (f"the {ctas} CTAs' tile loop runs in {len(rounds)} rounds; " + _why(biggest, l2_bytes))
        return PanelTraffic(dram, len(rounds), biggest, why)
    return None


# Example: %desc_q: !tt.tensordesc<tensor<128x64xf16>> loc("desc_q"(#loc))
_DESC_ARG = re.compile(r"%(?P<name>[\w$.-]+):\s*!tt\.tensordesc<")


def descriptor_args(ttir: str) -> tuple[str, ...]:
    """The kernel's TMA descriptor arguments (host ``TensorDescriptor``s), by name."""
    head = next((line for line in ttir.splitlines() if "tt.func public" in line), "")
    return tuple(m["name"] for m in _DESC_ARG.finditer(head))


def wave_traffic(ttir: str, values: dict[str, int], grid: tuple[int, int, int], resident: int, l2_bytes: int
                 ) -> PanelTraffic | None:
    """A grid of one tile per CTA that loads through TMA descriptors: its descriptor loads by the panels each wave of
    ``resident`` CTAs (program ids in order) touches, and its descriptor stores; None if it has no descriptor loads."""
    lines = ttir.splitlines()
    if not any("tt.descriptor_load" in line for line in lines):
        return None
    ctas = grid[0] * grid[1] * grid[2]
    if not ctas or ctas > _MAX_TILES or resident < 1:
        return None
    ops, _loops, args = scalar_program_parts(ttir)
    env = {f"%{name}": int(values[name]) for name in args if name in values}
    loads = _loads(lines, 0, len(lines))
    runs = _run_prefix(ops, env, ctas, grid)
    rounds = [runs[w:w + resident] for w in range(0, ctas, resident)]
    dram, biggest, asked = _by_round(rounds, loads, l2_bytes)
    stores = 0.0
    for line in lines:
        if (m := _DESC.search(line)) is not None and m["op"] == "store":
            stores += _elements(m["shape"]) * _elem_bytes(m["elem"]) * ctas
    why = ("TMA descriptors: their bytes come from the descriptors' block shapes and indices in the "
           "IR (a loop-carried "
           f"index named by where its walk starts); the {ctas} CTAs run in {len(rounds)} waves of {resident}; "
           + _why(biggest, l2_bytes))
    return PanelTraffic(dram, len(rounds), biggest, why, stores, asked, descriptor_args(ttir))


def _elements(shape: str) -> int:
    count = 1
    for dim in shape.split("x"):
        count *= int(dim)
    return count


def _carried(lines: list[str]) -> dict[str, str]:
    """Each loop-carried scalar (an ``scf.for`` iter_arg) -> the value it starts from."""
    found: dict[str, str] = {}
    for line in lines:
        if "scf.for" in line and (m := _ITER_ARGS.search(line)) is not None:
            found.update(_ITER_ARG.findall(m["args"]))
    return found


def _start(name: str, carried: dict[str, str]) -> str:
    """A loop-carried index is named by its walk's start (``offsetkv_y`` from ``offset_y``): one panel per start."""
    for _hop in range(len(carried) + 1):
        if name not in carried:
            return name
        name = carried[name]
    return name


def _loads(lines: list[str], start: int, end: int) -> list[tuple[float, list[str], list[re.Match[str]]]]:
    """Per global load in lines ``start..end``: its bytes, the scalars its address takes per tile, its loops."""
    defs = {m["res"]: m["rest"] for line in lines if (m := _DEF.match(line))}
    splats = {m["res"]: m["a"] for line in lines if (m := _SPLAT.match(line))}
    carried = _carried(lines)
    inner = [(j, m) for j in range(start, end) if (m := _FOR.search(lines[j]))]
    loads = []
    for j in range(start, end):
        holders = [im for k, im in inner if k < j <= _span(lines, k)]
        if (m := _LOAD.search(lines[j])) is not None:
            loads.append((_elements(m["shape"]) * _elem_bytes(m["elem"]), _splatted(m["ptr"], defs, splats), holders))
        elif (d := _DESC.search(lines[j])) is not None and d["op"] == "load":
            index = [_start(name, carried) for name in re.findall(r"%[\w$.-]+", d["index"])]
            loads.append((_elements(d["shape"]) * _elem_bytes(d["elem"]), index, holders))
    return loads


def _by_round(rounds: list[list[dict[str, int]]], loads: list[tuple[float, list[str], list[re.Match[str]]]],
              l2_bytes: int) -> tuple[float, float, float]:
    """DRAM bytes of the loads over the rounds (each a list of the tiles' scalar values), the largest footprint, and
    the bytes the loads ask for."""
    shared = SHARED_L2_SHARE * l2_bytes
    previous: dict[tuple[object, ...], float] = {}
    dram, previous_size, biggest, asked = 0.0, 0.0, 0.0, 0.0
    for tiles in rounds:
        panels: dict[tuple[object, ...], float] = {}
        for at in tiles:
            for n, (size, scalars, holders) in enumerate(loads):
                trips = 1
                for im in holders:
                    lb, ub, st = (at.get(im[k]) for k in ("lb", "ub", "st"))
                    if lb is not None and ub is not None and st:
                        trips *= max(0, -(-(ub - lb) // st))
                key = (n, *(at.get(s) for s in scalars))
                panels[key] = max(panels.get(key, 0.0), size * trips)
                asked += size * trips
        size = sum(panels.values())
        kept = previous if previous_size <= shared else {}
        dram += sum(b for k, b in panels.items() if k not in kept)
        previous, previous_size, biggest = panels, size, max(biggest, size)
    return dram, biggest, asked


def _why(biggest: float, l2_bytes: int) -> str:
    shared = SHARED_L2_SHARE * l2_bytes
    return (f"a round's tiles load up to {biggest / 2**20:.1f} MiB of distinct panels (the scalars each load's address "
            "takes, evaluated per tile from the tile order in the IR), each read from DRAM once per round (the CTAs "
            "walk their inner loop in step); a panel the round before also read "
            + ("is still in the L2 (a round's panels fit"
               if biggest <= shared else "is read again (a round's panels exceed")
            + f" the {shared / 2**20:.0f} MiB, {SHARED_L2_SHARE:.0%} of the L2, that data every SM reads can use: "
            "each of its two partitions holds a copy)")


def _run_prefix(ops: list[tuple[str, ...]], env: dict[str, int], ctas: int, grid: tuple[int, int, int]
                ) -> list[dict[str, int]]:
    return [run_scalars(ops, env, (p % grid[0], (p // grid[0]) % grid[1], p // (grid[0] * grid[1])), grid)
            for p in range(ctas)]


# Example: ttng.async_tma_copy_global_to_local %a_desc[%offset_am, %c0_i32] %a_23, ...
#            : !tt.tensordesc<tensor<128x64xbf16,
_TMA = re.compile(r"ttng\.async_tma_copy_(?P<dir>global_to_local|local_to_global)\s.*?"
                  r"!tt\.tensordesc<tensor<(?P<shape>[\dx]+)x(?P<elem>\w+)")


def tma_copy_bytes(ttgir: str, spans: list[tuple[int, int]]) -> tuple[list[float], float, float]:
    """Bytes the TTGIR's TMA copies move per execution: loads per loop (innermost holding them), loads and stores
    outside loops. The PTX issues one instruction per copy, whose width says nothing of the block it moves."""
    per_loop = [0.0] * len(spans)
    loads = stores = 0.0
    for number, line in enumerate(ttgir.splitlines(), 1):
        if (m := _TMA.search(line)) is None:
            continue
        size = _elements(m["shape"]) * _elem_bytes(m["elem"])
        holding = [i for i, (a, b) in enumerate(spans) if a <= number <= b]
        if m["dir"] == "global_to_local" and holding:
            per_loop[min(holding, key=lambda i: spans[i][1] - spans[i][0])] += size
        elif m["dir"] == "global_to_local":
            loads += size
        elif not holding:
            stores += size
    return per_loop, loads, stores
