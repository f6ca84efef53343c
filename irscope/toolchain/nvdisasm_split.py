"""One ``nvdisasm -c -gi -gp -hex`` listing split into what ``nvdisasm -c -gi`` and ``nvdisasm -c -gp`` print.

Each disassembler run costs about half a second of start-up on any cubin, however small (a cold ``report``
spent most of its time there). One run with both line tables and the encodings holds everything three runs
printed: before each instruction the source frames (``-gi``, inlining included) and the PTX line (``-gp``,
the file ``.nv_debug_ptx_txt``), and after it the two 64-bit words cuobjdump prints too. Dropping the PTX
frames and the encodings gives ``-gi``'s text, dropping the source frames gives ``-gp``'s, byte for byte
(tests/test_one_disassembly.py compares them on real cubins of sm80 to sm100). Text only, one pass, linear.
"""

from __future__ import annotations

import re

__all__ = ["ARGS", "split_listing"]

ARGS = ("-c", "-gi", "-gp", "-hex")
"""The one run's arguments."""

# Example: "                                                             /* 0x000fe40000000f00 */"
_WORD_ONLY = re.compile(r"\s+/\* 0x[0-9a-f]{16} \*/\s*")
# Example: "        /*0010*/    S2R R17, SR_CTAID.X ;                   /* 0x0000000000117919 */"
_WORD = re.compile(r"/\* 0x[0-9a-f]{16} \*/\s*")
# Example: '	//## File ".nv_debug_ptx_txt", line 38'
_PTX_FRAME = re.compile(r'\s*//## File "\.nv_debug_ptx_txt", line \d+')
# Example: '	//## File "/work/kernels/matmul.py", line 57'  (and '... inlined at "...", line 75')
_FRAME = re.compile(r"\s*//## File ")


def split_listing(text: str, keep: str) -> str:
    """The listing ``nvdisasm`` prints with ``-c -gi`` (``keep="source"``) or ``-c -gp`` (``keep="ptx"``), made
    from its output with ``-c -gi -gp -hex``."""
    if keep not in ("source", "ptx"):
        raise ValueError(f"keep={keep!r}: 'source' or 'ptx'")
    out = []
    for line in text.split("\n"):
        if _WORD_ONLY.fullmatch(line):
            continue
        if _PTX_FRAME.match(line):
            if keep == "ptx":
                out.append(line)
            continue
        if _FRAME.match(line):
            if keep == "source":
                out.append(line)
            continue
        out.append(_without_word(line))
    return "\n".join(out)


def _without_word(line: str) -> str:
    """The line without the encoding printed after its instruction (found from the right: linear)."""
    at = line.rfind("/* 0x")
    if at > 0 and line[at - 1].isspace() and _WORD.fullmatch(line, at):
        return line[:at].rstrip()
    return line
