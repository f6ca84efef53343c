"""AMD's words for what the model's sentences call by NVIDIA's names: a CU for an SM, a workgroup for a CTA.

The model's sentences are written once, in NVIDIA's terms; on an AMD target ``amd_words`` renames the hardware
units in every sentence a :class:`PerfReport` carries (its typed facts keep no words). Only whole words are
renamed, so ``SMEM`` or ``num_ctas`` stay as they are.
"""

from __future__ import annotations

import re
from dataclasses import replace

from irscope.analysis.perf.report import PerfReport, Suggestion

__all__ = ["amd_words"]

_WORDS = {"SMs": "CUs", "SM": "CU", "CTAs": "workgroups", "CTA": "workgroup"}
_PATTERN = re.compile(r"\b(" + "|".join(_WORDS) + r")\b")


def _amd(text: str) -> str:
    return _PATTERN.sub(lambda m: _WORDS[m.group(1)], text)


def amd_words(report: PerfReport) -> PerfReport:
    """``report`` with its sentences in AMD's terms when its target is AMD's (``gfx...``), else unchanged."""
    if not report.target.startswith("gfx"):
        return report
    return replace(report, bound_reason=_amd(report.bound_reason), dram_assumption=_amd(report.dram_assumption),
                   suggestions=tuple(Suggestion(s.gain, _amd(s.text)) for s in report.suggestions),
                   assumptions=tuple(_amd(a) for a in report.assumptions),
                   uncertain=tuple(_amd(u) for u in report.uncertain),
                   range_why=tuple(_amd(r) for r in report.range_why))
