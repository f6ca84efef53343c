"""Parsing layout encodings: real TTGIR from Triton 3.9 and hand-written snippets of every kind."""

from __future__ import annotations

from pathlib import Path

import pytest

from irscope.parse import layouts as L
from irscope.parse.layouts import parse_layout, parse_layouts, split_modules
from irscope.parse.mlir_attrs import (
    AliasRef,
    AttrParseError,
    DialectAttr,
    Ident,
    parse_attr_body,
    parse_attr_value,
)
from irscope.parse.ttgir_ops import (
    SourceLoc,
    element_bits,
    parse_locations,
    parse_module_info,
    parse_types,
    scan_ops,
)

DATA = Path(__file__).parent / "data" / "layouts"
SNIPPETS = DATA / "snippets"


def _table(name: str) -> L.LayoutTable:
    return parse_layouts((DATA / name).read_text())


# -- the attribute syntax --------------------------------------------------------------------------


def test_attr_values_of_every_shape() -> None:
    value = parse_attr_value('{a = [1, -2], b = {c = true}, "ttg.x-y" = 8 : i32, d = #mma, e = 0.5, f = f16, g}')
    assert value == {
        "a": [1, -2], "b": {"c": True}, "ttg.x-y": 8, "d": AliasRef("mma"), "e": 0.5, "f": Ident("f16"), "g": True,
    }


def test_nested_dialect_attr_keeps_text_and_params() -> None:
    value = parse_attr_value("#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2}>, kWidth = 2}>")
    assert isinstance(value, DialectAttr)
    assert (value.dialect, value.mnemonic) == ("ttg", "dot_op")
    parent = value.params["parent"]
    assert isinstance(parent, DialectAttr) and parent.params == {"versionMajor": 2}
    assert parent.text == "#ttg.nvidia_mma<{versionMajor = 2}>"


def test_body_forms_struct_dict_plus_entries_and_positional() -> None:
    assert parse_attr_body("blockM = 128, blockN = 64, colStride = 1") == (
        {"blockM": 128, "blockN": 64, "colStride": 1}, ()
    )
    assert parse_attr_body("{offset = [[0, 1]]}, alignment = 16") == ({"offset": [[0, 1]], "alignment": 16}, ())
    assert parse_attr_body("[32:+4] {order = [1, 0]}") == ({"order": [1, 0]}, ("[32:+4]",))


@pytest.mark.parametrize("bad", ["[1, 2", "{a = }", "#ttg.blocked<{a = [1}>", "{a = 1} trailing"])
def test_malformed_attributes_raise_attr_parse_error(bad: str) -> None:
    with pytest.raises(AttrParseError):
        parse_attr_value(bad)


# -- golden TTGIR compiled with Triton 3.9 ---------------------------------------------------------


def test_matmul_sm90_aliases_in_order() -> None:
    table = _table("matmul.sm90.ttgir")
    assert list(table.aliases) == ["blocked", "blocked1", "mma", "shared"]
    assert table.memory_spaces == {"smem": "ttg.shared_memory"}
    assert table.problems == []
    assert table.get("#blocked1") == L.BlockedLayout(
        size_per_thread=(1, 8), threads_per_warp=(4, 8), warps_per_cta=(8, 1), order=(1, 0)
    )
    assert table.get("mma") == L.NvidiaMmaLayout(
        version_major=3, version_minor=0, warps_per_cta=(8, 1), instr_shape=(16, 256, 16)
    )
    assert table.get("shared") == L.NVMMASharedLayout(
        swizzling_byte_width=128, transposed=False, element_bit_width=16
    )
    mma = table.get("mma")
    assert mma is not None and mma.name == "mma" and mma.label == "#mma"
    assert mma.text == ("#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [8, 1], "
                        "instrShape = [16, 256, 16]}>")


