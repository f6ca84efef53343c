"""Libdevice's rarely taken slow paths in a PTX listing, so that the model does not count them as work.

``__nv_sinf``, ``__nv_cosf``, ``__nv_tanf`` and their kin reduce the argument to [-pi/4, pi/4] in one of two ways:
a few FMAs against pi/2 split in three while ``|x| < 105615``, and beyond that Payne and Hanek's reduction, a loop
over the 2/pi table ``__cudart_i2opi_f`` and some 60 more instructions. The PTX branches over the slow path:

    setp.ltu.f32 	%p2, %r28, 0f47CE4780;      // |x| < 105615.0
    @%p2 bra 	$L__BB0_8;                      // the fast path: skip to the merge block (other instructions may
                                                // come between, and a later call on the same x reuses %p2)
    ...                                         // the slow path (its loop reads __cudart_i2opi_f)
    $L__BB0_8:                                  // %__internal_trig_reduction_kernel.exit

Counting every instruction once makes a rotary-embedding kernel with eight sines and cosines per element look
compute bound (the H200 ran the Llama's in half the predicted time). A region is taken for a slow path only when
the branch's target lies ahead and the instructions it skips read ``__cudart_i2opi_f``: that table is used by
nothing else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["TRIG_SLOW_LIMIT", "SlowPath", "slow_note", "slow_paths"]

TRIG_SLOW_LIMIT = 105615.0  # libdevice's bound on |x| for the fast reduction (0f47CE4780)
_TABLE = "__cudart_i2opi_f"
# Example: 	setp.ltu.f32 	%p2, %r28, 0f47CE4780;
_SETP = re.compile(r"^\s*setp\.\w+\.f32\s+(?P<pred>%p\d+)\s*,\s*%\w+\s*,\s*0f47CE4780\s*;")
# Example: 	setp.neu.f32 	%p115, %r21, 0f7F800000;    (an instruction that writes a predicate)
_WRITES_PRED = re.compile(r"^\s*(?:setp|set|and|or|xor|not|mov|selp)\.\S*\s+(?P<pred>%p\d+)\s*,")
# Example: 	@%p2 bra 	$L__BB0_8;
_BRANCH = re.compile(r"^\s*@(?P<pred>%p\d+)\s+bra(?:\.uni)?\s+(?P<target>[$\w]+)\s*;")
# Example: $L__BB0_8:                              // %__internal_trig_reduction_kernel.exit.i.i
_LABEL = re.compile(r"^(?P<label>[$\w]+):")


@dataclass(frozen=True)
class SlowPath:
    """One slow path: the PTX lines ``first`` to ``last`` (both included) that the fast path branches over."""

    first: int
    last: int


def slow_paths(ptx: str) -> tuple[SlowPath, ...]:
    """The trigonometric slow paths of a PTX listing (line numbers from 1), in order."""
    lines = ptx.splitlines()
    labels = {m["label"]: n for n, text in enumerate(lines, start=1) if (m := _LABEL.match(text))}
    table = [0]  # table[n]: how many of the first n lines name the table (so each region is checked in O(1))
    for text in lines:
        table.append(table[-1] + (_TABLE in text))
    found: list[SlowPath] = []
    limit: set[str] = set()  # predicates that hold a comparison against the limit (until written again)
    for number, text in enumerate(lines, start=1):
        if found and number <= found[-1].last:
            continue
        if setp := _SETP.match(text):
            limit.add(setp["pred"])
            continue
        if (written := _WRITES_PRED.match(text)) is not None:
            limit.discard(written["pred"])
            continue
        branch = _BRANCH.match(text)
        if branch and branch["pred"] in limit:
            end = labels.get(branch["target"], 0)
            if end > number and table[end - 1] > table[number]:
                found.append(SlowPath(number + 1, end - 1))
    return tuple(found)


def slow_note(paths: tuple[SlowPath, ...], skipped: int) -> str:
    """The assumption the model states when it left ``skipped`` instructions of ``paths`` uncounted."""
    return (f"{len(paths)} sine/cosine slow path(s) of libdevice (Payne-Hanek reduction, {skipped} PTX instructions) "
            f"not counted: only arguments with |x| >= {TRIG_SLOW_LIMIT:.0f} take them")
