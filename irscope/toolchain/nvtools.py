"""Triton's bundled NVIDIA tools run on a stored capture, their output cached inside the capture.

Triton's wheel carries ``nvdisasm``, ``cuobjdump``, ``ptxas`` and ``ptxas-blackwell`` in
``triton/backends/nvidia/bin``. They are found with ``importlib.util.find_spec`` (Triton itself is
never imported) or through Triton's own variables (``TRITON_NVDISASM_PATH``, ...). Each tool output has
one function here (``sass_dump``, ``sass_with_lines``, ``sass_with_ptx_lines``, ``resource_usage``,
``ptxas_verbose``); each run is stored as ``derived/<name>.json`` beside the capture's manifest
(irscope.toolchain.derived), with the sha256 of its input and the tool's size, so a second look costs nothing.
A disassembler's start-up costs about half a second on any cubin, so the SASS readers share one run,
``disassembly`` (``nvdisasm -c -gi -gp -hex``), and the listings with lines are cut from it
(irscope.toolchain.nvdisasm_split); Triton's ``.sass`` layout is made from it too (irscope.toolchain.sass_lazy).
The analyses call these; the store runs none of them.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from irscope.errors import StoreError
from irscope.toolchain.derived import StoredCapture, derived_file, write_derived
from irscope.toolchain.nvdisasm_split import ARGS, split_listing
from irscope.toolchain.tritons import local_triton_version

_FORMAT = 1
_TIMEOUT = 120


@dataclass(frozen=True)
class ToolRun:
    """What one tool printed about a capture.

    Attributes:
        name: what was asked (``sass-lineinfo``, ``resource-usage``, ``ptxas-v``).
        command: the command line, tools by base name.
        stdout: what it printed on stdout.
        stderr: what it printed on stderr.
        returncode: its exit status; -1 when it could not be run.
        problem: why there is no usable output (tool missing, input missing, failure), else "".
        cached: whether this came from the capture's cache.
        reproduces: for a rerun of ptxas, whether its cubin equals the capture's byte for byte (None: not compared).
    """

    name: str
    command: tuple[str, ...]
    stdout: str
    stderr: str
    returncode: int
    problem: str = ""
    cached: bool = False
    reproduces: bool | None = None

    @property
    def ok(self) -> bool:
        """Whether the tool ran and succeeded."""
        return not self.problem and self.returncode == 0


def tool_path(binary: str) -> Path | None:
    """Where a bundled NVIDIA tool is: Triton's ``TRITON_<NAME>_PATH``, else Triton's wheel, else PATH."""
    env = os.environ.get(f"TRITON_{binary.upper().replace('-', '_')}_PATH")
    candidates: list[Path] = [Path(env)] if env else []
    spec = importlib.util.find_spec("triton")
    if spec is not None and spec.origin is not None:
        candidates.append(Path(spec.origin).parent / "backends" / "nvidia" / "bin" / binary)
    which = shutil.which(binary)
    if which:
        candidates.append(Path(which))
    for path in candidates:
        if path.is_file() and os.access(path, os.X_OK):
            return path
    return None


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@functools.cache
def _tool_id(tool: Path) -> str:
    """The tool's size in bytes: another release of it (another Triton's wheel) misses the cache, which it may not
    print the same as (a cache opened with committed captures, tests/derived_cache.py, is checked so too)."""
    try:
        return str(tool.stat().st_size)
    except OSError:
        return "?"


def _read_cache(capture: StoredCapture, name: str, digest: str) -> ToolRun | None:
    try:
        data = json.loads(derived_file(capture.path, f"{name}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != _FORMAT or data.get("input_sha256") != digest:
        return None
    same = data.get("reproduces")
    return ToolRun(name=name, command=tuple(data.get("command", ())), stdout=str(data.get("stdout", "")),
                   stderr=str(data.get("stderr", "")), returncode=int(data.get("returncode", -1)), cached=True,
                   reproduces=same if isinstance(same, bool) else None)


def _write_cache(capture: StoredCapture, run: ToolRun, digest: str) -> None:
    """Store a run beside the capture; a read-only store just means no cache."""
    payload: dict[str, Any] = {"format": _FORMAT, "input_sha256": digest, "command": list(run.command),
                               "returncode": run.returncode, "stdout": run.stdout, "stderr": run.stderr,
                               "reproduces": run.reproduces}
    write_derived(capture.path, f"{run.name}.json", json.dumps(payload))


def _digest(source: Path, tool: Path, args: list[str]) -> str:
    """What a cached run is keyed by: the input's sha256, the tool's name and size, the arguments."""
    return f"{_sha256(source)}:{tool.name}:{_tool_id(tool)}:{' '.join(args)}"


def cached_run(capture: StoredCapture, name: str, artifact: str, binary: str, args: list[str]) -> ToolRun | None:
    """The run ``_run`` would make, when the capture's cache holds it for this very input and tool; else None."""
    file = capture.manifest.files.get(artifact)
    tool = tool_path(binary)
    if file is None or tool is None or not (capture.path / file).is_file():
        return None
    return _read_cache(capture, name, _digest(capture.path / file, tool, args))


