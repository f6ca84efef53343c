"""Compile in another interpreter (another Triton): a worker process and its small, versioned protocol.

The parent writes one JSON object on the worker's stdin and reads one JSON object from its stdout;
what Triton prints goes to the worker's stderr, which the parent keeps for error messages.

Request (protocol 1)::

    {"protocol": 1, "op": "hello"}
    {"protocol": 1, "op": "capture", "store": "/path/store", "force": false, "job": JOB}

JOB is plain data (``job_data``): the kernel (``module`` / ``function`` / ``recorded``), the target,
the config index and the sizes, so the same job could run on any machine that has the files.

Reply::

    {"protocol": 1, "ok": true, "triton": "3.5.1", "key": "matmul-sm90-c0-..."}
    {"protocol": 1, "ok": false, "error": "...", "kind": "compile" | "usage" | "internal", "exit_code": 2}
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from irscope.errors import CompileError, IrscopeError, UsageError

PROTOCOL = 1


def job_data(kernel: Any, target: Any, config_index: int, sizes: dict[str, int]) -> dict[str, Any]:
    """A compile job as plain JSON data (see the module docstring)."""
    from irscope.kernels import KernelInfo
    from irscope.kernelspec import FunctionKernel, RecordedKernel

    if isinstance(kernel, KernelInfo):
        described: dict[str, Any] = {"kind": "module", "path": str(kernel.path), "bundled": kernel.bundled,
                                     "source_sha": kernel.source_sha}
    elif isinstance(kernel, FunctionKernel):
        described = {"kind": "function", "ref": _plain(kernel.ref), "signature": [_plain(e) for e in kernel.signature],
                     "args": [_plain(a) for a in kernel.args], "constexprs": kernel.constexprs,
                     "options": kernel.options, "source_sha": kernel.source_sha}
    elif isinstance(kernel, RecordedKernel):
        described = {"kind": "recorded", "path": str(kernel.path), "qualname": kernel.qualname,
                     "replay": kernel.replay, "key": kernel.key}
    else:
        raise UsageError(f"{type(kernel).__name__} kernels cannot be compiled in another Triton")
    return {"kernel": described, "target": _plain(target), "config_index": config_index, "sizes": dict(sizes)}


def _plain(obj: Any) -> dict[str, Any]:
    """A dataclass as JSON-ready data (paths as text, tuples as lists)."""
    out = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if f.name == "obj":
            continue
        out[f.name] = str(value) if isinstance(value, Path) else list(value) if isinstance(value, tuple) else value
    return out


def job_from_data(data: dict[str, Any]) -> tuple[Any, Any, int, dict[str, int]]:
    """Rebuild ``(kernel, target, config_index, sizes)`` from ``job_data``'s output."""
    from irscope.kernels import read_kernel
    from irscope.kernelspec import ArgSpec, FunctionKernel, FunctionRef, RecordedKernel, SignatureEntry
    from irscope.targets import Target

    k = data["kernel"]
    kernel: Any
    if k["kind"] == "module":
        kernel = read_kernel(Path(k["path"]), bundled=bool(k["bundled"]))
        if kernel.source_sha != k["source_sha"]:
            raise UsageError(f"{k['path']} changed while it was being compiled; run the command again")
    elif k["kind"] == "function":
        ref = dict(k["ref"])
        ref["path"] = Path(ref["path"])
        ref["module_file"] = Path(ref["module_file"]) if ref.get("module_file") else None
        kernel = FunctionKernel(
            ref=FunctionRef(**ref),
            signature=tuple(SignatureEntry(**e) for e in k["signature"]),
            args=tuple(ArgSpec(**{**a, "shape": tuple(a.get("shape", ()))}) for a in k["args"]),
            constexprs=dict(k["constexprs"]), options=dict(k["options"]), source_sha=k["source_sha"])
    elif k["kind"] == "recorded":
        kernel = RecordedKernel(path=Path(k["path"]), qualname=k["qualname"], replay=k["replay"], key=k["key"])
    else:
        raise UsageError(f"unknown kernel kind {k['kind']!r} in a compile job")
    return kernel, Target(**data["target"]), int(data["config_index"]), dict(data["sizes"])