def test_matmul_sm80_and_gfx942_layouts() -> None:
    sm80 = _table("matmul.sm80.ttgir")
    assert sm80.get("mma") == L.NvidiaMmaLayout(version_major=2, version_minor=0, warps_per_cta=(2, 4),
                                                instr_shape=(16, 8))
    assert sm80.get("shared") == L.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=(1, 0))
    amd = _table("matmul.gfx942.ttgir")
    assert amd.get("mma") == L.AmdMfmaLayout(version=3, warps_per_cta=(2, 4), instr_shape=(32, 32, 8),
                                             is_transposed=True)
    assert amd.get("shared1") == L.AmdRotatingSharedLayout(vec=4, per_phase=1, max_phase=16, order=(0, 1))
    linear = amd.get("linear")
    assert isinstance(linear, L.DistributedLinearLayout)
    assert linear.register == ((1, 0), (2, 0), (0, 1), (0, 2), (0, 4))
    assert linear.lane == ((0, 8), (0, 16), (0, 32), (0, 64), (0, 128), (4, 0))
    assert linear.warp == ((8, 0), (16, 0), (32, 0)) and linear.block == () and linear.rank == 2


@pytest.mark.parametrize("path", sorted(DATA.glob("*.ttgir")), ids=lambda p: p.stem)
def test_every_golden_file_parses_cleanly(path: Path) -> None:
    table = parse_layouts(path.read_text())
    assert table.problems == []
    assert table.layouts and not any(isinstance(layout, L.OpaqueLayout) for layout in table.layouts)


def test_inline_layouts_resolve_their_parent_alias() -> None:
    table = _table("matmul.sm80.ttgir")
    dot = parse_layout("#ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>", table.aliases)
    assert isinstance(dot, L.DotOperandLayout)
    assert dot.parent is table.get("mma") and dot.k_width == 2 and dot.name == ""
    sliced = parse_layout("#ttg.slice<{dim = 1, parent = #blocked1}>", table.aliases)
    assert sliced == L.SliceLayout(dim=1, parent=table.aliases["blocked1"])


# -- hand-written snippets: every other kind -------------------------------------------------------


