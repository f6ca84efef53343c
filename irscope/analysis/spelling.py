"""One IR spelled two ways: what two Triton versions print differently for the same MLIR, set aside before comparing.

Each respelling names what it sets aside, so a comparison can say which it used. Only differences whose
lowering is known to be the same are here; anything that may change the code stays in the text.
"""

from __future__ import annotations

import re

__all__ = ["ALLOC_SHAPE", "CONTIGUITY", "VALUE_NAMES", "rename_values", "respell", "split_data_layout"]

ALLOC_SHAPE = "memdesc allocation shapes"
CONTIGUITY = "contiguity hints on async copies and buffer operations"
VALUE_NAMES = "SSA value names"

# Example: !ttg.memdesc<64x64xbf16, #shared, #smem, mutable, 2x64x64>
#          -> <64x64xbf16, #shared, #smem, mutable, 2x64x64>
# (one buffer of a multi-buffered allocation with the allocation's shape after it, as Triton 3.5 prints it)
_ALLOC = re.compile(r"(<(?P<shape>\d+(?:x\d+)*)x[\w.]+(?:, #[\w.]+){2}(?:, mutable)?), (?P<alloc>\d+(?:x\d+)*)>")
# Example: ttg.async_copy_global_to_local %ptrs, %buf mask %m {contiguity = 8 : i32} : tensor<...> -> <...>
# Example: amdg.buffer_load %q_ptr[%offs], %mask cacheModifier = cg {contiguity = 8 : i32} : tensor<128x64xbf16, ...>
_CONTIGUITY = re.compile(r"((?:ttg\.async_copy_global_to_local|amdg\.buffer_load(?:_to_local)?|amdg\.buffer_store) "
                         r"[^{}\n]*?) \{contiguity = \d+ : i32\}")
# Example: %acc_12   %arg21   %12   %seq_idx   (an SSA value as printed; the name is the printer's choice)
_VALUE = re.compile(r"%[\w$.-]+")
# Example:     %a, %b:2 = scf.for ...   (an op's results, defined on the left of its line's first " = ")
_RESULTS = re.compile(r"^\s*(%[\w$.-]+(?::\d+)?(?:, %[\w$.-]+(?::\d+)?)*) = ")
# What follows a value where it is defined: ": i32" (a block's argument) or " = %init" (a loop's argument)
_DEFINED = re.compile(r"(?::\d+)? = |: ")


# Example: target datalayout = "e-p3:32:32-p4:32:32-p5:32:32-p6:32:32-p7:32:32-p101:32:32-i64:64-...-n16:32:64"
_DATA_LAYOUT = re.compile(r'^target datalayout = "([^"\n]*)"\n?', re.M)


def split_data_layout(text: str) -> tuple[str, str]:
    """LLVM IR without its ``target datalayout`` line, and that layout ('' when it has none).

    LLVM versions describe one target's data with more or fewer entries (LLVM 22 adds NVPTX's address space
    101); an entry the code relies on changes the instructions too, where the comparison sees it.
    """
    m = _DATA_LAYOUT.search(text)
    if m is None:
        return text, ""
    return text[:m.start()] + text[m.end():], m.group(1)


def _drop_alloc_shape(m: re.Match[str]) -> str:
    shape, alloc = m["shape"].split("x"), m["alloc"].split("x")
    return m.group(1) + ">" if alloc[len(alloc) - len(shape):] == shape else m.group(0)


def respell(text: str) -> tuple[str, frozenset[str]]:
    """MLIR text in one spelling, and what was set aside to get it (empty when the text already was).

    - A memdesc's allocation shape where it only adds leading (buffer) dims: Triton 3.5 prints one buffer of a
      multi-buffered allocation as ``memdesc<64x64xbf16, ..., mutable, 2x64x64>``, 3.6 without the suffix. The
      buffer's layout and strides come from its trailing dims, which are its shape either way. An allocation
      shape whose trailing dims differ (a slice of a larger tile: other strides) is kept.
    - ``{contiguity = N}`` on ``ttg.async_copy_global_to_local`` and AMD's buffer loads and stores: Triton 3.6's
      pipeliner and 3.7's ``tritonamdgpu-convert-buffer-ops`` record the vector width that the earlier
      version's lowering derives from the pointers itself. Where the widths differ, the lowered code differs,
      and the comparison finds it in the lowering pass.
    """
    used: set[str] = set()
    if ", mutable, " in text or re.search(r"#\w+, \d", text):
        out = _ALLOC.sub(_drop_alloc_shape, text)
        if out != text:
            used.add(ALLOC_SHAPE)
            text = out
    if "{contiguity = " in text:
        out = _CONTIGUITY.sub(r"\1", text)
        if out != text:
            used.add(CONTIGUITY)
            text = out
    return text, frozenset(used)


def rename_values(text: str) -> str:
    """MLIR text with every SSA value renamed by the order of its definition (``%v1``, ``%v2``, ...).

    Two texts that are equal after this are one IR whose values the printers named differently (Triton 3.7
    names a loop's block arguments after the source's variables, ``%left``, where 3.6 printed ``%seq_idx_122``).
    A name is bound where it is defined (an op's results, a block's or loop's arguments) and a use takes the
    latest binding, so a name two sibling regions each define is two values, and a value used twice stays one.
    """
    names: dict[str, str] = {}
    defined = 0
    out = []
    for line in text.split("\n"):
        results = _RESULTS.match(line)
        cut = results.end(1) if results else 0
        pieces, at = [], 0
        for m in _VALUE.finditer(line):
            name = m.group(0)
            if m.start() < cut or _DEFINED.match(line, m.end()) or name not in names:
                defined += 1
                names[name] = f"%v{defined}"
            pieces += [line[at:m.start()], names[name]]
            at = m.end()
        out.append("".join(pieces) + line[at:])
    return "\n".join(out)
