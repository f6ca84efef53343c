"""irscope's layout semantics against Triton's own C++ layout printer (Triton >= 3.9, Gluon).

Two checks, byte for byte: every distributed layout of every golden TTGIR file (parsed by Triton
itself, so aliases, scanning and parsing are checked too), and a seeded random sample of layouts.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from irscope.store.store import triton_version

# The oracle is Triton's own layout printer, which Gluon gained in 3.9: older Triton has nothing to compare
# with (the recorded printer outputs in tests/data/layouts are still checked by the other layout tests).
# From 3.9 on, a missing printer is a failure, not a skip; CI pins 3.9, so this always runs there.
_HAS_PRINTER = tuple(int(p) for p in triton_version().split(".")[:2] if p.isdigit()) >= (3, 9)
if not _HAS_PRINTER:
    pytest.skip(f"Triton {triton_version()} predates Gluon's layout printer (3.9)", allow_module_level=True)
import triton.experimental.gluon.language as gl  # noqa: E402

assert hasattr(gl.BlockedLayout, "format_tensor_view"), "Triton >= 3.9 should have Gluon's layout printer"

from triton._C.libtriton import gluon_ir, ir  # noqa: E402
from triton.experimental.gluon.language.amd import AMDMFMALayout, AMDWMMALayout  # noqa: E402
from triton_oracle import load_corpus  # noqa: E402

from irscope.analysis.layouts.to_linear import cga_linear_layout  # noqa: E402
from irscope.parse import layouts as L  # noqa: E402
from irscope.parse.layouts import parse_layout, parse_layouts  # noqa: E402
from irscope.parse.ttgir_ops import parse_types, scan_ops  # noqa: E402
from irscope.views.layout_text import format_hardware_view, format_tensor_view  # noqa: E402

DATA = Path(__file__).parent / "data" / "layouts"
FORMS = Path(__file__).parent / "data" / "ttgir_corpus" / "snippets"
GOLDEN = sorted(DATA.glob("*.ttgir"))
RANDOM_LAYOUTS = 600
SHAPES_PER_LAYOUT = 2


def _bases(rows: tuple[tuple[int, ...], ...]) -> list[list[int]]:
    return [list(r) for r in rows]


def _cga(cga: L.CGALayout | None, rank: int = 2) -> list[list[int]]:
    if cga is None:
        return []
    if cga.bases is not None:
        return _bases(cga.bases)
    # Legacy CTAsPerCGA/CTASplitNum/CTAOrder: Gluon only takes bases, so convert (checked by hand in
    # tests/test_linear_layout.py::test_cga_from_legacy_fields_and_from_bases).
    return _bases(cga_linear_layout(cga, rank).in_bases("block"))


def to_gluon(layout: L.Layout) -> Any:
    """The Gluon layout object equal to one of irscope's parsed layouts."""
    if isinstance(layout, L.BlockedLayout):
        return gl.BlockedLayout(
            list(layout.size_per_thread), list(layout.threads_per_warp), list(layout.warps_per_cta),
            list(layout.order), _cga(layout.cga, len(layout.order)),
        )
    if isinstance(layout, L.SliceLayout):
        return gl.SliceLayout(layout.dim, to_gluon(layout.parent))
    if isinstance(layout, L.DotOperandLayout):
        return gl.DotOperandLayout(layout.op_idx, to_gluon(layout.parent), layout.k_width or 0)
    if isinstance(layout, L.NvidiaMmaLayout):
        return gl.NVMMADistributedLayout(
            [layout.version_major, layout.version_minor], list(layout.warps_per_cta), list(layout.instr_shape),
            _cga(layout.cga),
        )
    if isinstance(layout, L.AmdMfmaLayout):
        return AMDMFMALayout(
            layout.version, list(layout.instr_shape), layout.is_transposed, list(layout.warps_per_cta),
            layout.element_bitwidth, list(layout.tiles_per_warp) if layout.tiles_per_warp else None, _cga(layout.cga),
        )
    if isinstance(layout, L.AmdWmmaLayout):
        warp_bases = layout.warp_bases
        if warp_bases is None:  # the older warpsPerCTA form: warps walk N first, then M
            warps = layout.warps_per_cta or (1, 1)
            warp_bases = tuple(
                [(0, 1 << i) for i in range(warps[1].bit_length() - 1)]
                + [(1 << i, 0) for i in range(warps[0].bit_length() - 1)]
            )
        return AMDWMMALayout(
            layout.version, layout.is_transposed, _bases(warp_bases), _bases(layout.reg_bases),
            list(layout.instr_shape), _cga(layout.cga), 2,
        )
    if isinstance(layout, L.DistributedLinearLayout):
        every = [*layout.register, *layout.lane, *layout.warp, *layout.block]
        shape = [1 << max([b[i] for b in every] + [0]).bit_length() for i in range(layout.rank)]
        return gl.DistributedLinearLayout(
            _bases(layout.register), _bases(layout.lane), _bases(layout.warp), _bases(layout.block), shape
        )
    raise TypeError(f"no Gluon equivalent for {layout.kind}")