def test_all_kinds_snippet() -> None:
    table = parse_layouts((SNIPPETS / "all_kinds.ttgir").read_text())
    assert table.problems == []
    kinds = {name: type(layout).__name__ for name, layout in table.aliases.items()}
    assert kinds == {
        "blocked": "BlockedLayout", "blocked_cga": "BlockedLayout", "mma2": "NvidiaMmaLayout",
        "mma3": "NvidiaMmaLayout", "dotA": "DotOperandLayout", "dotB": "DotOperandLayout",
        "dotA3": "DotOperandLayout", "fma": "DotOperandLayout", "row": "SliceLayout", "mfma": "AmdMfmaLayout",
        "mfma_tiles": "AmdMfmaLayout", "wmma": "AmdWmmaLayout", "linear": "DistributedLinearLayout",
        "generic": "DistributedLinearLayout", "swizzled": "SwizzledSharedLayout", "nvmma": "NVMMASharedLayout",
        "nvmma_fp4": "NVMMASharedLayout", "rotating": "AmdRotatingSharedLayout", "padded": "PaddedSharedLayout",
        "padded_bases": "PaddedSharedLayout", "shared_linear": "SharedLinearLayout",
        "partitioned": "PartitionedSharedLayout", "tmem": "TensorMemoryLayout", "tmem_cga": "TensorMemoryLayout",
        "tmem_scales": "TensorMemoryScalesLayout", "future": "OpaqueLayout",
    }
    a = table.aliases
    assert a["blocked_cga"] == L.BlockedLayout(
        size_per_thread=(1, 1), threads_per_warp=(1, 32), warps_per_cta=(4, 1), order=(1, 0),
        cga=L.CGALayout(bases=((0, 1),)),
    )
    assert a["blocked_cga"].cga is not None and a["blocked_cga"].cga.num_ctas == 2  # type: ignore[attr-defined]
    assert a["fma"] == L.DotOperandLayout(op_idx=0, parent=a["blocked"], k_width=None)
    assert a["mfma_tiles"] == L.AmdMfmaLayout(
        version=3, warps_per_cta=(2, 2), instr_shape=(32, 32, 8), is_transposed=False, tiles_per_warp=(2, 2)
    )
    assert a["wmma"] == L.AmdWmmaLayout(
        version=3, is_transposed=True, warp_bases=((0, 1), (1, 0)), instr_shape=(16, 16, 32)
    )
    assert a["generic"] == L.DistributedLinearLayout(
        register=(), lane=((1,), (2,), (4,), (8,)), warp=((3,),), generic=True
    )
    assert a["nvmma_fp4"] == L.NVMMASharedLayout(
        swizzling_byte_width=128, transposed=True, element_bit_width=8, fp4_padded=True
    )
    assert a["padded"] == L.PaddedSharedLayout(intervals=((32, 4),), order=(1, 0), shape=(64, 64))
    assert a["padded_bases"] == L.PaddedSharedLayout(
        intervals=((512, 16), (1024, 32)), offset_bases=((0, 1), (0, 2), (1, 0))
    )
    assert a["shared_linear"] == L.SharedLinearLayout(offset_bases=((0, 1), (0, 2), (1, 0), (2, 2)), alignment=16)
    assert a["partitioned"] == L.PartitionedSharedLayout(
        num_partitions=2, num_groups=1, partition_dim=0, partition_layout=a["swizzled"]
    )
    assert a["tmem"] == L.TensorMemoryLayout(block_m=128, block_n=128, col_stride=1)
    assert a["tmem"].dialect == "ttng"
    assert a["tmem_cga"] == L.TensorMemoryLayout(
        block_m=128, block_n=64, col_stride=1, cga=L.CGALayout(bases=((0, 0),))
    )
    future = a["future"]
    assert isinstance(future, L.OpaqueLayout)
    assert future.mnemonic == "ttg.future_layout" and future.params == {"speed": 11, "ratio": 0.5}
    assert table.memory_spaces == {"smem": "ttg.shared_memory"}


def test_legacy_triton_gpu_spellings() -> None:
    table = parse_layouts((SNIPPETS / "legacy_triton_gpu.ttgir").read_text())
    assert table.problems == []
    a = table.aliases
    assert all(layout.dialect in ("triton_gpu", "triton_nvidia_gpu") for layout in a.values())
    assert a["blocked"] == L.BlockedLayout(
        size_per_thread=(4, 4), threads_per_warp=(4, 8), warps_per_cta=(4, 1), order=(1, 0),
        cga=L.CGALayout(ctas_per_cga=(1, 1), cta_split_num=(1, 1), cta_order=(1, 0)),
    )
    split = a["split"].cga  # type: ignore[attr-defined]
    assert split == L.CGALayout(ctas_per_cga=(2, 2), cta_split_num=(2, 1), cta_order=(1, 0)) and split.num_ctas == 4
    assert isinstance(a["mma"], L.NvidiaMmaLayout) and a["mma"].instr_shape == (16, 8)
    assert a["mma_implicit"] == L.NvidiaMmaLayout(version_major=2, version_minor=0, warps_per_cta=(2, 2),
                                                  instr_shape=(16, 8))
    assert a["B_nok"] == L.DotOperandLayout(op_idx=1, parent=a["mma"], k_width=None)
    assert a["rows"] == L.SliceLayout(dim=0, parent=a["blocked1"])
    assert a["mfma"] == L.AmdMfmaLayout(version=3, warps_per_cta=(2, 2), instr_shape=(32, 32, 0), is_transposed=True)
    assert a["mfma_mdim"] == L.AmdMfmaLayout(version=2, warps_per_cta=(4, 1), instr_shape=(16, 16, 0),
                                             is_transposed=False)
    assert a["wmma"] == L.AmdWmmaLayout(version=1, is_transposed=False, warps_per_cta=(2, 2))
    assert a["shared"] == L.SwizzledSharedLayout(
        vec=8, per_phase=1, max_phase=8, order=(1, 0),
        cga=L.CGALayout(ctas_per_cga=(1, 1), cta_split_num=(1, 1), cta_order=(0, 1)),
    )
    assert a["shared_lo"] == L.SwizzledSharedLayout(vec=8, per_phase=1, max_phase=8, order=(1, 0),
                                                    has_leading_offset=True)
    assert a["tmem_old"] == L.TensorMemoryLayout(block_m=128, block_n=128, unpacked=True)
    info = parse_module_info((SNIPPETS / "legacy_triton_gpu.ttgir").read_text())
    assert (info.num_warps, info.threads_per_warp, info.target) == (4, 32, "cuda:80")


