"""What a shared page shows: the analyses' own typed results for one capture or one comparison, bundled.

Nothing here computes: ``irscope.request.share`` fills these from the analyses the terminal commands call
(``map``, ``passes``, ``diff``, ``layouts``, ``loops``, ``resources``, ``perf``, ``verify``), and
``irscope.views.html_*`` draws them, so the page and the terminal show one model.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from irscope.analysis.diff import TextDiff
from irscope.analysis.facts import Delta, Facts
from irscope.analysis.layouts.explain import LayoutReport
from irscope.analysis.loops import Loop
from irscope.analysis.passes import PassTable
from irscope.analysis.perf.report import PerfReport
from irscope.analysis.resources import Resources
from irscope.analysis.sourcemap import SourceMap
from irscope.analysis.verify import Verification

__all__ = ["CheckEntry", "SharedCapture", "SharedCheck", "SharedComparison", "StageText"]


@dataclass(frozen=True)
class StageText:
    """One stage's text as the page shows it.

    Attributes:
        name: stage name (``ttgir``); ``display`` its title; ``lexer`` the highlighter (irscope.views.highlight).
        text: the text whose line numbers the source map's lines of this stage refer to (SASS: nvdisasm's
            listing with line info, when the map was made from it).
    """

    name: str
    display: str
    lexer: str
    text: str


@dataclass(frozen=True)
class SharedCapture:
    """Everything one capture's page shows; a part that could not be computed is None and says why in ``missing``.

    Attributes:
        title: ``matmul on sm90, config 0``.
        facts: the capture's facts (kernel, target, config, Triton, specialization), as label/value pairs.
        stages: the source and every stage's text, in pipeline order.
        source_map: which IR lines each source line became (``irscope map``).
        passes: the pass table (``irscope passes``); ``pass_diffs`` each changed pass's diff by pass index.
        layouts: the TTGIR's layouts (``irscope layouts``).
        loops / resources / perf / verification: ``irscope loops``, ``resources``, ``perf``, ``verify``.
        missing: part -> why it is absent.
    """

    title: str
    facts: tuple[tuple[str, str], ...]
    stages: tuple[StageText, ...]
    source_map: SourceMap | None = None
    passes: PassTable | None = None
    pass_diffs: dict[int, TextDiff] = field(default_factory=dict)
    layouts: LayoutReport | None = None
    loops: tuple[Loop, ...] | None = None
    loops_missing: tuple[str, ...] = ()
    resources: Resources | None = None
    perf: PerfReport | None = None
    verification: Verification | None = None
    missing: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class SharedComparison:
    """A comparison of two captures (``irscope compare``) with each common stage's diff.

    Attributes:
        a / b: both sides' facts; ``deltas`` the facts that differ.
        stage_diffs: (stage, diff) for each stage both sides have, in pipeline order.
    """

    a: Facts
    b: Facts
    deltas: tuple[Delta, ...]
    stage_diffs: tuple[tuple[str, TextDiff], ...]

    @property
    def first_divergence(self) -> tuple[str, int] | None:
        """The first stage, in pipeline order, whose text differs, and the line of A its first change is at."""
        for stage, diff in self.stage_diffs:
            if diff.changed and diff.hunks:
                hunk = diff.hunks[0]
                first = next((i for i, line in enumerate(hunk.lines) if line.tag != " "), 0)
                return stage, hunk.old_start + first
        return None


@dataclass(frozen=True)
class CheckEntry:
    """One entry of ``irscope check``: what was compiled, and the facts that moved.

    Attributes:
        label: the entry (``matmul sm90 c0``); ``note`` its recorded label.
        failed: whether a fact moved beyond its tolerance; ``error`` set when it did not compile.
        deltas: the facts that moved (``allowed``: within tolerance).
    """

    label: str
    note: str
    failed: bool
    error: str
    deltas: tuple[Delta, ...]


@dataclass(frozen=True)
class SharedCheck:
    """``irscope check``'s result for a CI artifact.

    Attributes:
        snapshot: the facts file checked; ``triton_version`` the Triton that checked it.
        entries: every entry, in the file's order.
    """

    snapshot: str
    triton_version: str
    entries: tuple[CheckEntry, ...]