def _assert_same(layout: L.Layout, ours: Any, shape: list[int], what: str) -> None:
    expected_tensor = ours.format_tensor_view(shape)
    expected_hardware = ours.format_hardware_view(shape)
    assert format_tensor_view(layout, shape) == expected_tensor, f"tensor view differs: {what}"
    assert format_hardware_view(layout, shape) == expected_hardware, f"hardware view differs: {what}"


# -- golden TTGIR, read by Triton's own parser -----------------------------------------------------


@pytest.fixture(scope="module")
def triton_ir() -> tuple[Any, Any]:
    from triton._C import libtriton

    ctx = ir.context()
    ir.load_dialects(ctx)
    for backend in ("nvidia", "amd"):  # the ttng / amdg ops of the sm90 and gfx942 files
        getattr(libtriton, backend).load_dialects(ctx)
    return ctx, gluon_ir.GluonOpBuilder(ctx)


def _triton_layouts(path: Path, ctx: Any, builder: Any) -> dict[tuple[str, tuple[int, ...]], Any]:
    """(inline encoding text, shape) -> Gluon layout, for every tensor result Triton sees in a file."""
    module = ir.parse_mlir_module(str(path), ctx)
    found: dict[tuple[str, tuple[int, ...]], Any] = {}

    def visit(op: Any) -> None:
        for i in range(op.get_num_results()):
            value = op.get_result(i)
            text = str(value.get_type())
            if not text.startswith("tensor<") or "#" not in text:
                continue
            typ = parse_types(text)[0][1]
            found.setdefault((typ.encoding, typ.shape), builder.get_gluon_layout_from_tensor(value))

    module.walk(visit)
    return found


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_ttgir_matches_triton(path: Path, triton_ir: tuple[Any, Any]) -> None:
    ctx, builder = triton_ir
    expected = _triton_layouts(path, ctx, builder)
    assert expected, "Triton found no tensor values"
    checked: set[tuple[L.Layout, tuple[int, ...]]] = set()
    for (encoding, shape), theirs in expected.items():
        layout = parse_layout(encoding)
        assert not isinstance(layout, L.OpaqueLayout), encoding
        if (layout, shape) in checked:
            continue
        checked.add((layout, shape))
        _assert_same(layout, theirs, list(shape), f"{encoding} {shape}")

    # The same (layout, shape) pairs must come out of irscope's own alias table and op scan.
    assert _ours(path.read_text()) == checked


def _ours(text: str) -> set[tuple[L.Layout, tuple[int, ...]]]:
    """(layout, shape) of every tensor result irscope's alias table and op scan find in a module."""
    table = parse_layouts(text)
    found = set()
    for op in scan_ops(text):
        for typ in op.result_types:
            if typ.kind == "tensor" and typ.encoding:
                found.add((parse_layout(typ.encoding, table.aliases), typ.shape))
    return found


