"""Triton 3.9's verdict and layout printer on the `#ttg.linear` layouts of tests/data/layouts/lit_linear (tests only).

Triton aborts the process (an LLVM fatal error) on some layouts it refuses, a non-surjective one for example, so its
parser runs in a child process: `triton_verdicts` feeds it the module files one by one and starts a new child after
a crash, which counts as a refusal.
"""

from __future__ import annotations

import json
import lzma
import math
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from irscope.parse.layouts import DistributedLinearLayout, Layout, parse_layout, parse_layouts, split_modules
from irscope.parse.ttgir_ops import scan_ops

DATA = Path(__file__).parent / "data" / "layouts"
LIT = DATA / "lit_linear"
# Triton's recorded answers: {"views": {key: {"shape", "tensor", "hardware"}}, "verdicts": {module: verdict}}
RECORDED = DATA / "dumps" / "lit_linear.json.xz"
# A recorded dump draws at most this many elements (a lit shape such as 256x256 is cut to its first rows)
DUMP_ELEMENTS = 256
# Live, irscope's views are set against Triton's at the lit test's own shape, cut to at most this many elements (the
# few larger shapes, up to 256x256, would make the comparison most of the test file's time)
LIVE_ELEMENTS = 4096

# The child: parses each file named on stdin with Triton's own MLIR parser, answering one line each.
PARSER_CHILD = """
import sys
from triton._C import libtriton
from triton._C.libtriton import ir
ctx = ir.context()
ir.load_dialects(ctx)
for backend in ("nvidia", "amd"):
    getattr(libtriton, backend).load_dialects(ctx)
for path in sys.stdin:
    try:
        ir.parse_mlir_module(path.strip(), ctx)
        print("accept", flush=True)
    except Exception:
        print("refuse", flush=True)
"""


@dataclass(frozen=True)
class LitLayout:
    """One `#ttg.linear` alias of one lit module and the shape its first op uses it with."""

    key: str  # <file stem>.<module number>.<alias>, the name of its recorded dumps
    module: str  # the module's text
    alias: str
    layout: Layout  # opaque where irscope refuses it
    shape: tuple[int, ...]


# Layouts around the edges of what Triton accepts, each in a 4-warp, 32-lane module, on a function argument alone
# ("arg") or also on a ttg.convert_layout ("cvt", an op Triton verifies against the module's counts):
# name -> (register, lane, warp bases, shape)
EDGE_CASES: dict[str, tuple[str, str, str, str]] = {
    "plain": ("[[0, 1], [0, 2]]", "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]", "[[32, 0], [64, 0]]", "128x4"),
    "broadcast": ("[[0, 1], [0, 2]]", "[[1, 0], [2, 0], [4, 0], [8, 0], [0, 0]]", "[[16, 0], [0, 0]]", "32x4"),
    "fewer_warps": ("[[0, 1], [0, 2]]", "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]", "[[32, 0]]", "64x4"),
    "more_warps": ("[[0, 1], [0, 2]]", "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]", "[[32, 0], [64, 0], [128, 0]]",
                   "256x4"),
    "fewer_lanes": ("[[0, 1], [0, 2]]", "[[1, 0], [2, 0], [4, 0], [8, 0]]", "[[16, 0], [32, 0]]", "64x4"),
    "two_dims": ("[[0, 1], [1, 2]]", "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]", "[[32, 0], [64, 0]]", "128x4"),
    "not_power_of_two": ("[[0, 1], [0, 3]]", "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]", "[[32, 0], [64, 0]]",
                         "128x4"),
    "repeated": ("[[0, 1], [0, 1]]", "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]", "[[32, 0], [64, 0]]", "128x2"),
    "not_surjective": ("[[0, 2]]", "[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0]]", "[[32, 0], [64, 0]]", "128x4"),
}


def edge_modules() -> list[tuple[str, str]]:
    """(<case>.<arg|cvt>, module text) of every edge case."""
    out = []
    for name, (register, lane, warp, shape) in EDGE_CASES.items():
        for use in ("arg", "cvt"):
            body = (f"    %0 = ttg.convert_layout %a : tensor<{shape}xf32, #l> -> tensor<{shape}xf32, #b>\n"
                    if use == "cvt" else "")
            out.append((f"{name}.{use}", (
                f"#l = #ttg.linear<{{register = {register}, lane = {lane}, warp = {warp}, block = []}}>\n"
                "#b = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], "
                "order = [1, 0]}>\n"
                'module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, '
                '"ttg.threads-per-warp" = 32 : i32} {\n'
                f"  tt.func @f(%a: tensor<{shape}xf32, #l>) {{\n{body}    tt.return\n  }}\n}}\n")))
    return out


