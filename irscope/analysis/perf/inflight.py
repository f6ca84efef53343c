"""How many bytes of global loads a thread keeps outstanding, read from the SASS's scoreboards.

The PTX shows one iteration's loads of a loop; ptxas, given a known trip count, unrolls the loop and issues several
iterations' loads before the first use (Inductor's ``triton_red_fused_sum_view_7`` of GPT-2's backward, ``r0_numel``
128: seven 8-byte ``LDG`` back to back where the PTX loop has one). What the DRAM has in flight then is that many
loads, not one. Each ``LDG`` names the scoreboard it signals in its control code (``wait:read:write:yield:stall``,
the write barrier), and an instruction that needs a load's result waits on that scoreboard (its wait mask, hex): the
bytes of the loads issued since their scoreboard was last waited on are outstanding. The maximum over the kernel's
text, in program order, is the figure; branches are not followed (a loop's body is read once, in place).
"""

from __future__ import annotations

import re

# --:-:2:-:1	LDG.E.EF.64 R14, desc[UR4][R14.64];    (wait mask : read barrier : write barrier : yield : stall)
_LINE = re.compile(r"^\s*([0-9a-fA-F-]{2}):([0-9-]):([0-9-]):[Y-]:\d+\s+(.*)$")
_LDG = re.compile(r"^(?:@!?U?P\w+\s+)?LDG(\.[\w.]*)?\s")
_WIDTH = {"64": 8, "128": 16, "U8": 1, "S8": 1, "U16": 2, "S16": 2}


def _bytes(suffix: str) -> int:
    for part in suffix.split("."):
        if part in _WIDTH:
            return _WIDTH[part]
    return 4


def loads_in_flight(sass: str) -> float:
    """The most bytes of global loads one thread has issued and not yet waited for, anywhere in ``sass``."""
    outstanding: dict[int, float] = {}
    most = 0.0
    for raw in sass.splitlines():
        match = _LINE.match(raw)
        if match is None:
            continue
        wait, _read, write, text = match.groups()
        if wait != "--":
            try:
                mask = int(wait, 16)
            except ValueError:
                mask = 0
            for barrier in [b for b in outstanding if mask >> b & 1]:
                del outstanding[barrier]
        load = _LDG.match(text.strip())
        if load is not None and write.isdigit():
            barrier = int(write)
            outstanding[barrier] = outstanding.get(barrier, 0.0) + _bytes(load.group(1) or "")
            most = max(most, sum(outstanding.values()))
    return most
