"""The facts panel's content: what a capture is and what the compiler made of it, gathered from the analyses.

Pure data, no Textual. Each fact comes from an analysis: the manifest (Triton's own metadata),
irscope.analysis.layouts.explain (the tensor-core layout), irscope.analysis.passes (what the pipelining
passes did); the loops (irscope.analysis.loops) and resources (irscope.analysis.resources) come as
the paragraphs their own views write.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from irscope.errors import IrscopeError
from irscope.store.store import Capture

if TYPE_CHECKING:
    from irscope.analysis.layouts.explain import LayoutReport
    from irscope.analysis.passes import PassEffect
    from irscope.tui.documents import Documents

_TENSOR_CORE_KINDS = {"nvidia_mma": "NVIDIA tensor cores", "amd_mfma": "AMD matrix cores (MFMA)",
                      "amd_wmma": "AMD WMMA"}
_MMA_VERSIONS = {2: "mma.sync (Ampere-style, one warp per instruction)",
                 3: "wgmma (Hopper warpgroup MMA, asynchronous)",
                 5: "tcgen05 (Blackwell, accumulator in tensor memory)"}
# The passes whose effects say whether and how loops were software-pipelined.
_PIPELINE_PASSES = ("tritongpu-assign-latencies", "tritongpu-schedule-loops", "tritongpu-pipeline",
                    "tritonamdgpu-stream-pipeline", "tritonamdgpu-schedule-loops")


@dataclass(frozen=True)
class Fact:
    """One line of the facts panel.

    Attributes:
        label: what it is (``shared memory``).
        value: the fact, in words.
        source: where it comes from (``Triton metadata``, ``layouts``, ``passes``).
    """

    label: str
    value: str
    source: str


def _bytes(n: int) -> str:
    return f"{n} bytes ({n / 1024:g} KiB)" if n >= 1024 else f"{n} bytes"


# Example: chunk_gla_fwd_kernel_o-sm90-c3-p-0123456789abcdef0123 (a program capture's key: its config index)
_PROGRAM_KEY_CONFIG = re.compile(r"-c([0-9]+)-p-[0-9a-f]{20}$")


def capture_facts(capture: Capture) -> list[Fact]:
    """What the manifest says: kernel, target, config, warps, stages, shared memory, compile time."""
    m = capture.manifest
    meta: Mapping[str, object] = m.metadata
    facts = [
        Fact("kernel", f"{m.kernel} ({m.function} in {m.kernel_path.rsplit('/', 1)[-1]})", "manifest"),
        Fact("target", f"{m.target} ({m.backend}, arch {m.arch}, {m.warp_size} threads per warp)", "manifest"),
        Fact("config", f"{m.config_index}: " + ", ".join(f"{k}={v}" for k, v in m.config.items()), "manifest"),
    ]
    if "num_warps" in meta:
        facts.append(Fact("warps", f"{meta['num_warps']} per program ({meta.get('num_ctas', 1)} CTA)",
                          "Triton metadata"))
    if "num_stages" in meta:
        facts.append(Fact("stages requested", str(meta["num_stages"]), "Triton metadata"))
    shared = meta.get("shared")
    if isinstance(shared, int):
        facts.append(Fact("shared memory", _bytes(shared), "Triton metadata"))
    facts.append(Fact("compiled by", f"Triton {m.triton_version} in {m.compile_seconds:.2f} s", "manifest"))
    facts += _provenance_facts(capture)
    if m.same_code_as:
        config = _PROGRAM_KEY_CONFIG.search(m.same_code_as)
        facts.append(Fact("same code as", f"config {config.group(1)}: num_stages changes nothing here (equal TTGIR; "
                          f"its later stages are those of {m.same_code_as})" if config else m.same_code_as,
                          "manifest"))
    return facts


def tensor_core_facts(report: LayoutReport) -> list[Fact]:
    """The tensor-core instruction kind, read from the accumulator layout of the TTGIR."""
    from irscope.analysis.ir_facts import layout_phrase

    out = []
    for info in report.layouts:
        kind = info.layout.kind
        if kind not in _TENSOR_CORE_KINDS:
            continue
        version = getattr(info.layout, "version_major", None)
        what = _MMA_VERSIONS.get(version, "") if isinstance(version, int) else ""
        value = (f"{_TENSOR_CORE_KINDS[kind]}" + (f", {what}" if what else "")
                 + f": {info.label} {layout_phrase(info.layout)}")
        out.append(Fact("tensor cores", value, "layouts"))
    if not out:
        out.append(Fact("tensor cores", "none: the TTGIR has no MMA layout (no tl.dot, or it runs on FMA units)",
                        "layouts"))
    return out


def pipelining_facts(effects: Mapping[tuple[int, str], PassEffect]) -> list[Fact]:
    """What the software-pipelining passes did, in their own summaries."""
    out = []
    for (index, step), effect in sorted(effects.items()):
        if step or effect.name not in _PIPELINE_PASSES:
            continue
        if effect.status in ("unchanged", "locations"):
            summary = "changed nothing"
        else:
            summary = effect.summary or f"+{effect.added} -{effect.removed} lines"
        out.append(Fact("pipelining", f"pass {index} {effect.name}: {summary}", "passes"))
    return out


def _section(title: str, make: Callable[[], str], notes: list[str]) -> list[tuple[str, str]]:
    """One section from an analysis, or a note saying why it is missing (the panel never fails whole)."""
    try:
        return [(title, make())]
    except IrscopeError as exc:
        notes.append(f"{title.lower()}: {exc}")
    except Exception as exc:  # another module's analysis failing must not take the UI down; say what broke
        notes.append(f"{title.lower()}: the analysis failed ({type(exc).__name__}: {exc})")
    return []


def gather_facts(docs: Documents, key: str, report: LayoutReport | None) -> tuple[
        list[Fact], list[tuple[str, str]], list[str]]:
    """Every fact about a capture: rows for the table, sections of text (loops, resources), notes."""
    from irscope.analysis.layouts.explain import analyze_layouts
    from irscope.tui.documents import DocRef

    capture = docs.captures[key]
    facts = capture_facts(capture)
    notes: list[str] = []
    if report is None:
        try:
            report = analyze_layouts(docs.stored(DocRef(key, "ttgir")).text)
        except IrscopeError as exc:
            notes.append(f"layouts: {exc}")
    if report is not None:
        facts += tensor_core_facts(report)
    effects = docs.effects(key)
    if effects is not None:
        facts += pipelining_facts(effects)
    else:
        notes.append("pipelining passes: shown once the passes are recorded and measured")

    def loops() -> str:
        from irscope.analysis.loops import capture_loops
        from irscope.views.loops_text import render_loops

        found, missing = capture_loops(capture)
        return render_loops(found, "loops", missing)

    def resources() -> str:
        from irscope.analysis.resources import capture_resources
        from irscope.views.resources_text import render_resources

        return render_resources(capture_resources(capture), "resources per thread and per CTA")

    sections = _section("Loops", loops, notes) + _section("Resources", resources, notes)
    return facts, sections, notes


def _provenance_facts(capture: Capture) -> list[Fact]:
    """An Inductor kernel's model lines (the first three) and fused ATen ops, from its ``provenance.json``."""
    from irscope.store.programs import capture_provenance
    from irscope.views.provenance_text import line_text

    prov = capture_provenance(capture)
    if prov is None:
        return []
    facts = [Fact("model line", line_text(ln), "Inductor provenance") for ln in prov.lines[:3]]
    if len(prov.lines) > 3:
        facts.append(Fact("model lines", f"{len(prov.lines) - 3} more (irscope show prints them all)",
                          "Inductor provenance"))
    if not prov.lines:
        facts.append(Fact("model line", f"none: {prov.missing or 'none recorded'}", "Inductor provenance"))
    if prov.aten:
        facts.append(Fact("fused ATen ops", ", ".join(prov.aten), "Inductor provenance"))
    return facts
