"""The first of LLVM's own passes whose output differs, when every MLIR pass agrees (issue 29's "go down").

tests/data/divergence/vector_add.sm90.llir-passes.{3.7.1,3.9.0}.llvm.gz: the llir stage of vector_add's dump
with ``LLVM_IR_ENABLE_DUMP=1`` (``irscope passes vector_add --target sm90 --llvm``) under Triton 3.7.1 and
3.9.0, whose MLIR passes all agree (``irscope compare vector_add --target sm90 --triton 3.7.1 --vs-triton
current``); the Tritons' install paths in the debug info are shortened to /site-packages/.
"""

from __future__ import annotations

from pathlib import Path

from irscope.analysis.diff import DiffOptions, normalize
from irscope.analysis.divergence import lower_pass_divergence
from irscope.analysis.ir_facts import llvm_function
from irscope.analysis.spelling import split_data_layout
from irscope.store.passdump import PassDump, scan_dump

DATA = Path(__file__).resolve().parent / "data" / "divergence"


def _dump(version: str) -> PassDump:
    return scan_dump(DATA / f"vector_add.sm90.llir-passes.{version}.llvm.gz")


def _code(dump: PassDump, section: int, function: str) -> list[str]:
    text = split_data_layout(dump.body(section))[0]
    return normalize(llvm_function(text, function), "llvm", DiffOptions(normalize_ssa=True))


def test_llvm_22s_instcombine_is_where_vector_add_parts_ways():
    """Triton 3.9's LLVM rewrites the kernel's typed GEPs into byte offsets in InstCombine; 3.7.1's keeps them."""
    a, b = _dump("3.7.1"), _dump("3.9.0")
    found = lower_pass_divergence(a, b, "llir")
    assert (found.level, found.stage, found.pass_name, found.dump) == ("pass", "llir", "InstCombinePass", "llvm")
    assert found.index_a is not None and found.index_b is not None
    pa, pb = a.index.passes[found.index_a], b.index.passes[found.index_b]
    assert pa.name == pb.name == "InstCombinePass" and pa.ir == pb.ir == "llvm"
    assert "A: %18 = getelementptr float, ptr addrspace(1) %0, i64 %17" in found.effect
    assert "B: %18 = getelementptr [4 x i8], ptr addrspace(1) %0, i64 %17" in found.effect
    # What the pass got agrees on the two sides; what it made does not, and no later pass makes them agree.
    assert pa.input is not None and pb.input is not None and pa.output is not None and pb.output is not None
    assert _code(a, pa.input, "add_kernel") == _code(b, pb.input, "add_kernel")
    assert _code(a, pa.output, "add_kernel") != _code(b, pb.output, "add_kernel")
    last_a, last_b = a.index.passes[-1], b.index.passes[-1]
    assert last_a.output is not None and last_b.output is not None
    assert _code(a, last_a.output, "add_kernel") != _code(b, last_b.output, "add_kernel")
    # LLVM 22 describes NVPTX's data with one entry more: set aside, and said.
    assert found.note.endswith("set aside: the target data layout strings differ (B only: p101:32:32)")


def test_a_dump_against_itself_has_no_llvm_divergence():
    found = lower_pass_divergence(_dump("3.9.0"), _dump("3.9.0"), "llir")
    assert found.level == "none" and "LLVM passes of llir" in found.note
