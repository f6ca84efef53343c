"""What width ptxas gave each source line's shared loads and stores: the SASS side of the bank model.

ptxas merges a thread's neighbouring 4-byte ``ld.shared.b32`` into ``LDS.64`` / ``LDS.128`` when the
addresses allow (an FMA dot's operand loads on sm90: 160 PTX ``ld.shared.b32`` per warp became 63
``LDS.128``). The hardware splits a request by the SASS width, so the bank model must use it.
"""

from __future__ import annotations

import re
from collections import Counter

from irscope.parse.lineinfo import Listing
from irscope.parse.mlir_locs import innermost_in

__all__ = ["sass_widths"]

# Example: LDS.128 | LDS.U.64 | STS | STS.128   (not LDSM / STSM / LDGSTS, which move data differently)
_SASS_LSU = re.compile(r"^(?P<op>LDS|STS)(?:\.U)?(?:\.(?P<bits>32|64|128))?$")


def sass_widths(listing: Listing, kernel_file: str) -> dict[tuple[str, int, str], int]:
    """(file name, line, ``ld``/``st``) -> the bytes per lane of that line's most common LDS/STS form."""
    forms: dict[tuple[str, int, str], Counter[int]] = {}
    for insn in listing.instructions:
        match = _SASS_LSU.match(insn.opcode)
        own = ((innermost_in(insn.frames, kernel_file) if kernel_file else None)
               or (insn.frames[0] if insn.frames else None))
        if match is None or own is None:
            continue
        key = (own.file.rsplit("/", 1)[-1], own.line, "ld" if match["op"] == "LDS" else "st")
        forms.setdefault(key, Counter())[int(match["bits"] or 32) // 8] += 1
    return {key: counts.most_common(1)[0][0] for key, counts in forms.items()}
