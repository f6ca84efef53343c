"""The TUI's child process: ``python -m irscope.tui.capture_job SPEC`` captures, records passes, measures passes.

Compiling imports Triton and holds the interpreter for seconds; in a child process it leaves the
TUI responsive, and a crash there cannot take the TUI down. SPEC is JSON (see ``JobSpec``); the child
prints one JSON object per line on stdout: ``{"event": "compiling"}``, ``{"event": "captured",
"key": K}``, ``{"event": "passes"}``, ``{"event": "passes-done", "error": E}``,
``{"event": "effects"}`` / ``{"event": "effects-done"}`` (what each pass changed, cached beside the
dump), ``{"event": "failed", "message": M}``. This module imports neither Textual nor (until it compiles) Triton.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass
from typing import Any

from irscope.errors import IrscopeError


@dataclass(frozen=True)
class JobSpec:
    """What the child should do.

    Attributes:
        kernel: kernel name or path.
        target: target name.
        config: launch config index.
        store: the store directory.
        capture: make the capture when it is missing.
        passes: record the per-pass IR when the capture has none.
        effects: work out what each recorded pass changed (cached beside the dump).
        key: a stored capture to work on instead of the config's own (a what-if variant).
    """

    kernel: str
    target: str
    config: int
    store: str
    capture: bool = True
    passes: bool = False
    effects: bool = False
    key: str = ""

    def to_json(self) -> str:
        """The spec as the child's argument."""
        return json.dumps(asdict(self))


def emit(event: str, **values: Any) -> None:
    """Tell the parent something, one JSON line."""
    sys.stdout.write(json.dumps({"event": event, **values}) + "\n")
    sys.stdout.flush()


def run(spec: JobSpec) -> int:
    """Do what the spec asks; report every step."""
    from irscope.request.captures import get_capture, make_request, request_for
    from irscope.request.passdump import cached_pass_table, get_pass_dump
    from irscope.store.passdump import load_dump, load_failed_dump
    from irscope.tui.catalog import CaptureId, Catalog

    catalog = Catalog.load(spec.store, spec.kernel)
    module = catalog.compilable(spec.kernel) or spec.kernel.endswith(".py")
    name = catalog.kernel(spec.kernel).name if module else spec.kernel
    cid = CaptureId(name, spec.target, spec.config)
    if spec.key:
        capture = catalog.store.get(spec.key)
        if capture is None:
            emit("failed", message=f"{spec.key} is not in the store")
            return 1
        request = request_for(capture)  # the variant's own settings, not its config's
    elif catalog.compilable(name):
        request = catalog.request(cid)
        capture = catalog.capture(cid)
    else:
        request = make_request(catalog.key(cid), spec.target, store_dir=spec.store)
        capture = catalog.capture(cid)
    if capture is None:
        if not spec.capture:
            emit("failed", message=f"{cid} has not been captured")
            return 1
        emit("compiling")
        capture = get_capture(request, spec.store)
    emit("captured", key=capture.manifest.key)
    dump = load_dump(capture.path, "mlir")
    if spec.passes and dump is None:
        emit("passes")
        try:
            dump = get_pass_dump(request, capture)
        except IrscopeError as exc:
            emit("passes-done", error=str(exc))
            dump = load_failed_dump(capture.path, "mlir")  # the passes before a failure, kept apart
            if dump is None:
                return 0
        else:
            emit("passes-done", error="")
    if spec.effects and dump is not None:
        emit("effects")
        cached_pass_table(dump)
        emit("effects-done")
    return 0


def main() -> int:
    """Entry point: run the spec given as the one argument."""
    spec = JobSpec(**json.loads(sys.argv[1]))
    try:
        return run(spec)
    except IrscopeError as exc:
        emit("failed", message=str(exc))
        return 1
    except Exception as exc:  # a kernel module's own code can raise anything; the TUI shows it
        emit("failed", message=f"{type(exc).__name__}: {exc}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
