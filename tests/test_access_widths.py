"""Load and store widths: what the layouts report says, against the PTX / AMDGCN instructions of real captures.

The kernels (tests/data/kernels/load_widths.py) are captured offline for sm90 and gfx942. The widths
the machine code uses are read here from the captured text with this file's own patterns, not with
irscope's, so the sentences are checked against the lower stage independently.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import irscope
from irscope.analysis.layouts.access_widths import AccessWidth, access_widths
from irscope.analysis.layouts.explain import LayoutInfo, LayoutReport, analyze_layouts
from irscope.store.store import Capture
from tests.conftest import DATA

pytestmark = pytest.mark.compile

KERNELS = DATA / "kernels" / "load_widths.py"
TARGETS = ("sm90", "gfx942")
MACHINE = {"sm90": "ptx", "gfx942": "amdgcn"}

# Example: ld.global.v4.b32 { %r1, %r2, %r3, %r4 }, [ %rd1 + 0 ];   /   @%p1 ld.global.b16 { %rs1 }, [ %rd2 + 0 ];
_PTX = re.compile(r"^\s*(?:@!?%p\d+\s+)?(?P<op>ld|st)\.global(?:\.[\w:]+?)*?(?:\.v(?P<vec>[248]))?"
                  r"\.[bfsu](?P<bits>8|16|32|64)\s",
                  re.M)
# Example: buffer_load_dwordx4 v[8:11], v4, s[0:3], 0 offen   /   global_store_short v[0:1], v2, off
_AMDGCN = re.compile(r"^\s*(?:global|buffer)_(?P<op>load|store)_(?P<size>dwordx[234]|dword|u?short|b16|u?byte|sbyte)\b",
                     re.M)
_AMD_BYTES = {"dwordx2": 8, "dwordx3": 12, "dwordx4": 16, "dword": 4, "short": 2, "ushort": 2, "b16": 2,
              "byte": 1, "ubyte": 1, "sbyte": 1}


def machine_widths(capture: Capture, op: str) -> list[int]:
    """Bytes per thread of every global load (`op="ld"`) or store (`"st"`) instruction in the machine code."""
    stage = MACHINE[capture.manifest.target]
    text = capture.read(stage)
    if stage == "ptx":
        return [int(m["vec"] or 1) * int(m["bits"]) // 8 for m in _PTX.finditer(text) if m["op"] == op]
    wanted = {"ld": "load", "st": "store"}[op]
    return [_AMD_BYTES[m["size"]] for m in _AMDGCN.finditer(text) if m["op"] == wanted]


@pytest.fixture(scope="session")
def capture(shared_store: Path):
    """capture(function, target, args, **constexprs) -> a real capture, compiled once per session."""
    done: dict[tuple[object, ...], Capture] = {}

    def get(function: str, target: str, args: str, **constexprs: int) -> Capture:
        key = (function, target, args, tuple(sorted(constexprs.items())))
        if key not in done:
            done[key] = irscope.capture(f"{KERNELS}:{function}", target=target, store=str(shared_store), args=args,
                                        **constexprs)
        return done[key]

    return get


def report_of(capture: Capture) -> LayoutReport:
    return analyze_layouts(capture.read("ttgir"), accesses=access_widths(capture))


def layout_of(report: LayoutReport, op: str) -> LayoutInfo:
    """The one layout whose uses include a global access op."""
    found = [info for info in report.layouts if any(u.op == op for u in info.uses)]
    assert len(found) == 1, [info.label for info in found]
    return found[0]


def allowed_load(sentence: str) -> int:
    match = re.search(r"the layout allows one (\d+)-byte load", sentence)
    assert match, sentence
    return int(match.group(1))


def load_op(target: str) -> str:
    return "tt.load" if target == "sm90" else "amdg.buffer_load"


@pytest.mark.parametrize("target", TARGETS)
def test_bf16_loads_are_described_in_bf16_not_in_the_fp32_they_become(capture, target: str) -> None:
    cap = capture("scale_kernel", target, "x_ptr=bf16[4096], out_ptr=bf16[4096]", BLOCK=1024)
    info = layout_of(report_of(cap), load_op(target))
    loads = machine_widths(cap, "ld")
    assert loads and len(set(loads)) == 1
    per_thread = 8 if target == "sm90" else 4  # 1024 elements over 128 threads / 256 lanes
    assert f"each thread holds {per_thread} contiguous bf16 (the layout allows one {loads[0]}-byte load" in (
        info.explanation), info.explanation
    assert "fp32" not in info.explanation
    assert f"the {MACHINE[target].upper()} has {loads[0]}-byte" in info.explanation


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("dtype", ["fp16", "bf16", "fp32", "int8"])
def test_the_width_the_layout_allows_is_the_width_the_machine_code_uses(capture, target: str, dtype: str) -> None:
    cap = capture("scale_kernel", target, f"x_ptr={dtype}[4096], out_ptr={dtype}[4096]", BLOCK=1024)
    info = layout_of(report_of(cap), load_op(target))
    loads, stores = machine_widths(cap, "ld"), machine_widths(cap, "st")
    assert loads and set(loads) == set(stores) and len(set(loads)) == 1
    assert allowed_load(info.explanation) == loads[0]
    widths = access_widths(cap)
    assert {(a.kind, a.machine_bytes, a.agrees) for a in widths} == {("load", loads[0], True),
                                                                     ("store", loads[0], True)}
    assert all(a.loc is not None and a.loc.line in (30, 31) for a in widths)


@pytest.mark.parametrize("target", TARGETS)
def test_a_row_stride_of_1000_keeps_loads_one_element_wide_and_the_report_says_so(capture, target: str) -> None:
    sizes = {"BLOCK_M": 64, "BLOCK_N": 64}
    aligned = capture("upcast_kernel", target, "x_ptr=bf16[64,1024], out_ptr=fp32[64,64], stride_xm=1024", **sizes)
    odd = capture("upcast_kernel", target, "x_ptr=bf16[64,1000], out_ptr=fp32[64,64], stride_xm=1000", **sizes)
    stage = MACHINE[target].upper()

    assert set(machine_widths(aligned, "ld")) == {16}
    load = next(a for a in access_widths(aligned) if a.kind == "load")
    assert (load.element, load.allowed_bytes, load.machine_bytes, load.agrees) == ("bf16", 16, 16, True)

    assert set(machine_widths(odd, "ld")) == {2}  # one bf16 at a time
    load = next(a for a in access_widths(odd) if a.kind == "load")
    assert load.element == "bf16" and load.machine_bytes == 2 and load.allowed_bytes > 2 and load.agrees is False
    assert load.unaligned_args == ("stride_xm",)
    info = layout_of(report_of(odd), load_op(target))
    claimed = allowed_load(info.explanation)
    assert claimed == load.allowed_bytes
    assert (f"allow {claimed}-byte loads, but the {stage} has 2-byte" in info.explanation
            and "they depend on stride_xm, which carries no tt.divisibility" in info.explanation), info.explanation
    # the fp32 store next to it is unaffected: 16 bytes in the layout and in the machine code
    store = next(a for a in access_widths(odd) if a.kind == "store")
    assert (store.element, store.allowed_bytes, store.machine_bytes) == ("f32", 16, 16)
    assert set(machine_widths(odd, "st")) == {16}


def test_every_machine_access_of_the_load_carries_the_load_source_line(capture) -> None:
    """PTX inline asm renumbers its own lines: the ld.global of a load on line 22 is attributed to line 22."""
    cap = capture("upcast_kernel", "sm90", "x_ptr=bf16[64,1000], out_ptr=fp32[64,64], stride_xm=1000",
                  BLOCK_M=64, BLOCK_N=64)
    loads = [a for a in access_widths(cap) if a.kind == "load"]
    assert len(loads) == 1 and loads[0].loc is not None
    source_line = next(i for i, text in enumerate(cap.read("source").splitlines(), start=1) if "tl.load(" in text)
    assert loads[0].loc.line == source_line
    assert len(loads[0].machine) == len(machine_widths(cap, "ld")) == 32  # 64x64 bf16 over 128 threads


def test_accesses_without_machine_code_only_say_what_the_layout_allows() -> None:
    text = (DATA / "layouts" / "vector_add.sm90.ttgir").read_text()
    report = analyze_layouts(text)
    info = layout_of(report, "tt.load")
    assert "(the layout allows one 16-byte load and one 16-byte store)" in info.explanation
    assert "PTX" not in info.explanation


def test_access_width_is_plain_data() -> None:
    fields = set(AccessWidth.__dataclass_fields__)
    assert {"op", "kind", "loc", "element", "layout", "contiguous", "allowed_bytes", "machine", "stage"} <= fields


def test_layouts_json_lists_each_access_with_both_widths(shared_store: Path) -> None:
    from click.testing import CliRunner

    from irscope.cli import cli

    result = CliRunner().invoke(cli, [
        "layouts", f"{KERNELS}:upcast_kernel", "--target", "sm90", "--store", str(shared_store), "--json",
        "--args", "x_ptr=bf16[64,1000], out_ptr=fp32[64,64], stride_xm=1000",
        "--constexpr", "BLOCK_M=64", "--constexpr", "BLOCK_N=64",
    ])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output[result.output.index("{"):])
    accesses = data["modules"][0]["accesses"]
    assert [(a["op"], a["element"], a["machine_bytes"], a["agrees"], a["unaligned_args"]) for a in accesses] == [
        ("tt.load", "bf16", 2, False, ["stride_xm"]), ("tt.store", "f32", 16, True, []),
    ]
    # Line 23 holds the tl.load; its column is where Triton's front end puts the call (9 in 3.9, 16 in 3.6).
    assert re.search(r"load_widths\.py:23:\d+$", accesses[0]["loc"]) and accesses[0]["stage"] == "ptx"