def test_corpus_layouts_match_triton(triton_ir: tuple[Any, Any], tmp_path: Path) -> None:
    """Every layout on every tensor result of the real-module corpus (and the hand-written forms), both views."""
    ctx, builder = triton_ir
    modules = [*load_corpus(), *((p.name, p.read_text()) for p in sorted(FORMS.glob("*.ttgir")))]
    compared: dict[tuple[L.Layout, tuple[int, ...]], str] = {}
    shapes_of: Counter[L.Layout] = Counter()
    kinds: set[str] = set()
    for name, text in modules:
        path = tmp_path / "module.ttgir"
        path.write_text(text)
        theirs = _triton_layouts(path, ctx, builder)
        expected = set()
        for (encoding, shape), gluon_layout in theirs.items():
            if "#gluon." in encoding:  # Gluon's placeholder: no layout yet, nothing to print
                continue
            layout = parse_layout(encoding)
            assert not isinstance(layout, L.OpaqueLayout), f"{name}: {encoding}"
            expected.add((layout, shape))
            # each layout at up to SHAPES_PER_LAYOUT of its shapes (every shape: minutes, and nothing more found)
            if (layout, shape) not in compared and shapes_of[layout] < SHAPES_PER_LAYOUT:
                compared[(layout, shape)] = name
                shapes_of[layout] += 1
                _assert_same(layout, gluon_layout, list(shape), f"{name}: {encoding} {shape}")
                kinds.add(layout.kind if not isinstance(layout, L.DotOperandLayout) else f"dot_op/{layout.parent.kind}")
        ours = {(layout, shape) for layout, shape in _ours(text) if layout.kind != "opaque"}
        assert ours == expected, name
    assert len(modules) >= 300 and len(shapes_of) >= 100, (len(modules), len(shapes_of))
    assert {"blocked", "slice", "nvidia_mma", "amd_mfma", "linear", "amd_wmma", "dot_op/amd_wmma"} <= kinds, kinds


def test_every_golden_distributed_alias_is_checked(triton_ir: tuple[Any, Any]) -> None:
    ctx, builder = triton_ir
    kinds = set()
    for path in GOLDEN:
        table = parse_layouts(path.read_text())
        expected = {parse_layout(enc) for enc, _ in _triton_layouts(path, ctx, builder)}
        for layout in table.layouts:
            if layout.distributed:
                assert layout in expected, f"{path.name}: #{layout.name} is never used on a result"
                kinds.add(layout.kind)
    assert kinds == {"blocked", "nvidia_mma", "amd_mfma", "linear"}


SNIPPET_SHAPES = {
    "all_kinds.ttgir": {"blocked": [64, 64], "blocked_cga": [8, 64], "mma2": [32, 32], "mma3": [64, 64],
                        "dotA": [32, 16], "dotB": [16, 32], "dotA3": [64, 32], "fma": [16, 16], "row": [64],
                        "mfma": [32, 32], "mfma_tiles": [128, 128], "wmma": [32, 32], "linear": [32, 32]},
    "legacy_triton_gpu.ttgir": {"blocked": [64, 32], "blocked1": [32, 32], "split": [16, 64], "mma": [64, 32],
                                "mma_implicit": [32, 16], "mma3": [64, 128], "A": [64, 32], "rows": [32],
                                "mfma": [64, 64], "mfma_mdim": [64, 16], "wmma": [32, 32]},
}


@pytest.mark.parametrize("snippet", sorted(SNIPPET_SHAPES))
def test_hand_written_snippets_match_triton(snippet: str) -> None:
    table = parse_layouts((DATA / "snippets" / snippet).read_text())
    distributed = {name for name, layout in table.aliases.items() if layout.distributed}
    shapes = SNIPPET_SHAPES[snippet]
    # every distributed alias is checked, except those Gluon cannot build: generic_linear, and a dot
    # operand without kWidth (Triton derives it from the element type when it lowers the dot)
    assert distributed - set(shapes) <= {"generic", "B_nok"}
    for name, shape in shapes.items():
        layout = table.aliases[name]
        _assert_same(layout, to_gluon(layout), shape, f"{snippet} #{name} {shape}")


# -- seeded random layouts -------------------------------------------------------------------------


def _split_bits(rng: random.Random, bits: int, parts: int) -> list[int]:
    """Powers of two whose product is 2**bits, over `parts` dims."""
    logs = [0] * parts
    for _ in range(bits):
        logs[rng.randrange(parts)] += 1
    return [1 << v for v in logs]


