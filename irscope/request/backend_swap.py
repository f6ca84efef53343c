"""Backend or lowering? Each side's LLVM IR through the other side's backend, and the facts of what comes out.

Two Tritons that print the same TTGIR can still give different machine code for two reasons: Triton lowers
the TTGIR to different LLVM IR, or the LLVM (and ptxas) each Triton carries turns IR into different machine
code. Feeding A's LLVM IR to B's backend (and B's to A's) tells the two apart, as compiler engineers do by hand
(Triton PR #11249 did it for aiter's attention kernel). The result of each direction is kept as a capture of its
own beside the IR's capture (``captures/<A>/derived/swap/<B>/``: A's files to the LLVM IR, B's backend's
below), so a second ``compare`` reads it instead of compiling; ``irscope.analysis.attribution`` says which
half each moved fact follows.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path
from typing import Any

from irscope.analysis.attribution import Swap, SwapReport, attribute, exposed, is_backend_fact
from irscope.errors import StoreError
from irscope.store.manifest import MANIFEST, Manifest
from irscope.store.store import Capture, file_checksum
from irscope.toolchain.derived import DERIVED
from irscope.toolchain.tritons import TritonEnv, worker_command

__all__ = ["SWAP_STAGE", "explain_moves", "swap_backends"]

# The IR handed over: LLVM IR, below every pass Triton runs and above every pass of LLVM's code generator.
SWAP_STAGE = "llir"
_TIMEOUT_S = 600
_MARK = "swap.json"  # written last: a folder without it is a swap that did not finish
_FORMAT = 1  # in the mark: a swap kept by an irscope that lowered differently is made again
_NOT_RUN = "not run yet (irscope compare of the two runs it)"


def _reply(python_env: TritonEnv | None, request: dict[str, Any]) -> dict[str, Any]:
    """Run irscope.compile.lower in ``python_env``'s interpreter; its reply, or its error as one line."""
    command = worker_command("irscope.compile.lower", env=python_env)
    env = {k: v for k, v in os.environ.items() if k != "IRSCOPE_TRITON"}
    try:
        done = subprocess.run(command, input=json.dumps(request), capture_output=True, text=True, env=env,
                              timeout=_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"the backend ran past {_TIMEOUT_S} s"}
    try:
        reply = json.loads(done.stdout) if done.stdout.strip() else {}
    except ValueError:
        reply = {}
    if isinstance(reply, dict) and "ok" in reply:
        return reply
    fatal = [line.strip() for line in done.stderr.splitlines() if "LLVM ERROR" in line or "error:" in line]
    last = fatal[-1] if fatal else (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    # Example: LLVM ERROR: failed to parse IR: unterminated attribute grouplineno: 1029   (LLVM's own spacing)
    last = re.sub(r"(\S)lineno: (\d+)", r"\1 (line \2)", last)
    return {"ok": False, "error": last[:300]}


def _build(ir_side: Capture, folder: Path, files: dict[str, Any], version: str) -> Capture:
    """The swapped capture in ``folder``: ``ir_side``'s files down to its LLVM IR, ``files`` below it."""
    staging = folder.with_name(f".{folder.name}.{os.getpid()}.{os.urandom(3).hex()}")
    staging.mkdir(parents=True)
    try:
        manifest = _fill(ir_side, staging, folder.name, files, version)
        shutil.rmtree(folder, ignore_errors=True)
        os.replace(staging, folder)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)  # never a half-written swap
        raise
    return Capture(folder, manifest)


def _fill(ir_side: Capture, staging: Path, name: str, files: dict[str, Any], version: str) -> Manifest:
    names: dict[str, str] = {}
    for stage in [n for n in ir_side.manifest.files if n not in files]:  # its files down to the IR, Triton's json
        shutil.copyfile(ir_side.artifact_path(stage), staging / ir_side.manifest.files[stage])
        names[stage] = ir_side.manifest.files[stage]
    stem = Path(ir_side.manifest.files.get(SWAP_STAGE, "kernel.llir")).stem
    for stage, value in files.items():
        file = f"{stem}.{stage}"
        if isinstance(value, dict):
            (staging / file).write_bytes(base64.b64decode(str(value.get("base64", ""))))
        else:
            (staging / file).write_text(str(value), encoding="utf-8")
        names[stage] = file
    m = ir_side.manifest
    manifest = replace(m, key=f"{m.key}.swap.{name}", files=names,
                       triton_version=f"{m.triton_version} to {SWAP_STAGE}, {version} below",
                       checksums={n: file_checksum(staging / f) for n, f in names.items()})
    (staging / MANIFEST).write_text(json.dumps(manifest.to_json(), indent=1, default=str), encoding="utf-8")
    (staging / _MARK).write_text(json.dumps({"backend_triton": version, "format": _FORMAT}), encoding="utf-8")
    return manifest


def _cached(folder: Path) -> Capture | None:
    try:
        mark = json.loads((folder / _MARK).read_text(encoding="utf-8"))
        if not isinstance(mark, dict) or mark.get("format") != _FORMAT:
            return None
        return Capture(folder, Manifest.from_json(json.loads((folder / MANIFEST).read_text(encoding="utf-8"))))
    except (OSError, ValueError, StoreError):
        return None