def _run(capture: StoredCapture, name: str, artifact: str, binary: str, args: list[str], same_as: str = "") -> ToolRun:
    """Run ``binary args... <artifact file>`` (cached); ``{out}`` in args becomes a scratch output path.

    With ``same_as`` (an artifact name), the scratch output is compared with that artifact of the capture.
    """
    file = capture.manifest.files.get(artifact)
    if file is None or not (capture.path / file).is_file():
        return ToolRun(name, (), "", "", -1, problem=f"capture {capture.manifest.key} has no {artifact} file")
    source = capture.path / file
    tool = tool_path(binary)
    if tool is None:
        return ToolRun(name, (), "", "", -1,
                       problem=f"{binary} not found (it ships with Triton in triton/backends/nvidia/bin)")
    digest = _digest(source, tool, args)
    if (hit := _read_cache(capture, name, digest)) is not None:
        return hit
    with tempfile.TemporaryDirectory(prefix="irscope-") as scratch:
        argv = [str(tool), *(a.replace("{out}", str(Path(scratch) / "out")) for a in args), str(source)]
        shown = (binary, *args, file)
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=_TIMEOUT, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return ToolRun(name, shown, "", "", -1, problem=f"{binary} could not run: {exc}")
        same: bool | None = None
        if same_as and (other := capture.manifest.files.get(same_as)):
            try:
                same = (Path(scratch) / "out").read_bytes() == (capture.path / other).read_bytes()
            except OSError:
                same = False
    run = ToolRun(name, shown, done.stdout, done.stderr, done.returncode, reproduces=same)
    _write_cache(capture, run, digest)
    return run


def _require_cuda(capture: StoredCapture, what: str) -> None:
    if capture.manifest.backend != "cuda":
        raise StoreError(f"{what} needs an NVIDIA capture; {capture.manifest.key} is for {capture.manifest.target}")


def sass_dump(capture: StoredCapture) -> ToolRun:
    """``cuobjdump -sass`` on the capture's cubin: the listing that irscope.toolchain.sass_lazy lays out as Triton's."""
    _require_cuda(capture, "SASS")
    return _run(capture, "cuobjdump-sass", "cubin", "cuobjdump", ["-sass"])


def cached_sass_dump(capture: StoredCapture) -> ToolRun | None:
    """The :func:`sass_dump` run the capture's cache holds for this cubin and cuobjdump (made before the SASS
    readers shared :func:`disassembly`), else None: nothing is run."""
    return cached_run(capture, "cuobjdump-sass", "cubin", "cuobjdump", ["-sass"])


def disassembly(capture: StoredCapture) -> ToolRun:
    """``nvdisasm -c -gi -gp -hex`` on the capture's cubin: the one disassembly the SASS readers share (source and
    PTX lines, and each instruction's encoding, as cuobjdump prints it)."""
    _require_cuda(capture, "SASS")
    return _run(capture, "nvdisasm-all", "cubin", "nvdisasm", list(ARGS))


def _from_disassembly(capture: StoredCapture, name: str, args: list[str], keep: str) -> ToolRun:
    """What ``nvdisasm args`` prints, cut from the shared disassembly (a run of its own made before is read as it
    is; an nvdisasm that cannot print both line tables at once runs on its own)."""
    if (own := cached_run(capture, name, "cubin", "nvdisasm", args)) is not None:
        return own
    whole = disassembly(capture)
    if not whole.ok:
        if whole.returncode == -1:  # no cubin, no nvdisasm: running it alone would say the same
            return replace(whole, name=name)
        return _run(capture, name, "cubin", "nvdisasm", args)
    return replace(whole, name=name, command=("nvdisasm", *args, *whole.command[len(ARGS) + 1:]),
                   stdout=split_listing(whole.stdout, keep))


def sass_with_lines(capture: StoredCapture) -> ToolRun:
    """``nvdisasm -c -gi`` on the capture's cubin: SASS with source lines and inlining."""
    _require_cuda(capture, "SASS line info")
    return _from_disassembly(capture, "sass-lineinfo", ["-c", "-gi"], "source")