def _shape(rng: random.Random, rank: int, max_bits: int = 8) -> list[int]:
    return _split_bits(rng, rng.randint(rank, max_bits), rank)


def _blocked(rng: random.Random, rank: int) -> L.BlockedLayout:
    cga = None
    if rng.random() < 0.15:  # 2 or 4 CTAs: each block bit splits one dim further, or replicates (all zero)
        seen = [0] * rank
        bases = []
        for _ in range(rng.randint(1, 2)):
            dim = rng.randrange(rank + 1)
            if dim == rank:
                bases.append((0,) * rank)
            else:
                bases.append(tuple(1 << seen[dim] if i == dim else 0 for i in range(rank)))
                seen[dim] += 1
        cga = L.CGALayout(bases=tuple(bases))
    return L.BlockedLayout(
        size_per_thread=tuple(1 << rng.randint(0, 2) for _ in range(rank)),
        threads_per_warp=tuple(_split_bits(rng, 5, rank)),
        warps_per_cta=tuple(_split_bits(rng, rng.randint(0, 2), rank)),
        order=tuple(rng.sample(range(rank), rank)),
        cga=cga,
    )


def _mma(rng: random.Random, version: int) -> L.NvidiaMmaLayout:
    if version == 2:
        rank = rng.choice([2, 2, 3])
        warps = _split_bits(rng, rng.randint(0, 2), rank)
        instr = (16, 8) if rank == 2 else (1, 16, 8)
        return L.NvidiaMmaLayout(version_major=2, version_minor=0, warps_per_cta=tuple(warps), instr_shape=instr)
    warps = rng.choice([(4, 1), (4, 1), (8, 1), (4, 2)])
    n = 1 << rng.randint(3, 5)  # wider instructions (N = 256, 8 warps) are covered by the golden sm90 matmul
    return L.NvidiaMmaLayout(version_major=3, version_minor=0, warps_per_cta=warps, instr_shape=(16, n, 16))


def _linear(rng: random.Random, rank: int) -> L.DistributedLinearLayout:
    sizes = _split_bits(rng, rng.randint(5, 9), rank)
    units = [tuple((1 << b) if i == d else 0 for i in range(rank)) for d in range(rank)
             for b in range(sizes[d].bit_length() - 1)]
    rng.shuffle(units)
    lane = units[:5]
    while len(lane) < 5:  # small tensors: the remaining lanes replicate
        lane.insert(rng.randrange(len(lane) + 1), (0,) * rank)
    rest = units[5:]
    cut = rng.randint(0, len(rest))
    register, warp = rest[:cut], rest[cut:]
    for _ in range(rng.randint(0, 1)):
        warp.insert(rng.randrange(len(warp) + 1), (0,) * rank)
    return L.DistributedLinearLayout(register=tuple(register), lane=tuple(lane), warp=tuple(warp))


def _around(rng: random.Random, tile: list[int], cap: int = 256) -> list[int]:
    """A shape near a layout's tile: each dim from half to 4x the tile, at most `cap` elements."""
    shape = [max(1, min(512, t << rng.choice([0, 1, 1, 2, 3]) >> 1)) for t in tile]
    while math.prod(shape) > cap:
        shape[shape.index(max(shape))] //= 2
    return shape


def _blocked_tile(layout: L.BlockedLayout) -> list[int]:
    return [a * b * c for a, b, c in zip(layout.size_per_thread, layout.threads_per_warp, layout.warps_per_cta,
                                         strict=True)]


def _mma_tile(mma: L.NvidiaMmaLayout) -> list[int]:
    instr = mma.instr_shape if mma.version_major == 2 else mma.instr_shape[:2]
    return [i * w for i, w in zip(instr, mma.warps_per_cta, strict=True)]