def _one(ir_side: Capture, backend_side: Capture, backend_env: TritonEnv | None, labels: tuple[str, str],
         name: str = "", make: bool = True) -> Swap:
    """``ir_side``'s LLVM IR through ``backend_side``'s Triton's backend (cached beside ``ir_side`` as ``name``,
    by default the other capture's key; ``make`` False: only what is cached)."""
    folder = ir_side.path / DERIVED / "swap" / (name or backend_side.manifest.key)
    version = backend_side.manifest.triton_version
    base = Swap(ir=labels[0], backend=labels[1], triton_ir=ir_side.manifest.triton_version, triton_backend=version,
                capture=None)
    found = _cached(folder)
    if found is not None:
        return replace(base, capture=found)
    failed = folder / f"error.{_FORMAT}.txt"
    if failed.is_file():
        return replace(base, error=failed.read_text(encoding="utf-8").strip())
    if not make:
        return replace(base, error=_NOT_RUN)
    m = ir_side.manifest
    try:
        metadata = json.loads(ir_side.artifact_path("json").read_text(encoding="utf-8")) if "json" in m.files \
            else dict(m.metadata)
        request = {"stage": SWAP_STAGE, "text": ir_side.read(SWAP_STAGE), "backend": m.backend, "arch": m.arch,
                   "warp_size": m.warp_size, "options": m.options, "metadata": metadata}
    except (StoreError, ValueError) as exc:
        return replace(base, error=f"capture {m.key}: {exc}")
    reply = _reply(backend_env, request)
    if not reply.get("ok"):
        error = f"Triton {version}'s backend did not take Triton {m.triton_version}'s LLVM IR: {reply.get('error')}"
        if "parse" in str(reply.get("error")):
            error += " (an LLVM cannot always read a newer LLVM's IR)"
        try:
            failed.parent.mkdir(parents=True, exist_ok=True)
            failed.write_text(error + "\n", encoding="utf-8")
        except OSError:
            pass
        return replace(base, error=error)
    try:
        return replace(base, capture=_build(ir_side, folder, dict(reply.get("files") or {}), version))
    except (OSError, StoreError) as exc:
        return replace(base, error=f"the swapped capture could not be kept: {exc}")


def swap_backends(left: Capture, right: Capture, left_env: TritonEnv | None,
                  right_env: TritonEnv | None, make: bool = True) -> tuple[Swap, Swap]:
    """A's LLVM IR through B's backend, and B's through A's (``*_env``: each side's Triton; None: this one's;
    ``make`` False: only the swaps already kept)."""
    if left.manifest.backend != right.manifest.backend or left.manifest.arch != right.manifest.arch:
        raise StoreError("a backend swap needs two captures for one target")
    return (_one(left, right, right_env, ("A", "B"), make=make), _one(right, left, left_env, ("B", "A"), make=make))


def explain_moves(left: Capture, right: Capture, left_env: TritonEnv | None, right_env: TritonEnv | None,
                  a_facts: dict[str, Any], b_facts: dict[str, Any], make: bool = True) -> SwapReport | None:
    """Swap the two sides' backends and attribute each moved machine-code fact (and say what a swap moves that
    the two sides agree on); None when no machine-code fact moved, or (``make`` False: nothing is compiled, as
    in the TUI) when neither swap is kept."""
    from irscope.analysis.facts import capture_facts, compare_facts

    moved = [(d.name, d.before, d.after) for d in compare_facts(a_facts, b_facts)]
    if not any(is_backend_fact(name) for name, _, _ in moved):
        return None
    if (left.manifest.triton_version == right.manifest.triton_version
            or (left.manifest.backend, left.manifest.arch) != (right.manifest.backend, right.manifest.arch)):
        return None
    swaps = swap_backends(left, right, left_env, right_env, make)
    if not make and all(s.error == _NOT_RUN for s in swaps):
        return None
    facts = [capture_facts(s.capture) if s.capture is not None else None for s in swaps]
    unread = tuple(u for f in facts if f is not None for u in f.unread)
    swapped = [f.values if f is not None else None for f in facts]
    rows = attribute(moved, *swapped) + exposed(a_facts, b_facts, *swapped)
    controls = _controls(left, right, left_env, right_env, {r.fact for r in rows}, make)
    doubtful = {fact for fact, _ in controls}
    rows = [replace(r, follows="unsure", backend_share=None) if r.fact in doubtful else r for r in rows]
    said = tuple(dict.fromkeys(line for _, line in controls))
    return SwapReport(swaps=swaps, rows=tuple(rows), unread=unread, controls=said)


def _controls(left: Capture, right: Capture, left_env: TritonEnv | None, right_env: TritonEnv | None,
              names: set[str], make: bool = True) -> list[tuple[str, str]]:
    """Each side's own LLVM IR through its own backend: ``(fact, what it gave)`` where that does not give the
    side's stored value, which would make a swap's value mean nothing for that fact."""
    from irscope.analysis.facts import capture_facts

    out: list[tuple[str, str]] = []
    for label, side, env in (("A", left, left_env), ("B", right, right_env)):
        control = _one(side, side, env, (label, label), name="self", make=make)
        if control.capture is None and control.error == _NOT_RUN:
            continue
        if control.capture is None:
            out += [(n, f"{label}'s own LLVM IR through its own backend did not compile: {control.error}")
                    for n in sorted(names)]
            continue
        got, kept = capture_facts(control.capture).values, capture_facts(side).values
        out += [(n, f"{label}'s own LLVM IR through its own backend gives {n} {got.get(n)}, not {kept.get(n)}")
                for n in sorted(names) if got.get(n) != kept.get(n)]
    return out
