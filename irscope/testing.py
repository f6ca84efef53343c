"""Helpers for your own pytest suite: pin what the Triton compiler does to your kernels.

A test captures a kernel offline (no GPU needed) and asserts facts about the result; when a
Triton upgrade changes them, the assertion says what it found instead::

    import irscope
    from irscope.testing import assert_layout, assert_no_spills, assert_pass_ran, assert_pipelined

    def test_matmul_stays_pipelined():
        cap = irscope.capture(matmul_kernel, a, b, c, 4096, 4096, 4096, ..., target="sm90", **config)
        assert_pass_ran(cap, "tritongpu-pipeline")
        assert_layout(cap, kind="nvidia_mma", version_major=3)
        assert_pipelined(cap, stages=3)
        assert_no_spills(cap)

See docs/testing.md for a complete example file.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from irscope.request.captures import request_for
from irscope.store.store import Capture

__all__ = ["assert_facts", "assert_layout", "assert_no_spills", "assert_pass_ran", "assert_pipelined", "pass_names"]


def pass_names(capture: Capture) -> list[str]:
    """The MLIR passes that ran, in order (compiles once more with per-pass dumps the first time)."""
    from irscope.request.passdump import cached_pass_table, get_pass_dump

    table = cached_pass_table(get_pass_dump(request_for(capture), capture))
    return [row.name for row in table.rows if not row.step]


def assert_pass_ran(capture: Capture, name: str, changed: bool | None = None) -> None:
    """Assert that pass ``name`` ran (and, with ``changed``, that it did or did not change the IR)."""
    from irscope.request.passdump import cached_pass_table, get_pass_dump

    table = cached_pass_table(get_pass_dump(request_for(capture), capture))
    rows = [row for row in table.rows if row.name == name and not row.step]
    if not rows:
        from irscope.errors import closest

        ran = sorted({row.name for row in table.rows if not row.step})
        raise AssertionError(f"pass {name!r} did not run for {capture.manifest.key}{closest(name, ran)}; "
                             f"{len(ran)} distinct passes ran: {', '.join(ran)}")
    if changed is not None and any(row.changed for row in rows) != changed:
        statuses = ", ".join(f"pass {row.index}: {row.status}" for row in rows)
        raise AssertionError(f"pass {name!r} {'changed nothing' if changed else 'changed the IR'} "
                             f"({statuses}); expected changed={changed}")


def _field(layout: Any, key: str) -> Any:
    return getattr(layout, key, None)


def assert_layout(capture: Capture, kind: str, **expected: Any) -> None:
    """Assert that the TTGIR has a layout of ``kind`` whose fields equal ``expected``.

    ``kind`` is the encoding's name (``blocked``, ``nvidia_mma``, ``amd_mfma``, ``nvmma_shared``...);
    fields use the layout dataclasses' names: ``version_major=3``, ``instr_shape=(16, 256, 16)``,
    ``warps_per_cta=(8, 1)``, ``size_per_thread=(1, 8)``. ``version`` is accepted as a short name for
    ``version_major`` (NVIDIA mma) or ``version`` (AMD).
    """
    from irscope.parse.layouts import parse_layouts

    table = parse_layouts(capture.read("ttgir"))
    of_kind = [(name, layout) for name, layout in table.aliases.items() if layout.kind == kind]
    if not of_kind:
        kinds = sorted({layout.kind for layout in table.aliases.values()})
        raise AssertionError(f"no {kind} layout in the TTGIR of {capture.manifest.key}; its layouts are of kind: "
                             f"{', '.join(kinds) or 'none'}")
    if "version" in expected and _field(of_kind[0][1], "version") is None:
        expected["version_major"] = expected.pop("version")
    found = []
    for name, layout in of_kind:
        values = {key: _field(layout, key) for key in expected}
        normalised = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
        wanted = {k: tuple(v) if isinstance(v, list) else v for k, v in expected.items()}
        if normalised == wanted:
            return
        found.append(f"#{name.lstrip('#')}: " + ", ".join(f"{k}={v!r}" for k, v in normalised.items()))
    raise AssertionError(f"no {kind} layout with {', '.join(f'{k}={v!r}' for k, v in expected.items())}; "
                         f"found {'; '.join(found)}")


def assert_pipelined(capture: Capture, stages: int | None = None, line: int | None = None) -> None:
    """Assert that a loop (the one on kernel ``line``, or any) is software-pipelined, with ``stages`` if given."""
    from irscope.analysis.loops import capture_loops

    loops, problems = capture_loops(capture)
    if line is not None:
        loops = [loop for loop in loops if loop.line == line]
    if not loops:
        where = f" on line {line}" if line is not None else ""
        raise AssertionError(f"no loop{where} in the TTGIR of {capture.manifest.key}"
                             + (f" ({'; '.join(problems)})" if problems else ""))
    described = []
    for loop in loops:
        if loop.pipelined and (stages is None or loop.achieved_stages == stages):
            return
        why = f" ({'; '.join(loop.reasons)})" if loop.reasons else ""
        described.append(f"line {loop.line}: {loop.achieved_stages} stage(s), asked {loop.requested_stages}{why}")
    wanted = f"pipelined with {stages} stages" if stages is not None else "pipelined"
    raise AssertionError(f"no loop of {capture.manifest.key} is {wanted}; found " + "; ".join(described))


def assert_no_spills(capture: Capture) -> None:
    """Assert that the kernel spills no registers (ptxas / AMDGCN metadata, found offline)."""
    from irscope.analysis.resources import capture_resources

    res = capture_resources(capture)
    if res.spills:
        raise AssertionError(f"{capture.manifest.key} spills: {res.spill_stores} bytes stored and "
                             f"{res.spill_loads} loaded per thread, {res.local_bytes} bytes of local memory, "
                             f"{res.registers} registers")


def assert_facts(path: str | os.PathLike[str], triton: str | None = None, tolerances: Sequence[str] = (),
                 store: str | os.PathLike[str] | None = None, jobs: int = 1) -> None:
    """Assert that every entry of a facts snapshot (``irscope facts ... -o FILE``) compiles to the same facts.

    ``triton``: a version installed with ``irscope triton install`` or a Python interpreter (default:
    this one's); ``tolerances``: ``FACT=AMOUNT`` items added to the file's own.
    """
    from pathlib import Path

    from irscope.model.paths import store_root
    from irscope.request.factsfile import check_snapshot
    from irscope.views.facts_text import render_deltas

    results = check_snapshot(Path(path), store_root(store), triton, tolerances, jobs)
    bad = [r for r in results if r.failed]
    if not bad:
        return
    lines = [f"{len(bad)} of {len(results)} entries of {path} changed:"]
    for r in bad:
        lines.append(f"{r.job.label()}: {r.error}" if r.error else f"{r.job.label()} ({r.label}):")
        lines += render_deltas([d for d in r.deltas if not d.allowed], "recorded", "now")
    raise AssertionError("\n".join(lines))