def _random_case(rng: random.Random, index: int) -> tuple[L.Layout, list[int]]:
    kind = index % 12
    if kind in (0, 1, 2):
        blocked = _blocked(rng, rng.choice([1, 2, 2, 3]))
        return blocked, _around(rng, _blocked_tile(blocked))
    if kind == 3:
        parent = _blocked(rng, rng.choice([2, 3]))
        dim = rng.randrange(len(parent.order))
        tile = _blocked_tile(parent)
        return L.SliceLayout(dim=dim, parent=parent), _around(rng, tile[:dim] + tile[dim + 1:])
    if kind == 4:
        mma = _mma(rng, rng.choice([2, 3]))
        dim = rng.randrange(len(mma.warps_per_cta))
        tile = _mma_tile(mma)
        return L.SliceLayout(dim=dim, parent=mma), _around(rng, tile[:dim] + tile[dim + 1:])
    if kind in (5, 6):
        mma = _mma(rng, 2 if kind == 5 else 3)
        return mma, _around(rng, _mma_tile(mma), 512)
    if kind == 7:
        mma = _mma(rng, 2)
        dot = L.DotOperandLayout(op_idx=rng.randint(0, 1), parent=mma, k_width=1 << rng.randint(0, 3))
        return dot, _around(rng, _mma_tile(mma), 512)
    if kind == 8:
        mma = _mma(rng, 3)
        dot = L.DotOperandLayout(op_idx=0, parent=mma, k_width=1 << rng.randint(0, 2))
        return dot, _around(rng, [_mma_tile(mma)[0], 16 * dot.k_width], 512)  # type: ignore[operator]
    if kind == 9:
        blocked = _blocked(rng, rng.choice([2, 3]))
        blocked = L.BlockedLayout(
            size_per_thread=blocked.size_per_thread, threads_per_warp=blocked.threads_per_warp,
            warps_per_cta=blocked.warps_per_cta, order=blocked.order,
        )
        dot = L.DotOperandLayout(op_idx=rng.randint(0, 1), parent=blocked)
        return dot, _around(rng, _blocked_tile(blocked), 64)
    linear = _linear(rng, rng.choice([1, 2, 2, 3]))
    every = [*linear.register, *linear.lane, *linear.warp]
    own = [1 << max([b[i] for b in every] + [0]).bit_length() for i in range(linear.rank)]
    return linear, (own if kind == 10 else _around(rng, own))


# The instruction shapes Triton's AMDWmmaEncodingAttr verifier accepts per version, and the kWidths of their operands.
_WMMA_SHAPES = {1: [(16, 16, 16)], 2: [(16, 16, 16), (16, 16, 32)],
                3: [(16, 16, 32), (16, 16, 64), (16, 16, 128), (32, 16, 64), (32, 16, 128)]}
_WMMA_KWIDTHS = {1: [8, 16], 2: [4, 8, 16], 3: [2, 4, 8, 16]}


def _random_wmma_case(rng: random.Random, dot: bool) -> tuple[L.Layout, list[int]]:
    """A WMMA result layout (warp and repetition bases, any valid instrShape) or one of its dot operands."""
    seen = [0, 0]
    bases: dict[str, list[tuple[int, int]]] = {"warp": [], "register": []}
    for kind, most in (("warp", 3), ("register", 1)):
        for _ in range(rng.randint(0, most)):  # each bit moves one more tile along M or N
            dim = rng.randrange(2)
            bases[kind].append((1 << seen[0], 0) if dim == 0 else (0, 1 << seen[1]))
            seen[dim] += 1
    version = rng.choice([1, 2, 3])
    instr = rng.choice(_WMMA_SHAPES[version])
    wmma = L.AmdWmmaLayout(
        version=version, is_transposed=rng.random() < 0.5, warp_bases=tuple(bases["warp"]),
        reg_bases=tuple(bases["register"]), instr_shape=instr,
    )
    tile = (instr[0], instr[1]) if not wmma.is_transposed else (instr[1], instr[0])
    extent = [tile[0] << seen[0], tile[1] << seen[1]]  # smaller shapes wrap, which Triton refuses to print
    if not dot:
        return wmma, [extent[0] << rng.randint(0, 1), extent[1] << rng.randint(0, 1)]
    op_idx = rng.randint(0, 1)
    k_width = rng.choice(_WMMA_KWIDTHS[version])
    k = max(instr[2], 2 * k_width) << rng.randint(0, 1)
    shape = [extent[0], k] if op_idx == 0 else [k, extent[1]]
    return L.DotOperandLayout(op_idx=op_idx, parent=wmma, k_width=k_width), shape


