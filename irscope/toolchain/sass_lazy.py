"""Triton's ``.sass`` text of a capture, made from its cubin when first read instead of at compile time.

With ``TRITON_KERNEL_DUMP`` set, Triton runs ``cuobjdump -sass`` on every cubin it makes and rewrites
the listing (``triton.tools.disasm.get_sass``): about 0.4 s of a 1 s compile of an fla kernel. Captures
keep the cubin; the same text is made here from it on first read, with the cuobjdump Triton bundles
(found without importing Triton), and cuobjdump's output is cached under the capture's ``derived/``
keyed by the cubin's sha256 (a read-only store derives it in memory). Readers ask
irscope.toolchain.stages.read_stage, which comes here for a capture that keeps no ``.sass``; the store
itself never runs cuobjdump. The layout below is the one
Triton's dump has, byte for byte (tests compare the two on real cubins):

    Function:<name>
    LBB0:                         a branch target, numbered in the order branches name them
    --:-:0:-:7\tLDC R1, c[0x0][0x28];     wait mask:read barrier:write barrier:yield:stall, a tab, the instruction

Only the first function of the cubin is listed (a Triton cubin has one). Deriving it per capture also
means each capture's SASS is its own: Triton names its dump folder by the source hash, which leaves
out ``num_warps`` and ``num_stages``, so autotune configs that differ only there shared one ``.sass``.
"""

from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass

from irscope.errors import StoreError
from irscope.toolchain.derived import StoredCapture
from irscope.toolchain.nvtools import sass_dump

# Example: "		Function : chunk_fwd_kernel_h"
_FUNCTION = re.compile(rb"\s*Function : (\w+)\s*")
# Example: "        /*0010*/                   LDC R1, c[0x0][0x28] ;                /* 0x00000a00ff017b82 */"
_INSTRUCTION = re.compile(rb"\s*/\*\w{4,}\*/\s*([^;]*;)\s*/\* 0x(\w{16}) \*/\s*")
# Example: "                                                                      /* 0x000fe40000000f00 */"
_CONTROL = re.compile(rb"\s*/\* 0x(\w{16}) \*/\s*")
# Example: "@!P0 BRA 0x1f0;"  (an instruction as listed, its target an address)
_BRANCH = re.compile(r"(.*BRA(?:\.U)? )(0x\w+);")

_MEMO: dict[tuple[str, str], str] = {}
_MEMO_LOCK = threading.Lock()


@dataclass(frozen=True)
class SassListing:
    """Triton's SASS text of one cubin, or why it could not be made.

    Attributes:
        text: the listing (empty when ``problem`` is set).
        problem: what could not be read in cuobjdump's output, else "".
    """

    text: str
    problem: str = ""


def control_field(word: int) -> str:
    """The scheduling fields of an instruction's control word as ``wait:read:write:yield:stall``."""
    stall = (word >> 41) & 0xF
    yields = (word >> 45) & 0x1
    write = (word >> 46) & 0x7
    read = (word >> 49) & 0x7
    wait = (word >> 52) & 0x3F
    return (f"{'--' if wait == 0 else f'{wait:02d}'}:{'-' if read == 7 else read}:"
            f"{'-' if write == 7 else write}:{'Y' if yields == 0 else '-'}:{stall:x}")


def format_cuobjdump(raw: bytes) -> SassListing:
    """``cuobjdump -sass`` output laid out as Triton's ``.sass`` dump (its first function)."""
    lines = raw.splitlines()
    at = next((i for i, line in enumerate(lines) if _FUNCTION.match(line)), None)
    if at is None:
        return SassListing("", "cuobjdump printed no 'Function :' line")
    head = _FUNCTION.match(lines[at])
    assert head is not None
    at += 2  # the function line, then .headerflags
    rows: list[tuple[str, str]] = []
    targets: dict[int, int] = {}  # branch target address -> label number
    while at < len(lines) and (first := _INSTRUCTION.match(lines[at])):
        if at + 1 >= len(lines) or (second := _CONTROL.match(lines[at + 1])) is None:
            return SassListing("", f"cuobjdump line {at + 2}: no control word after the instruction")
        asm = first.group(1).decode()
        if asm.endswith(" ;"):
            asm = asm[:-2] + ";"
        if branch := _BRANCH.match(asm):
            targets.setdefault(int(branch.group(2), 16), len(targets))
        rows.append((control_field(int(second.group(1), 16)), asm))
        at += 2
    out = [f"Function:{head.group(1).decode()}\n"]
    for number, (control, asm) in enumerate(rows):
        if number * 16 in targets:
            out.append(f"LBB{targets[number * 16]}:\n")
        if branch := _BRANCH.match(asm):
            label = f"LBB{targets[int(branch.group(2), 16)]}"
            asm = _BRANCH.sub(lambda m: f"{m.group(1)}{label};", asm)  # noqa: B023 -- used at once
        out.append(f"{control}\t{asm}\n")
    out.append("\n")
    return SassListing("".join(out))


def sass_from_cubin(capture: StoredCapture) -> str:
    """Triton's ``.sass`` text for the capture's cubin, made with cuobjdump (cached in ``derived/``)."""
    try:
        digest = hashlib.sha256((capture.path / capture.manifest.files["cubin"]).read_bytes()).hexdigest()
    except (OSError, KeyError) as exc:
        raise StoreError(f"capture {capture.manifest.key}: its SASS is made from the cubin, which cannot be "
                         f"read ({exc})") from None
    key = (str(capture.path), digest)
    with _MEMO_LOCK:
        if key in _MEMO:
            return _MEMO[key]
    run = sass_dump(capture)
    if not run.ok:
        why = run.problem or f"cuobjdump exited with status {run.returncode}: {run.stderr.strip()[:200]}"
        raise StoreError(f"capture {capture.manifest.key}: its SASS is made from the cubin with cuobjdump, "
                         f"which failed: {why}")
    listing = format_cuobjdump(run.stdout.encode())
    if listing.problem:
        raise StoreError(f"capture {capture.manifest.key}: cannot lay out cuobjdump's SASS: {listing.problem}")
    with _MEMO_LOCK:
        if len(_MEMO) > 256:
            _MEMO.clear()
        _MEMO[key] = listing.text
    return listing.text
