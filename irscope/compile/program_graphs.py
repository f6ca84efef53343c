"""``irscope capture`` parent side: the program's record from the session's ``graphs`` and ``graph_calls`` records.

The program's hook writes one ``graphs`` record per graph Inductor compiled (``inductor_graphs``): its kernels by
the launch keys of their configs, launches per run, provenance and calls outside Triton, and, when the program
exits, ``graph_calls`` (the program's runs of each graph). Here each launch key becomes the capture keys it was
stored under, and the whole becomes one ``ProgramRecord``.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

from irscope.model.program_record import PROGRAM_FORMAT, ProgramRecord

_NO_CALLS = ("the program ended before irscope counted its runs of the torch.compile graphs (it exited without "
             "running Python's exit handlers): calls are 0")


def graph_records(session_records: list[Any]) -> list[dict[str, Any]]:
    """The ``graphs`` records, in the order the program compiled them."""
    found = [r for r in session_records if isinstance(r, dict) and isinstance(r.get("kernels"), list)]
    return sorted(found, key=lambda r: (float(r.get("time", 0) or 0), int(r.get("seq", 0) or 0)))


def provenance_by_launch(graphs: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each kernel config's launch key -> its kernel's provenance, graph and name (a capture's ``provenance.json``)."""
    out: dict[str, dict[str, Any]] = {}
    for index, graph in enumerate(graphs):
        for kernel in graph["kernels"]:
            if not isinstance(kernel, dict):
                continue
            raw = kernel.get("provenance")
            prov: dict[str, Any] = raw if isinstance(raw, dict) else {}
            for key in kernel.get("launch_keys") or []:
                out.setdefault(str(key), {"kernel": str(kernel.get("name", "")), "graph": index,
                                          "kind": str(graph.get("kind", "")), **prov})
    return out


def program_id(created: float, command: str) -> str:
    """``prog-20261202-071530-1a2b3c``: sortable by time, distinct for runs in the same second."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(created))
    digest = hashlib.sha256(f"{created!r} {command}".encode()).hexdigest()[:6]
    return f"prog-{stamp}-{digest}"


def build_record(*, command: str, target: str, gpu: str, exit_code: int, graphs: list[dict[str, Any]],
                 calls_records: list[Any], keys: list[str], keys_by_launch: dict[str, list[str]],
                 notes: list[str], created: float | None = None) -> ProgramRecord:
    """The program's record; ``keys_by_launch`` maps each launch key to the capture keys it was stored under."""
    created = time.time() if created is None else created
    calls: dict[str, int] = {}
    for rec in calls_records:
        if isinstance(rec, dict) and isinstance(rec.get("calls"), dict):
            calls.update({str(k): int(v) for k, v in rec["calls"].items() if isinstance(v, int)})
    out_notes = list(notes)
    if graphs and not calls:
        out_notes.append(_NO_CALLS)
    data_graphs = []
    for index, graph in enumerate(graphs):
        kernels = []
        for kernel in graph["kernels"]:
            found: list[str] = []
            for key in kernel.get("launch_keys") or []:
                found += [k for k in keys_by_launch.get(str(key), []) if k not in found]
            kernels.append({"name": kernel.get("name", ""), "keys": found, "per_run": kernel.get("per_run", 0),
                            "provenance": kernel.get("provenance") or {}})
        data_graphs.append({"index": index, "kind": graph.get("kind", "inference"),
                            "calls": calls.get(str(graph.get("id")), 0), "kernels": kernels,
                            "externs": [_extern(e) for e in graph.get("externs") or [] if isinstance(e, dict)]})
        out_notes += [f"graph {index} ({graph.get('kind', '?')}): {n}" for n in graph.get("notes") or []]
    torch_version = next((str(g["torch_version"]) for g in graphs if g.get("torch_version")), "")
    return ProgramRecord.from_json({
        "id": program_id(created, command), "command": command, "target": target, "gpu": gpu, "created": created,
        "exit_code": exit_code, "graphs": data_graphs, "keys": keys, "notes": out_notes,
        "torch_version": torch_version, "format": PROGRAM_FORMAT})


def _extern(data: dict[str, Any]) -> dict[str, Any]:
    """An extern call as the record keeps it (fields the hook could not read left out)."""
    return {k: data[k] for k in ("op", "library", "per_run", "shapes", "dtype", "flops", "nbytes") if k in data}


def read_session(session: Path, records: Any) -> tuple[list[dict[str, Any]], list[Any]]:
    """The session's graphs records (in compile order) and its graph_calls records; ``records(folder)`` reads one."""
    return graph_records(records(session / "graphs")), records(session / "graph_calls")
