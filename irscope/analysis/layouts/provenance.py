"""Which layouts of a kernel's final TTGIR its author wrote, and which convert_layouts the compiler inserted.

A Gluon kernel's first IR (the ``glir`` stage: Triton's code generator output, before any pass) carries the
layouts exactly as the author wrote them, and a ``ttg.convert_layout`` for each ``gl.convert_layout`` call. A
layout of the final TTGIR that the first IR already has is the author's; any other one the compiler chose
(``gl.AutoLayout`` / ``gl.CoalescedLayout`` resolved by Gluon's passes, say). A final conversion with the same
two layouts at the same source line as one of the first IR's (or a Gluon placeholder there, resolved since) is
the author's; any other the compiler inserted.
Layouts are compared by their attribute text with every alias spelled out, since both modules name their own
aliases. A Triton kernel's first IR (``ttir``) has no layouts: the compiler chose them all.
"""

from __future__ import annotations

import re
from dataclasses import replace

from irscope.analysis.layouts.conversions import Provenance
from irscope.analysis.layouts.explain import Conversion, LayoutReport, analyze_layouts

__all__ = ["with_provenance"]

# Example: #blocked1 = #ttg.blocked<{sizePerThread = [4, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], ...}>
_ALIAS = re.compile(r"^#(?P<name>[\w$-]+)\s*=\s*(?P<body>#.*)$", re.MULTILINE)
# Example: parent = #blocked   (an alias reference; `#ttg.blocked<` is a dialect attribute and is left alone)
_REFERENCE = re.compile(r"#(?P<name>[\w$-]+)(?![\w$.-])")


def _aliases(text: str) -> dict[str, str]:
    """Alias name -> its attribute text, locations left out."""
    return {m.group("name"): m.group("body").strip() for m in _ALIAS.finditer(text)
            if not m.group("name").startswith("loc")}


def _spelled_out(label: str, aliases: dict[str, str]) -> str:
    """A layout's text with every alias reference replaced by its definition, spaces removed."""
    text = label
    for _ in range(16):  # aliases refer to aliases (a slice of a blocked layout), never in a cycle
        expanded = _REFERENCE.sub(lambda m: aliases.get(m.group("name"), m.group(0)), text)
        if expanded == text:
            break
        text = expanded
    return re.sub(r"\s+", "", text)


def _same(first: str, final: str) -> bool:
    """Whether a first-IR layout is the final one, or a Gluon placeholder the compiler resolved into it."""
    return first == final or first.startswith("#gluon.")


def _authored(conversions: list[Conversion], first: list[Conversion], final_aliases: dict[str, str],
              first_aliases: dict[str, str]) -> tuple[bool, ...]:
    """Per final conversion: whether a first-IR conversion at its source line, between the same layouts, made it."""
    left = [(c.loc.line if c.loc else None, _spelled_out(c.source, first_aliases), _spelled_out(c.dest, first_aliases))
            for c in first]
    authored = []
    for conv in conversions:
        line = conv.loc.line if conv.loc else None
        src, dst = _spelled_out(conv.source, final_aliases), _spelled_out(conv.dest, final_aliases)
        match = next((k for k in left if k[0] == line and _same(k[1], src) and _same(k[2], dst)), None)
        if match is not None:
            left.remove(match)
        authored.append(match is not None)
    return tuple(authored)


def with_provenance(report: LayoutReport, ttgir: str, first_ir: str, stage: str) -> LayoutReport:
    """``report`` (of ``ttgir``) with which of its layouts and conversions ``first_ir`` (``glir`` or ``ttir``) had."""
    final_aliases = _aliases(ttgir)
    if stage == "ttir":
        return replace(report,
                       provenance=Provenance(stage=stage, written=(), chosen=tuple(i.label for i in report.layouts),
                                                     authored=tuple(False for _ in report.conversions)))
    first = analyze_layouts(first_ir)
    first_aliases = _aliases(first_ir)
    known = {_spelled_out(info.label, first_aliases) for info in first.layouts}
    written = tuple(i.label for i in report.layouts if _spelled_out(i.label, final_aliases) in known)
    chosen = tuple(i.label for i in report.layouts if i.label not in written)
    authored = _authored(report.conversions, first.conversions, final_aliases, first_aliases)
    return replace(report, provenance=Provenance(stage=stage, written=written, chosen=chosen, authored=authored))
