"""Gather what a shared page shows from the analyses the terminal commands call; reading never imports Triton,
a missing per-pass dump compiles once (as ``irscope passes`` does)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

from irscope.analysis.diff import DiffOptions, TextDiff
from irscope.analysis.share import SharedCapture, SharedComparison, StageText
from irscope.errors import IrscopeError
from irscope.model.stages import get_stage, stages_for
from irscope.request.captures import Request
from irscope.store.store import Capture
from irscope.toolchain.stages import read_stage

__all__ = ["capture_facts_rows", "gather_capture", "gather_comparison"]

_PAGE_STAGES = ("source", "glir", "ttir", "ttgir", "llir", "ptx", "sass", "amdgcn")


def capture_facts_rows(capture: Capture) -> tuple[tuple[str, str], ...]:
    """The capture's facts as label/value pairs: kernel, target, config, Triton, specialization."""
    m = capture.manifest
    meta = m.metadata or {}
    rows = [("kernel", f"{m.kernel} ({m.function} in {m.kernel_path})"), ("key", m.key),
            ("target", f"{m.target} ({m.backend}, {m.arch}, warp size {m.warp_size})"),
            ("config", f"{m.config_index}: {json.dumps(m.config, sort_keys=True)}"),
            ("Triton", m.triton_version), ("sizes", json.dumps(m.sizes, sort_keys=True)), ("dtype", m.dtype),
            ("signature", json.dumps(m.signature, sort_keys=True, default=str)),
            ("constexprs", json.dumps(m.constexprs, sort_keys=True, default=str)),
            ("specialization", json.dumps(m.attrs, sort_keys=True, default=str)),
            ("num_warps / num_stages", f"{meta.get('num_warps', '?')} / {meta.get('num_stages', '?')}"),
            ("shared memory", f"{meta.get('shared', '?')} bytes"), ("created", m.created)]
    if m.settings:
        rows.append(("what-if settings", json.dumps(m.settings, default=str)))
    return tuple((k, str(v)) for k, v in rows)


def _stages(capture: Capture, sass_listing: str | None) -> tuple[StageText, ...]:
    """Every stage the capture has, the source first; SASS as the listing its map was made from."""
    out = []
    names = {s.name for s in stages_for(capture.manifest.backend)} | {"source"}
    for name in _PAGE_STAGES:
        if name not in names or (name not in capture.manifest.files and name != "sass"):
            continue
        st = get_stage(name, capture.manifest.backend)
        if name == "sass" and sass_listing is not None:
            text = sass_listing
        else:
            try:
                text = read_stage(capture, st)
            except IrscopeError:
                continue
        out.append(StageText(name=st.name, display=st.display, lexer=st.lexer, text=text))
    return tuple(out)


def _pass_diffs(dump: Any, table: Any) -> dict[int, TextDiff]:
    """Each changed pass's diff, as ``irscope diff --pass N`` shows it."""
    from irscope.request.compare import diff_points, pass_point, renumbering_ignored

    out: dict[int, TextDiff] = {}
    options = DiffOptions()
    ssa_free = replace(options, normalize_ssa=True)
    for row in table.rows:
        if not row.changed or row.step or row.index in out:
            continue
        try:
            left, right = pass_point(dump, str(row.index), "before"), pass_point(dump, str(row.index), "after")
        except IrscopeError:
            continue
        out[row.index] = renumbering_ignored(diff_points(left, right, options),
                                             partial(diff_points, left, right, ssa_free))
    return out


def _attempt(missing: dict[str, str], part: str, work: Callable[[], Any]) -> Any:
    """``work()``, or None with why in ``missing`` when the analysis cannot answer for this capture."""
    try:
        return work()
    except IrscopeError as exc:
        missing[part] = str(exc)
        return None


def _perf(request: Request, capture: Capture) -> Any:
    from irscope.analysis.perf.capture import capture_perf
    from irscope.request.perf_launch import perf_device, perf_shape

    device, sm_count = perf_device(None, request.target.name, lambda: None)
    return capture_perf(capture, device, perf_shape(request, None, sm_count, capture.path))


def gather_capture(request: Request, capture: Capture, passes: bool = True,
                   on_compile: Callable[[Capture], None] | None = None) -> SharedCapture:
    """Everything the capture's page shows; ``passes``: also the pass table and diffs (may compile the dump once)."""
    from irscope.analysis.layouts.capture import capture_layout_report
    from irscope.analysis.loops import capture_loops
    from irscope.analysis.resources import capture_resources
    from irscope.analysis.sourcemap import build_source_map, sass_listing
    from irscope.analysis.verify import verify_capture

    missing: dict[str, str] = {}
    m = capture.manifest
    listing_text = None
    if m.backend == "cuda":
        from irscope.toolchain.nvtools import sass_with_lines

        run = sass_with_lines(capture)
        listing_text = run.stdout if run.ok and sass_listing(capture)[0] is not None else None
    smap = _attempt(missing, "source map", lambda: build_source_map(capture, None))
    table, diffs = None, {}
    if passes:
        from irscope.request.passdump import cached_pass_table, get_pass_dump

        dump = _attempt(missing, "passes", lambda: get_pass_dump(request, capture, on_compile=on_compile))
        if dump is not None:
            table = cached_pass_table(dump)
            diffs = _pass_diffs(dump, table)
    else:
        missing["passes"] = "not asked for (--no-passes)"
    found_loops = _attempt(missing, "loops", lambda: capture_loops(capture))
    return SharedCapture(
        title=f"{m.kernel} on {m.target}, config {m.config_index}", facts=capture_facts_rows(capture),
        stages=_stages(capture, listing_text), source_map=smap, passes=table, pass_diffs=diffs,
        layouts=_attempt(missing, "layouts", lambda: capture_layout_report(capture)) if "ttgir" in m.files else None,
        loops=tuple(found_loops[0]) if found_loops else None, loops_missing=found_loops[1] if found_loops else (),
        resources=_attempt(missing, "resources", lambda: capture_resources(capture)),
        perf=_attempt(missing, "perf", lambda: _perf(request, capture)),
        verification=_attempt(missing, "verify", lambda: verify_capture(capture)), missing=missing)


def gather_comparison(left: Capture, right: Capture) -> SharedComparison:
    """``irscope compare``'s facts of two captures, with the diff of each stage both have."""
    from irscope.analysis.facts import capture_facts, compare_facts
    from irscope.request.compare import diff_points, renumbering_ignored, stage_point

    a, b = capture_facts(left), capture_facts(right)
    diffs = []
    options = DiffOptions()
    ssa_free = replace(options, normalize_ssa=True)
    common = [s.name for s in stages_for(left.manifest.backend) if s.name != "source"
              and s.name in {t.name for t in stages_for(right.manifest.backend)}]
    for stage in common:
        try:
            pa, pb = stage_point(left, stage, f"{stage} of A"), stage_point(right, stage, f"{stage} of B")
        except IrscopeError:
            continue
        diffs.append((stage, renumbering_ignored(diff_points(pa, pb, options), partial(diff_points, pa, pb, ssa_free))))
    return SharedComparison(a=a, b=b, deltas=tuple(compare_facts(a.values, b.values)), stage_diffs=tuple(diffs))
