"""One Triton's backend run on IR another Triton made: the stages below ``stage``, from the given text.

This is how a compiler engineer tells "Triton lowers my kernel differently" from "LLVM's code generator
(or ptxas) handles the same IR differently": feed side A's LLVM IR to side B's backend and see whose machine
code comes out. It runs as a worker process in the interpreter of the Triton whose backend is asked
(``irscope.request.backend_swap`` starts it), because LLVM ends the whole process on IR it cannot read
("LLVM ERROR: failed to parse IR"), and because each Triton carries its own LLVM.

Request (stdin, one JSON object): ``stage`` (the IR given: ``llir`` or ``ptx``), ``text`` (that IR),
``backend``/``arch``/``warp_size`` (the target), ``options`` (the backend options the IR was made with) and
``metadata`` (Triton's metadata of that compile). Reply (stdout): ``ok``, ``triton`` (this Triton's version),
``files`` (stage -> text, or ``{"base64": ...}`` for a binary: the cubin, the hsaco) or ``error``.
"""

from __future__ import annotations

import base64
import json
import os
import sys
from typing import Any

__all__ = ["lower", "main"]


def _process_state(backend: str) -> None:
    """What a whole compile's ``make_llir`` leaves set in the process for the code generator after it: LLVM's
    targets, and (NVIDIA, Triton 3.5 to 3.7) LLVM's process-wide ``nvptx-short-ptr`` option. Without the
    latter, 3.6's own LLVM IR gives other PTX (matmul sm90: 861 instructions, not 842) and 2 more registers."""
    from triton._C.libtriton import llvm

    llvm.init_targets()
    if backend == "cuda":
        from triton._C.libtriton import nvidia

        if hasattr(nvidia, "set_short_ptr"):
            nvidia.set_short_ptr()


def lower(request: dict[str, Any]) -> dict[str, Any]:
    """Run this Triton's stages after ``request["stage"]`` on ``request["text"]``; the files they make."""
    import triton
    from triton.backends.compiler import GPUTarget, Language
    from triton.compiler.compiler import make_backend

    from irscope.compile.function import recorded_options

    target = GPUTarget(request["backend"], request["arch"], int(request["warp_size"]))
    backend = make_backend(target)
    # The IR's options as this Triton's backend reads them (fields it lacks left out, the other's paths dropped).
    options = backend.parse_options(recorded_options({"options": dict(request.get("options") or {})}, target))
    stages: dict[str, Any] = {}
    backend.add_stages(stages, options, Language.TRITON)
    order = list(stages)
    stage = str(request["stage"])
    if stage not in order:
        return {"ok": False, "error": f"Triton {triton.__version__} has no {stage} stage on {request['backend']}"}
    _process_state(request["backend"])
    metadata = dict(request.get("metadata") or {})
    value: Any = request["text"]
    files: dict[str, Any] = {}
    for name in order[order.index(stage) + 1:]:
        value = stages[name](value, metadata)
        files[name] = value if isinstance(value, str) else {"base64": base64.b64encode(bytes(value)).decode()}
    return {"ok": True, "triton": triton.__version__, "files": files, "name": metadata.get("name", "")}


def main() -> int:
    """Worker entry point: one request on stdin, one reply on stdout (LLVM's own fatal errors go to stderr)."""
    import warnings

    warnings.filterwarnings("ignore", message=".*TRITON_DEFAULT_FP_FUSION.*")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # whatever the backend prints goes to stderr, not into the reply
    sys.stdout = sys.stderr
    try:
        reply = lower(json.loads(sys.stdin.read()))
    except Exception as exc:  # the parent says it in one line; the traceback stays on stderr
        import traceback

        traceback.print_exc()
        reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}"}
    replies.write(json.dumps(reply))
    replies.flush()
    return 0 if reply.get("ok") else 1


if __name__ == "__main__":
    sys.exit(main())