def call(message: dict[str, Any]) -> dict[str, Any]:
    """Send one request to a worker of the selected Triton; its reply (``ok`` false with a reason on failure)."""
    from irscope.tritons import selected, worker_command

    env = selected()
    where = env.describe() if env is not None else "this interpreter"
    proc = subprocess.run(worker_command("irscope.compile.remote"), input=json.dumps({"protocol": PROTOCOL, **message}),
                          capture_output=True, text=True)
    lines = proc.stdout.strip().splitlines()
    try:
        reply = json.loads(lines[-1]) if lines else {}
    except ValueError:
        reply = {}
    if not isinstance(reply, dict) or "ok" not in reply:
        tail = " ".join(proc.stderr.strip().splitlines()[-3:])[-400:]
        return {"ok": False, "kind": "internal", "exit_code": 1,
                "error": f"the compile worker of {where} stopped (exit status {proc.returncode}): {tail}"}
    if reply.get("protocol") != PROTOCOL:
        return {"ok": False, "kind": "internal", "exit_code": 1,
                "error": f"the compile worker of {where} speaks protocol {reply.get('protocol')}, not {PROTOCOL}"}
    return reply


def remote_capture(kernel: Any, target: Any, config_index: int, sizes: dict[str, int], store: Path,
                   force: bool) -> str:
    """Compile in the selected Triton's interpreter into ``store``; return the capture's key."""
    reply = call({"op": "capture", "store": str(store), "force": force,
                  "job": job_data(kernel, target, config_index, sizes)})
    if reply["ok"]:
        return str(reply["key"])
    if reply.get("kind") == "compile":
        raise CompileError(str(reply["error"]))
    error = UsageError(str(reply["error"]))
    error.exit_code = int(reply.get("exit_code", 1))
    raise error


def serve(message: dict[str, Any]) -> dict[str, Any]:
    """Answer one request (this runs in the worker)."""
    from irscope.store import Store, local_triton_version

    if message.get("protocol") != PROTOCOL:
        return {"ok": False, "kind": "internal", "exit_code": 1,
                "error": f"this worker speaks protocol {PROTOCOL}, the request is {message.get('protocol')}"}
    version = local_triton_version()
    if message.get("op") == "hello":
        return {"ok": True, "triton": version, "python": list(sys.version_info[:3])}
    if message.get("op") == "capture":
        from irscope.compile.capture import capture

        kernel, target, config_index, sizes = job_from_data(message["job"])
        made = capture(kernel, target, config_index, Store(Path(message["store"])), sizes,
                       force=bool(message.get("force")))
        return {"ok": True, "triton": version, "key": made.manifest.key}
    return {"ok": False, "kind": "usage", "exit_code": 2, "error": f"unknown request {message.get('op')!r}"}


def main() -> int:
    """Worker entry point: one request on stdin, one reply on stdout."""
    import warnings

    warnings.filterwarnings("ignore", message=".*TRITON_DEFAULT_FP_FUSION.*")
    try:
        reply = serve(json.loads(sys.stdin.read()))
    except CompileError as exc:
        reply = {"ok": False, "kind": "compile", "exit_code": exc.exit_code, "error": str(exc)}
    except IrscopeError as exc:
        reply = {"ok": False, "kind": "usage", "exit_code": exc.exit_code, "error": str(exc)}
    except Exception as exc:  # the parent reports it as one line; the traceback stays on our stderr
        import traceback

        traceback.print_exc()
        reply = {"ok": False, "kind": "internal", "exit_code": 1, "error": f"{type(exc).__name__}: {exc}"}
    reply["protocol"] = PROTOCOL
    sys.stdout.write(json.dumps(reply, default=str) + "\n")
    return 0 if reply["ok"] else 3


if __name__ == "__main__":
    sys.exit(main())