def test_problems_are_collected_never_raised() -> None:
    table = parse_layouts((SNIPPETS / "malformed.ttgir").read_text())
    assert table.problems == [
        "#missing: cannot read ttg.blocked: missing threadsPerWarp",
        "#badtype: cannot read ttg.swizzled_shared: vec is not an integer",
        "#unbalanced: unreadable attribute: '<' at 12 is never closed (expected ']') in "
        "'#ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8'",
        "#orphan: parent refers to undefined alias #nowhere",
        "line 6: #ok is defined again (several modules? use split_modules); kept the first",
    ]
    assert isinstance(table.aliases["missing"], L.OpaqueLayout)
    assert table.aliases["missing"].params == {"sizePerThread": [1, 8], "order": [1, 0]}  # type: ignore[attr-defined]
    orphan = table.aliases["orphan"]
    assert isinstance(orphan, L.SliceLayout) and isinstance(orphan.parent, L.OpaqueLayout)
    assert table.aliases["ok"] == L.BlockedLayout(size_per_thread=(1,), threads_per_warp=(32,), warps_per_cta=(4,),
                                                  order=(0,))


def test_split_modules_of_a_lit_file() -> None:
    modules = split_modules((SNIPPETS / "lit_multi_module.mlir").read_text())
    assert len(modules) == 2
    first, second = (parse_layouts(m) for m in modules)
    assert first.problems == second.problems == []
    assert first.get("blocked") != second.get("blocked")
    assert list(second.aliases) == ["blocked", "mma"]
    assert split_modules("#a = #ttg.blocked<{}>\nmodule {}") == ["#a = #ttg.blocked<{}>\nmodule {}"]


# -- op lines, types and locations -----------------------------------------------------------------


def test_parse_types_on_one_line() -> None:
    line = ("%a = ttg.async_copy_global_to_local %p, %b : tensor<128x64x!tt.ptr<f16>, #blocked1> -> "
            "<128x64xf16, #shared, #smem, mutable> loc(#loc86)")
    (_, ptrs), (_, dest) = parse_types(line)
    assert (ptrs.kind, ptrs.shape, ptrs.element, ptrs.encoding) == ("tensor", (128, 64), "!tt.ptr<f16>", "#blocked1")
    assert (dest.kind, dest.shape, dest.element, dest.encoding, dest.memory_space) == (
        "memdesc", (128, 64), "f16", "#shared", "#smem"
    )
    (_, md), = parse_types("%x = ttg.local_alloc : () -> !ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>")
    assert md.shape == (3, 128, 64) and md.text == "!ttg.memdesc<3x128x64xf16, #shared, #smem, mutable>"
    (_, inline), = parse_types("tensor<16x256xf16, #ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>>")
    assert inline.encoding == "#ttg.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>"
    assert parse_types("%c = arith.constant 1 : i32") == []


