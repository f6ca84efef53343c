"""The corpus drivers' harness: run each case of a driver, record how it ended, never stop at the first error.

A driver registers cases with ``@case("name")``; ``main()`` runs those matching ``$CORPUS_ONLY`` (a regex), each
inside ``try``, and appends one JSON line per case to ``$CORPUS_CASES``: name, ``ok``, and on an exception its
type, first line, the traceback's frames (file names) and its text, so the runner can tell whose code raised it.
"""

from __future__ import annotations

import json
import os
import re
import sys
import traceback
from collections.abc import Callable
from typing import Any

CASES: list[tuple[str, Callable[[], Any]]] = []


def case(name: str) -> Callable[[Callable[[], Any]], Callable[[], Any]]:
    """Register ``fn`` as the case ``name``."""
    def register(fn: Callable[[], Any]) -> Callable[[], Any]:
        CASES.append((name, fn))
        return fn
    return register


def rand(*shape: int, dtype: Any = None, grad: bool = False) -> Any:
    """A random CUDA tensor (bf16 by default); offline capture keeps it on the CPU."""
    import torch
    t = torch.randn(*shape, device="cuda", dtype=dtype or torch.bfloat16)
    return t.requires_grad_(grad) if grad else t


def backward(out: Any) -> None:
    """Run the backward of ``out`` (a tensor or the first of a tuple) with a gradient of ones."""
    import torch
    first = out[0] if isinstance(out, (tuple, list)) else out
    first.backward(torch.ones_like(first))


def _record(entry: dict[str, Any]) -> None:
    path = os.environ.get("CORPUS_CASES")
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(entry) + "\n")


def main() -> int:
    """Run every selected case; exit 0 (how each ended is in $CORPUS_CASES and on stderr)."""
    only = re.compile(os.environ.get("CORPUS_ONLY", ""))
    for name, fn in CASES:
        if not only.search(name):
            continue
        try:
            fn()
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            refusal = sys.modules.get("irscope.compile.cpu_refusal")  # under capture: a CPU tensor refused, said so
            if refusal is not None:
                refusal.record(exc)
            frames = [f.filename for f in traceback.extract_tb(exc.__traceback__)]
            line = (str(exc).strip().splitlines() or [""])[0][:300]
            _record({"case": name, "ok": False, "type": type(exc).__name__, "error": line, "frames": frames[-12:],
                     "trace": traceback.format_exc()[-4000:]})
            print(f"corpus case {name}: {type(exc).__name__}: {line}", file=sys.stderr)
        else:
            _record({"case": name, "ok": True})
            print(f"corpus case {name}: ok", file=sys.stderr)
    return 0
