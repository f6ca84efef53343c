"""Global loads a thread keeps outstanding, read from the SASS's scoreboards (irscope.analysis.perf.inflight)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from irscope.analysis.perf.inflight import loads_in_flight

# The start of Inductor's triton_red_fused_sum_view_7 (GPT-2's backward, H200 capture, Triton 3.6): its PTX loop
# loads 8 bytes per iteration; ptxas unrolled the 16 iterations and issues seven loads before the first use.
GPT2_SUM = """\
--:-:2:-:1\tLDG.E.EF.64 R14, desc[UR4][R14.64];
--:-:-:-:1\tLEA R12, P0, R5.reuse, UR6, 0x1;
--:-:3:-:1\tLDG.E.EF.64 R16, desc[UR4][R16.64];
--:-:4:-:1\tLDG.E.EF.64 R12, desc[UR4][R12.64];
--:-:5:-:1\tLDG.E.EF.64 R10, desc[UR4][R10.64];
--:-:5:-:1\tLDG.E.EF.64 R4, desc[UR4][R4.64];
--:-:5:-:1\tLDG.E.EF.64 R8, desc[UR4][R8.64];
--:-:5:-:1\tLDG.E.EF.64 R6, desc[UR4][R6.64];
04:-:-:-:1\tPRMT R18, R15.reuse, 0x7632, R18;
08:-:-:-:1\tPRMT R21, R16.reuse, 0x7632, R21;
--:-:2:-:1\tLDG.E.EF.64 R20, desc[UR4][R20.64];
16:-:-:-:2\tIMAD.U32 R14, R12, 0x10000, RZ;
"""


def test_loads_issued_before_their_first_use_are_all_in_flight() -> None:
    assert loads_in_flight(GPT2_SUM) == 7 * 8  # then the waits on scoreboards 2 and 3 retire two of them


def test_a_wait_retires_the_loads_of_its_scoreboards_only() -> None:
    text = "--:-:1:-:1\tLDG.E.128 R4, desc[UR4][R2.64];\n02:-:-:-:1\tFADD R1, R4, R5;\n--:-:1:-:1\tLDG.E R8, [R2];\n"
    assert loads_in_flight(text) == 16  # the 4-byte load comes after the 16-byte one was waited for
    assert loads_in_flight("--:-:3:-:1\tLDG.E.U8 R1, [R2];\n--:-:3:-:1\tLDG.E.U16 R3, [R2];\n") == 3


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["LDG", "--:-:2:-:1\t", "zz:-:9:-:1\t", "ff:", ".64", ".128", " R1", "\n", ";",
                                   "@!P0 ", "LDG.E", "0", ":", "-"]), max_size=60))
def test_odd_text_never_raises(parts: list[str]) -> None:
    assert loads_in_flight("".join(parts)) >= 0.0