def _random_amd_case(rng: random.Random, index: int) -> tuple[L.Layout, list[int]]:
    if index % 3 == 2:
        return _random_wmma_case(rng, dot=index % 6 == 5)
    instr = rng.choice([(32, 32, 8), (16, 16, 16), (32, 32, 16), (16, 16, 32)])
    mfma = L.AmdMfmaLayout(
        version=rng.choice([2, 3, 4]), warps_per_cta=tuple(_split_bits(rng, rng.randint(0, 3), 2)),
        instr_shape=instr, is_transposed=rng.random() < 0.5,
    )
    shape = [max(s, instr[0]) for s in _split_bits(rng, rng.randint(9, 11), 2)]
    if index % 3 == 1:
        op_idx = rng.randint(0, 1)
        return L.DotOperandLayout(op_idx=op_idx, parent=mfma, k_width=rng.choice([4, 8])), shape
    return mfma, shape


def test_random_layouts_match_triton() -> None:
    rng = random.Random(20261129)
    compared: dict[str, int] = {}
    for index in range(RANDOM_LAYOUTS):
        layout, shape = _random_case(rng, index)
        _assert_same(layout, to_gluon(layout), shape, f"case {index}: {layout!r} {shape}")
        key = layout.kind if not isinstance(layout, (L.SliceLayout, L.DotOperandLayout)) else (
            f"{layout.kind}/{layout.parent.kind}"
        )
        compared[key] = compared.get(key, 0) + 1
    assert sum(compared.values()) == RANDOM_LAYOUTS >= 500
    assert {"blocked", "slice/blocked", "slice/nvidia_mma", "nvidia_mma", "dot_op/nvidia_mma", "dot_op/blocked",
            "linear"} <= set(compared)


def test_random_amd_layouts_match_triton() -> None:
    rng = random.Random(942)
    for index in range(96):
        layout, shape = _random_amd_case(rng, index)
        _assert_same(layout, to_gluon(layout), shape, f"amd case {index}: {layout!r} {shape}")


# -- fp64 dots: nvidia_mma v2 with instrShape [8, 8] (m8n8k4 DMMA) ------------------------------------

DMMA_WARPS = [[1, 1], [2, 2], [4, 1], [1, 4], [2, 1], [4, 2]]


@pytest.mark.parametrize("warps", DMMA_WARPS, ids=["x".join(map(str, w)) for w in DMMA_WARPS])
def test_dmma_dot_operands_match_triton(warps: list[int]) -> None:
    mma = L.NvidiaMmaLayout(version_major=2, version_minor=0, warps_per_cta=tuple(warps), instr_shape=(8, 8))
    for shape in ([8, 8], [16, 16], [64, 32]):
        _assert_same(mma, to_gluon(mma), shape, f"{mma!r} {shape}")
    for op_idx in (0, 1):
        for k_width in (1, 2):  # Triton gives fp64 operands kWidth 1
            dot = L.DotOperandLayout(op_idx=op_idx, parent=mma, k_width=k_width)
            for shape in ([8, 4], [8, 8], [16, 16], [32, 8], [8, 32], [64, 32], [32, 64]):
                _assert_same(dot, to_gluon(dot), shape, f"{dot!r} {shape}")


def _thread0_registers(layout: L.Layout, shape: list[int]) -> int:
    """How many registers thread 0 holds for `shape`, read from Triton's tensor view."""
    return to_gluon(layout).format_tensor_view(shape).count("T0:")