def sass_with_ptx_lines(capture: StoredCapture) -> ToolRun:
    """``nvdisasm -c -gp`` on the capture's cubin: SASS with the line of the capture's PTX each came from."""
    _require_cuda(capture, "SASS line info")
    return _from_disassembly(capture, "sass-ptxlines", ["-c", "-gp"], "ptx")


def resource_usage(capture: StoredCapture) -> ToolRun:
    """``cuobjdump --dump-resource-usage`` on the capture's cubin: registers, stack, shared, local."""
    _require_cuda(capture, "resource usage")
    return _run(capture, "resource-usage", "cubin", "cuobjdump", ["--dump-resource-usage"])


def _ptx_target(capture: StoredCapture) -> str:
    """The ``.target`` of the capture's PTX (``sm_90a``), which ptxas takes as --gpu-name."""
    try:
        head = capture.read("ptx").splitlines()[:40]
    except StoreError:
        head = []
    for line in head:
        if line.startswith(".target"):
            return line.split()[1].rstrip(",")
    arch = int(capture.manifest.arch)
    return f"sm_{arch}{'a' if arch >= 90 else ''}"


@functools.cache
def _adds_regalloc_level(version: str) -> bool:
    """Whether the Triton that made a capture passes ``--regAllocOptLevel=2`` to ptxas (it changes registers).

    Read from the installed Triton's NVIDIA backend source (never imported) when the capture was made by
    that version; 3.5 and 3.6 do not pass it, 3.9 does. Other versions: assumed as 3.9 from 3.7 on.
    """
    spec = importlib.util.find_spec("triton")
    if spec is not None and spec.origin is not None and version == local_triton_version():
        try:
            text = (Path(spec.origin).parent / "backends" / "nvidia" / "compiler.py").read_text(encoding="utf-8")
            return "--regAllocOptLevel=2" in text
        except OSError:
            pass
    parts = [int(p) for p in re.findall(r"\d+", version)[:2]]
    return parts >= [3, 7]


def _ptxas(capture: StoredCapture, verbose: bool, binary: str | None = None, regalloc: bool | None = None
           ) -> tuple[str, list[str]]:
    """The ptxas binary and arguments Triton assembles the capture's PTX with (``-o {out}`` last)."""
    options = capture.manifest.options
    if binary is None:
        # Wheels that ship ptxas-blackwell assemble sm90 and newer with it (Triton 3.9 does); older ones ship one.
        newer = int(capture.manifest.arch) >= 90 and tool_path("ptxas-blackwell") is not None
        binary = "ptxas-blackwell" if newer else "ptxas"
    if regalloc is None:
        regalloc = _adds_regalloc_level(capture.manifest.triton_version)
    args = ["-lineinfo", *(["-v"] if verbose else []), *(["--regAllocOptLevel=2"] if regalloc else [])]
    if options.get("enable_fp_fusion") is False:
        args.append("--fmad=false")
    if options.get("ptx_options"):
        args += str(options["ptx_options"]).split()
    args += [f"--gpu-name={_ptx_target(capture)}", "-o", "{out}"]
    return binary, args


def ptxas_verbose(capture: StoredCapture) -> ToolRun:
    """The capture's PTX assembled again with ``ptxas -v``, as Triton invoked it (Triton drops that log).

    Which ptxas and flags a Triton release uses changed between releases (3.9 assembles sm90 with
    ptxas-blackwell and ``--regAllocOptLevel=2``); the rerun whose cubin equals the capture's byte for
    byte is the one returned, so its register and spill figures are those of the real compile. When
    none does, the first is returned with ``reproduces`` False.
    """
    _require_cuda(capture, "ptxas")
    default_binary, _ = _ptxas(capture, verbose=True)
    default_regalloc = _adds_regalloc_level(capture.manifest.triton_version)
    binaries = [default_binary] + [b for b in ("ptxas-blackwell", "ptxas") if b != default_binary and tool_path(b)]
    first: ToolRun | None = None
    for regalloc in (default_regalloc, not default_regalloc):
        for binary in binaries:
            name = "ptxas-v" if (binary, regalloc) == (default_binary, default_regalloc) else \
                f"ptxas-v-{binary}-{'ra2' if regalloc else 'ra0'}"
            binary, args = _ptxas(capture, True, binary, regalloc)
            run = _run(capture, name, "ptx", binary, args, same_as="cubin")
            first = first or run
            if run.reproduces or (run.reproduces is None and run.ok):
                return run
    assert first is not None
    return first