def test_locations_resolve_through_names_callsites_and_fused() -> None:
    locs = parse_locations((SNIPPETS / "all_kinds.ttgir").read_text())
    assert locs["loc2"] == SourceLoc("kernel.py", 11, 4)  # a NameLoc
    assert locs["loc4"] == SourceLoc("kernel.py", 12, 10)  # callsite: the caller, not Triton's library
    assert locs["loc5"] is None  # unknown
    assert locs["loc7"] == SourceLoc("kernel.py", 14, 15)  # fused: the first known one
    assert locs["loc9"] == SourceLoc("kernel.py", 16, 8)  # a NameLoc around a file position
    assert str(locs["loc1"]) == "kernel.py:11:4"


def test_scan_ops_roles_regions_and_locations() -> None:
    ops = scan_ops((SNIPPETS / "all_kinds.ttgir").read_text())
    by_op = {op.op: op for op in ops}
    dot = by_op["tt.dot"]
    assert dot.results == ("%d",) and dot.line == 35
    assert [t.encoding for t in dot.operand_types] == ["#dotA", "#dotB"]
    assert [t.encoding for t in dot.result_types] == ["#mma2"]
    assert dot.loc == SourceLoc("kernel.py", 14, 15)
    reduce = by_op["tt.reduce"]  # its types sit on the line closing its region
    assert reduce.line == 37 and reduce.results == ("%s",)
    assert [t.encoding for t in reduce.operand_types] == ["#blocked"]
    assert [t.encoding for t in reduce.result_types] == ["#row"]
    func = by_op["tt.func"]
    assert func.results == () and [t.encoding for t in func.operand_types] == ["#blocked"]
    tmem = by_op["ttng.tmem_alloc"]
    assert tmem.result_types[0].memory_space == "#ttng.tensor_memory"


def test_golden_scan_finds_the_matmul_ops() -> None:
    ops = scan_ops((DATA / "matmul.sm90.ttgir").read_text())
    names = {op.op for op in ops}
    assert {"ttng.warp_group_dot", "ttg.async_copy_global_to_local", "ttg.convert_layout", "tt.store"} <= names
    convert = next(op for op in ops if op.op == "ttg.convert_layout")
    assert convert.result_types[0].encoding == "#blocked" and convert.operand_types[0].encoding == "#mma"
    assert convert.loc is not None and convert.loc.file.endswith("gen_kernels.py") and convert.loc.line == 73
    info = parse_module_info((DATA / "matmul.gfx942.ttgir").read_text())
    assert (info.num_warps, info.threads_per_warp, info.num_ctas, info.target) == (8, 64, 1, "hip:gfx942")


@pytest.mark.parametrize(("element", "bits"), [
    ("f16", 16), ("bf16", 16), ("f32", 32), ("i1", 1), ("i8", 8), ("f8E4M3FN", 8), ("!tt.ptr<f16>", 64), ("f64", 64),
])
def test_element_bits(element: str, bits: int) -> None:
    assert element_bits(element) == bits


def test_comments_go_but_slashes_in_strings_stay() -> None:
    """`//` starts a comment only outside a string: a location naming `a//b.py` keeps its path."""
    from irscope.parse.mlir_text import logical_lines, strip_comment

    assert strip_comment('%0 = tt.get_program_id x : i32 loc("/w//k.py":3:4) // pid') == (
        '%0 = tt.get_program_id x : i32 loc("/w//k.py":3:4)')
    assert strip_comment('"ttg.target" = "a\\"//b" // c') == '"ttg.target" = "a\\"//b"'
    text = ('#b = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], // lanes\n'
            '  warpsPerCTA = [4], order = [0]}>\n'
            'module {\n'
            '  %0 = tt.make_range {end = 128 : i32, start = 0 : i32} : tensor<128xi32, #b> loc("/w//k.py":3:4)\n'
            '}\n')
    assert [n for n, _ in logical_lines(text)] == [1, 3, 4, 5]
    ops = scan_ops(text)
    assert len(ops) == 1 and ops[0].loc == SourceLoc("/w//k.py", 3, 4) and ops[0].line == 4
    assert parse_layouts(text).aliases["b"].warps_per_cta == (4,)  # type: ignore[attr-defined]
