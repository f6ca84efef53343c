"""An Inductor kernel's provenance as text: the ATen ops it fused and the model lines they came from."""

from __future__ import annotations

from typing import Any

from irscope.model.program_record import Provenance, SourceLine


def short_path(path: str) -> str:
    """A model file's path from its package on (``transformers/models/llama/modeling_llama.py``), else as given."""
    norm = path.replace("\\", "/")
    for mark in ("/site-packages/", "/dist-packages/"):
        if mark in norm:
            return norm.rsplit(mark, 1)[1]
    return norm


def line_text(line: SourceLine) -> str:
    """``path:123  code`` (``in fn`` when the code is unknown)."""
    where = f"{short_path(line.file)}:{line.line}"
    return f"{where}  {line.code}" if line.code else f"{where}  (in {line.function or '?'})"


def provenance_lines(prov: Provenance, limit: int = 12) -> list[str]:
    """The provenance block: a heading, the fused ATen ops, one line per model line (or why there is none)."""
    out = ["from the model (Inductor's provenance):"]
    if prov.aten:
        out.append(f"  fused ATen ops: {', '.join(prov.aten)}")
    for line in prov.lines[:limit] if limit else prov.lines:
        out.append(f"  {line_text(line)}")
    if limit and len(prov.lines) > limit:
        out.append(f"  ... {len(prov.lines) - limit} more model lines")
    if not prov.lines:
        out.append(f"  no model line: {prov.missing or 'none recorded'}")
    return out


def provenance_json(prov: Provenance) -> dict[str, Any]:
    """The provenance as JSON data."""
    return {"aten": list(prov.aten), "nodes": list(prov.nodes),
            "lines": [{"file": ln.file, "line": ln.line, "function": ln.function, "code": ln.code}
                      for ln in prov.lines],
            "missing": prov.missing}
