"""Triton's ``.sass`` text of a capture, made from its cubin when first read instead of at compile time.

With ``TRITON_KERNEL_DUMP`` set, Triton runs ``cuobjdump -sass`` on every cubin it makes and rewrites
the listing (``triton.tools.disasm.get_sass``): about 0.4 s of a 1 s compile of an fla kernel. Captures
keep the cubin; the same text is made here from it on first read, from the one ``nvdisasm`` run the SASS
readers share (irscope.toolchain.nvtools.disassembly: the same instructions and encodings cuobjdump prints,
its labels turned back into addresses), with cuobjdump itself only where that cannot be read (a cubin of
several functions); the tools are Triton's bundled ones (found without importing Triton) and their output is
cached under the capture's ``derived/`` keyed by the cubin's sha256 (a read-only store derives it in memory).
Readers ask irscope.toolchain.stages.read_stage, which comes here for a capture that keeps no ``.sass``; the
store itself never runs a tool. The layout below is the one
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
from irscope.toolchain.nvtools import cached_sass_dump, disassembly, sass_dump

# Example: "		Function : chunk_fwd_kernel_h"
_FUNCTION = re.compile(rb"\s*Function : (\w+)\s*")
# Example: "        /*0010*/                   LDC R1, c[0x0][0x28] ;                /* 0x00000a00ff017b82 */"
_INSTRUCTION = re.compile(rb"\s*/\*\w{4,}\*/\s*([^\s;][^;]*;)\s*/\* 0x(\w{16}) \*/\s*")
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
    while at < len(lines) and (first := _INSTRUCTION.match(lines[at])):
        if at + 1 >= len(lines) or (second := _CONTROL.match(lines[at + 1])) is None:
            return SassListing("", f"cuobjdump line {at + 2}: no control word after the instruction")
        rows.append((control_field(int(second.group(1), 16)), first.group(1).decode()))
        at += 2
    return _layout(head.group(1).decode(), rows)


# nvdisasm's listing (irscope.toolchain.nvtools.disassembly). Example: ".text.matmul_kernel:"
_SECTION = re.compile(r"\.text\.(\S+):\s*")
# Examples: ".L_x_3:", "matmul_kernel:", "$__internal_0_$__cuda_sm10x_tcgen05_guardrail_trap_...:"
_LABEL = re.compile(r"(\S+):\s*")
# Example: "        /*0250*/   @!P0 BRA `(.L_x_0) ;            /* 0x0000000000bc8947 */"; the instruction starts at a
# non-space (here and in _INSTRUCTION), so a long run of spaces is read once, not once per space
_NV_INSTRUCTION = re.compile(r"\s*/\*([0-9a-f]{4,})\*/\s*([^\s;][^;]*;)\s*/\* 0x([0-9a-f]{16}) \*/\s*")
_NV_CONTROL = re.compile(r"\s*/\* 0x([0-9a-f]{16}) \*/\s*")
# Example: "`(.L_x_0)", printed by cuobjdump as the label's address
_LABEL_USE = re.compile(r"`\(([^)\s]+)\)")
# Example: ' (*"BRANCH_TARGETS .L_x_52,.L_x_53"*)' after an indirect branch; cuobjdump prints none
_NOTE = re.compile(r'\s*\(\*"[^"]*"\*\)')


def format_nvdisasm(text: str) -> SassListing:
    """``nvdisasm -c -hex`` output (with or without line info) laid out as Triton's ``.sass`` dump, the same text
    :func:`format_cuobjdump` makes of ``cuobjdump -sass`` on that cubin; a problem for a cubin of several
    functions (whose order cuobjdump decides)."""
    lines = text.split("\n")
    names: list[str] = []
    found: list[tuple[int, str, int]] = []  # address, instruction as printed, control word
    labels: dict[str, int] = {}
    waiting: list[str] = []  # labels defined before the next instruction
    at = 0
    while at < len(lines):
        line = lines[at]
        if section := _SECTION.fullmatch(line):
            names.append(section.group(1))
            waiting.append(line.strip()[:-1])
        elif label := _LABEL.fullmatch(line):
            waiting.append(label.group(1))
        elif first := _NV_INSTRUCTION.fullmatch(line):
            if at + 1 >= len(lines) or (second := _NV_CONTROL.fullmatch(lines[at + 1])) is None:
                return SassListing("", f"nvdisasm line {at + 2}: no control word after the instruction")
            address = int(first.group(1), 16)
            labels.update(dict.fromkeys(waiting, address))
            waiting = []
            found.append((address, first.group(2), int(second.group(1), 16)))
            at += 1
        at += 1
    if len(names) != 1:
        return SassListing("", f"nvdisasm listed {len(names)} functions, not one")
    labels.update(dict.fromkeys(waiting, found[-1][0] + 16 if found else 0))
    rows = []
    for _, asm, word in found:
        try:
            asm = _LABEL_USE.sub(lambda m: hex(labels[m.group(1)]), _NOTE.sub("", asm))
        except KeyError as exc:
            return SassListing("", f"nvdisasm names a label it never defines: {exc}")
        rows.append((control_field(word), asm))
    return _layout(names[0], rows)


def _layout(name: str, rows: list[tuple[str, str]]) -> SassListing:
    """Triton's layout of (control field, instruction as cuobjdump prints it) rows: branch targets as labels."""
    targets: dict[int, int] = {}  # branch target address -> label number
    tidy = []
    for _, asm in rows:
        if asm.endswith(" ;"):
            asm = asm[:-2] + ";"
        if branch := _BRANCH.match(asm):
            targets.setdefault(int(branch.group(2), 16), len(targets))
        tidy.append(asm)
    out = [f"Function:{name}\n"]
    for number, ((control, _), asm) in enumerate(zip(rows, tidy, strict=True)):
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
    listing = _listing(capture)
    with _MEMO_LOCK:
        if len(_MEMO) > 256:
            _MEMO.clear()
        _MEMO[key] = listing.text
    return listing.text


def _listing(capture: StoredCapture) -> SassListing:
    """The layout from a cuobjdump run made before, else from the shared disassembly, else from cuobjdump."""
    run = cached_sass_dump(capture)
    if run is None:
        whole = disassembly(capture)
        if whole.ok and not (listing := format_nvdisasm(whole.stdout)).problem:
            return listing
        run = sass_dump(capture)
    if not run.ok:
        why = run.problem or f"cuobjdump exited with status {run.returncode}: {run.stderr.strip()[:200]}"
        raise StoreError(f"capture {capture.manifest.key}: its SASS is made from the cubin with cuobjdump, "
                         f"which failed: {why}")
    listing = format_cuobjdump(run.stdout.encode())
    if listing.problem:
        raise StoreError(f"capture {capture.manifest.key}: cannot lay out cuobjdump's SASS: {listing.problem}")
    return listing
