"""A comparison (``irscope compare``) and a facts check (``irscope check``) as self-contained HTML pages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from irscope.analysis.share import SharedCheck, SharedComparison
from irscope.views.html_capture import diff_data
from irscope.views.html_page import page

__all__ = ["check_page", "check_page_data", "comparison_page", "comparison_page_data"]


def _value(value: Any) -> str:
    return "(absent)" if value is None else str(value)


def comparison_page_data(shared: SharedComparison, divergence: Sequence[str] = ()) -> dict[str, Any]:
    """The comparison's facts (changed first), its first divergence, and each stage's side-by-side diff.

    ``divergence``: the first divergent pass or stage as ``irscope compare`` words it, when it was found.
    """
    changed = {d.name for d in shared.deltas}
    names = list(dict.fromkeys([*shared.a.values, *shared.b.values]))
    facts = [[n, _value(shared.a.values.get(n)), _value(shared.b.values.get(n)), n in changed] for n in names]
    first = shared.first_divergence
    return {
        "kind": "compare", "title": f"{shared.a.label} vs {shared.b.label}",
        "sides": [[shared.a.label, shared.a.key], [shared.b.label, shared.b.key]],
        "compare_facts": sorted(facts, key=lambda f: not f[3]), "changed": len(changed),
        "unread": [*shared.a.unread, *shared.b.unread],
        "first_divergence": None if first is None else {"stage": first[0], "line": first[1]},
        "divergence_text": list(divergence),
        "stage_diffs": [{"stage": stage, **diff_data(diff, side_by_side=True)} for stage, diff in shared.stage_diffs],
    }


def comparison_page(shared: SharedComparison, divergence: Sequence[str] = ()) -> str:
    """The comparison's page, one self-contained HTML document."""
    data = comparison_page_data(shared, divergence)
    return page(f"irscope compare: {data['title']}", data)


def check_page_data(shared: SharedCheck) -> dict[str, Any]:
    """Every entry of the check, the failing ones first, with the facts that moved."""
    entries = [{"label": e.label, "note": e.note, "failed": e.failed, "error": e.error,
                "deltas": [[d.name, _value(d.before), _value(d.after), d.allowed] for d in e.deltas]}
               for e in shared.entries]
    failed = sum(1 for e in shared.entries if e.failed)
    return {"kind": "check", "title": f"irscope check {shared.snapshot}", "triton": shared.triton_version,
            "entries": sorted(entries, key=lambda e: not e["failed"]), "failed": failed, "total": len(entries)}


def check_page(shared: SharedCheck) -> str:
    """The check's page, one self-contained HTML document."""
    data = check_page_data(shared)
    return page(data["title"], data)