def lit_modules() -> list[tuple[str, str]]:
    """(<file stem>.<module number>, module text) of every module in the lit data."""
    return [(f"{path.stem}.{i}", text) for path in sorted(LIT.glob("*.mlir"))
            for i, text in enumerate(split_modules(path.read_text()), start=1)]


def lit_layouts(verdicts: dict[str, str]) -> list[LitLayout]:
    """Every `#ttg.linear` layout an op or argument of a module Triton accepts uses: each alias, and each one written
    inline in a type (named `inline<n>`, in text order)."""
    found = []
    for name, text in lit_modules():
        if verdicts.get(name) != "accept":
            continue
        table = parse_layouts(text)
        shapes: dict[str, tuple[int, ...]] = {}
        for op in scan_ops(text):
            for typ in (*op.operand_types, *op.result_types):
                shapes.setdefault(typ.encoding, typ.shape)
        for alias, layout in table.aliases.items():
            if "ttg.linear<" in layout.text and f"#{alias}" in shapes:
                found.append(LitLayout(f"{name}.{alias}", text, alias, layout, shapes[f"#{alias}"]))
        inline = [encoding for encoding in shapes if encoding.startswith("#ttg.linear<")]
        for number, encoding in enumerate(inline, start=1):
            found.append(LitLayout(f"{name}.inline{number}", text, f"inline{number}", parse_layout(encoding),
                                   shapes[encoding]))
    return found


def dump_shape(shape: tuple[int, ...], most: int = DUMP_ELEMENTS) -> list[int]:
    """`shape` with its leading dims halved until it holds at most `most` elements."""
    cut = list(shape)
    while math.prod(cut) > most:
        cut[next(i for i, v in enumerate(cut) if v > 1)] //= 2
    return cut


def triton_verdicts(paths: list[Path]) -> list[str]:
    """"accept", "refuse" or "crash" (Triton aborted) for each module file, from Triton's own parser."""
    verdicts: list[str] = []
    while len(verdicts) < len(paths):
        rest = paths[len(verdicts):]
        child = subprocess.run([sys.executable, "-c", PARSER_CHILD], input="".join(f"{p}\n" for p in rest),
                               capture_output=True, text=True, timeout=600)
        answered = child.stdout.split()
        verdicts.extend(answered)
        if len(answered) < len(rest):
            if child.returncode >= 0 and not answered and "Traceback" in child.stderr:
                raise RuntimeError(child.stderr)  # Triton itself failed to load: not a verdict
            verdicts.append("crash")
    return verdicts


Views = dict[tuple[tuple[tuple[int, ...], ...], ...], object]
_VIEWS: dict[str, Views] = {}  # module text -> what triton_views found in it
_TRITON: list[Any] = []  # [context, Gluon builder], made once


def triton_views(module: str, path: Path) -> Views:
    """The Gluon layout Triton builds for each linear encoding of a module's values, keyed by its bases (each module
    is parsed once, in one MLIR context for all)."""
    if module in _VIEWS:
        return _VIEWS[module]
    from triton._C.libtriton import gluon_ir
    from triton_oracle import parse_with_triton, triton_context

    from irscope.parse.ttgir_ops import parse_types

    path.write_text(module)
    if not _TRITON:
        _TRITON.extend([ctx := triton_context(), gluon_ir.GluonOpBuilder(ctx)])
    ctx, builder = _TRITON
    found: Views = {}

    def add(value: object) -> None:
        text = str(value.get_type())  # type: ignore[attr-defined]
        if "ttg.linear<" not in text or not parse_types(text)[0][1].encoding.startswith("#ttg.linear<"):
            return  # a slice of a linear layout is not one
        layout = parse_layout(parse_types(text)[0][1].encoding)
        assert isinstance(layout, DistributedLinearLayout), text
        found.setdefault(bases(layout), builder.get_gluon_layout_from_tensor(value))

    def visit(op: object) -> None:
        block = op.get_block()  # type: ignore[attr-defined]
        if block is not None:
            for i in range(block.get_num_arguments()):
                add(block.get_argument(i))
        for i in range(op.get_num_results()):  # type: ignore[attr-defined]
            add(op.get_result(i))  # type: ignore[attr-defined]

    parse_with_triton(path, ctx).walk(visit)
    _VIEWS[module] = found
    return found


def bases(layout: DistributedLinearLayout) -> tuple[tuple[tuple[int, ...], ...], ...]:
    return layout.register, layout.lane, layout.warp, layout.block


def read_recorded() -> dict[str, dict[str, Any]]:
    return dict(json.loads(lzma.decompress(RECORDED.read_bytes())))