@pytest.mark.parametrize(("instr", "k_width", "tile_a", "tile_b"), [
    ((8, 8), 1, "8x4", "4x8"), ((16, 8), 2, "16x16", "16x8"), ((16, 8), 4, "16x32", "32x8"),
])
def test_mma_operand_sentence_agrees_with_triton(instr: tuple[int, int], k_width: int, tile_a: str,
                                                 tile_b: str) -> None:
    from irscope.analysis.layouts.explain import explain_layout

    mma = L.NvidiaMmaLayout(version_major=2, version_minor=0, warps_per_cta=(1, 1), instr_shape=instr)
    for op_idx, tile in ((0, tile_a), (1, tile_b)):
        dot = L.DotOperandLayout(op_idx=op_idx, parent=mma, k_width=k_width)
        shape = [int(v) for v in tile.split("x")]
        held = _thread0_registers(dot, shape)
        # a tile is exactly what one warp holds once: no replication, no repetition
        assert held * 32 == shape[0] * shape[1]
        sentence = explain_layout(dot, shape, "f64" if instr == (8, 8) else "f16")
        operand = "A" if op_idx == 0 else "B"
        assert f"of every {tile} tile of {operand} a thread holds {held} " in sentence, sentence
        assert f"for {tile} each thread holds {held} " in sentence, sentence


@pytest.mark.parametrize("instr", [(8, 8), (16, 8)])
def test_mma_v2_sentence_agrees_with_triton(instr: tuple[int, int]) -> None:
    from irscope.analysis.layouts.explain import explain_layout

    mma = L.NvidiaMmaLayout(version_major=2, version_minor=0, warps_per_cta=(1, 1), instr_shape=instr)
    sentence = explain_layout(mma, list(instr), "f64")
    assert f"each warp computes {instr[0]}x{instr[1]} tiles, a quad of 4 lanes sharing a row, each lane 2 " \
           "consecutive elements of it" in sentence
    rows = to_gluon(mma).format_tensor_view(list(instr)).splitlines()
    # lanes 0-3 share row 0, two consecutive columns each; lane 4 starts row 1
    assert [cell.strip(" []") for cell in rows[0].split(",")][:8] == [
        "T0:0", "T0:1", "T1:0", "T1:1", "T2:0", "T2:1", "T3:0", "T3:1"]
    assert rows[1].split(",")[0].strip(" []") == "T4:0"
    assert f"for {instr[0]}x{instr[1]} each thread holds {instr[0] * instr[1] // 32} fp64" in sentence


@pytest.mark.compile
def test_fp64_dot_kernel_layouts_match_triton(tmp_path: Path, triton_ir: tuple[Any, Any]) -> None:
    import irscope
    from irscope.analysis.layouts.explain import analyze_layouts

    kernel = Path(__file__).parent / "data" / "kernels" / "fp64_dot.py"
    capture = irscope.capture(f"{kernel}:fp64_dot_kernel", target="sm80", store=str(tmp_path / "store"),
                              args="a_ptr=fp64[64,32], b_ptr=fp64[32,64], c_ptr=fp64[64,64]",
                              BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, num_warps=4)
    text = capture.read("ttgir")
    path = tmp_path / "fp64_dot.ttgir"
    path.write_text(text)
    report = analyze_layouts(text)
    mma = report.get("#mma")
    assert mma is not None and isinstance(mma.layout, L.NvidiaMmaLayout)
    assert (mma.layout.version_major, mma.layout.instr_shape) == (2, (8, 8))
    assert "fp64 DMMA, mma.sync m8n8k4" in mma.explanation
    ctx, builder = triton_ir
    checked = set()
    for (encoding, shape), theirs in _triton_layouts(path, ctx, builder).items():
        layout = parse_layout(encoding, parse_layouts(text).aliases)
        _assert_same(layout, theirs, list(shape), f"{encoding} {shape}")
        checked.add(layout.kind if not isinstance(layout, L.DotOperandLayout) else f"dot_op/{layout.op_idx}")
    assert {"nvidia_mma", "dot_op/0", "dot_op/1"} <= checked
    operands = [info for info in report.layouts if isinstance(info.layout, L.DotOperandLayout)]
    assert {info.layout.k_width for info in operands} == {1}
    for info in operands:
        tile = "8x4" if info.layout.op_idx == 0 else "4x8"
        assert f"of every {tile} tile of {'AB'[info.layout.op_idx]} a thread holds 1 fp64" in info.explanation
