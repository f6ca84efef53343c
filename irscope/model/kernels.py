"""The registry of kernels irscope knows: the bundled tutorials, or a kernel module given by path.

A kernel module declares its facts as module-level literals (NAME, KERNEL, DESCRIPTION, DTYPE,
SIZES, TEST_SIZES, BENCH_SIZES, CONFIGS, TOLERANCE) next to its ``@triton.jit`` function and the
functions ``make_tensors``, ``kernel_args``, ``grid`` and ``reference``. The literals are read
with ``ast`` so that listing kernels or looking up a cached capture never imports Triton.
"""

from __future__ import annotations

import ast
import hashlib
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from irscope.errors import UsageError, unknown

_REQUIRED = ("NAME", "KERNEL", "CONFIGS", "SIZES", "DTYPE")
_OPTIONAL_DEFAULTS: dict[str, Any] = {
    "DESCRIPTION": "",
    "TEST_SIZES": None,
    "BENCH_SIZES": [],
    "TOLERANCE": {"atol": 1e-2, "rtol": 1e-2},
}


@dataclass(frozen=True)
class KernelInfo:
    """A kernel module's declared facts, read without executing it.

    Attributes:
        name: registry name (``matmul``).
        path: the module's .py file.
        function: name of the ``@triton.jit`` function to compile.
        description: one line for ``irscope list``.
        dtype: torch dtype name of its tensors (``float16``).
        sizes: default problem sizes, used for captures.
        test_sizes: sizes for correctness runs (deliberately not multiples of the blocks).
        bench_sizes: sizes for benchmarks.
        configs: per backend (``cuda``/``hip``) the list of launch configs (constexprs + num_warps...).
        tolerance: ``atol``/``rtol`` for correctness.
        source_sha: sha256 of the module's text; part of every capture key.
        bundled: whether it ships with irscope.
        settings: ``--set`` values merged into its configs (a what-if variant), else empty.
    """

    kind: ClassVar[str] = "module"
    compiles_recorded_ir: ClassVar[bool] = False  # its per-pass compile runs the module, not IR a program recorded

    name: str
    path: Path
    function: str
    description: str
    dtype: str
    sizes: dict[str, int]
    test_sizes: dict[str, int]
    bench_sizes: list[dict[str, int]]
    configs: dict[str, list[dict[str, Any]]] = field(hash=False)
    tolerance: dict[str, float] = field(hash=False)
    source_sha: str = ""
    bundled: bool = True
    settings: dict[str, Any] = field(default_factory=dict, hash=False)

    def configs_for(self, backend: str) -> list[dict[str, Any]]:
        """The launch configs for a backend."""
        return self.configs.get(backend, [])

    def config(self, backend: str, index: int) -> dict[str, Any]:
        """One launch config, or a usage error naming the valid indices."""
        configs = self.configs_for(backend)
        if not configs:
            raise UsageError(f"kernel {self.name!r} declares no configs for {backend} targets")
        if not 0 <= index < len(configs):
            raise UsageError(
                f"unknown config {index} for {self.name} on {backend}; valid: 0..{len(configs) - 1} "
                f"(see 'irscope list {self.name}')"
            )
        return configs[index]

    def key_payload(self, backend: str, config_index: int, sizes: dict[str, int]) -> dict[str, Any]:
        """What identifies a compile of this kernel, for the capture key."""
        return {"kernel_sha": self.source_sha, "function": self.function, "config": self.config(backend, config_index),
                "sizes": sizes, "dtype": self.dtype}

    @property
    def origin(self) -> str:
        """Where its captures come from, as their manifests say: ``bundled`` or ``module``."""
        return "bundled" if self.bundled else "module"

    def default_sizes(self) -> dict[str, int]:
        """The problem sizes a capture is made for when none are given."""
        return dict(self.sizes)

    def describe_arguments(self) -> str:
        """The launch as the user described it: nothing, the module's own ``kernel_args`` and ``grid`` describe it."""
        return ""

    def source_file(self, recorded: str) -> Path:
        """The file a compile of it reads, whose text its capture's source copy holds (``recorded``: the capture's
        kernel path)."""
        return self.path

    def defining_file(self, fn: Any) -> tuple[Path, str]:
        """The file that defines the compiled function ``fn`` and its name there: the module and its KERNEL."""
        return Path(self.path), self.function

    def to_data(self) -> dict[str, Any]:
        """Its JSON form (``from_data`` rebuilds it where the module's file is the same)."""
        return {"kind": self.kind, "path": str(self.path), "bundled": self.bundled, "source_sha": self.source_sha,
                "configs": self.configs, "settings": self.settings}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> KernelInfo:
        """The kernel ``to_data`` described, read again; UsageError when its file changed meanwhile."""
        info = read_kernel(Path(data["path"]), bundled=bool(data["bundled"]))
        if info.source_sha != data["source_sha"]:
            raise UsageError(f"{data['path']} changed while it was being compiled; run the command again")
        # The configs travel too: a --set variant changed one of them.
        return replace(info, configs={b: [dict(c) for c in cs] for b, cs in data["configs"].items()},
                       settings=dict(data.get("settings", {})))


def bundled_dir() -> Path:
    """Where the bundled kernels live: inside the wheel, or the repo's top-level kernels/."""
    package = Path(__file__).resolve().parents[1]
    inside = package / "_bundled_kernels"
    return inside if inside.is_dir() else package.parent / "kernels"


def _literal_assignments(tree: ast.Module, path: Path) -> dict[str, Any]:
    """Module-level ``NAME = <literal>`` assignments that ast.literal_eval can read.

    The kernel facts irscope reads (``_REQUIRED`` and ``_OPTIONAL_DEFAULTS``) must be literals;
    one that is not (``2**28``, a call) is an error naming the line, never silently dropped.
    """
    found: dict[str, Any] = {}
    for node in tree.body:
        target: ast.expr | None = None
        value: ast.expr | None = None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign):
            target, value = node.target, node.value
        if not isinstance(target, ast.Name) or not target.id.isupper() or value is None:
            continue
        try:
            found[target.id] = ast.literal_eval(value)
        except ValueError:
            if target.id in _REQUIRED or target.id in _OPTIONAL_DEFAULTS:
                raise UsageError(f"{path}:{node.lineno}: {target.id} must be a plain literal (numbers, strings, "
                                 "lists, dicts), not an expression, so irscope can read it without running the "
                                 "module") from None
    return found


@cache
def read_kernel(path: Path, bundled: bool = False) -> KernelInfo:
    """Read a kernel module's declared facts from its source text."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read kernel file {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise UsageError(f"kernel file {path} is not UTF-8 text (byte {exc.start}); save it as UTF-8") from None
    try:
        tree = ast.parse(text, filename=str(path))
    except SyntaxError as exc:
        raise UsageError(f"{path}:{exc.lineno}: not valid Python: {exc.msg}") from None
    facts = _literal_assignments(tree, path)
    missing = [k for k in _REQUIRED if k not in facts]
    if missing:
        raise UsageError(
            f"{path} is not an irscope kernel module: it lacks the literal(s) {', '.join(missing)} "
            "(see docs/kernels.md)"
        )
    facts = {**_OPTIONAL_DEFAULTS, **facts}
    configs = facts["CONFIGS"]
    if isinstance(configs, list):
        configs = {"cuda": configs, "hip": configs}
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    if facts["KERNEL"] not in functions:
        raise UsageError(f"{path}: KERNEL = {facts['KERNEL']!r} names no function defined in the module")
    return KernelInfo(
        name=str(facts["NAME"]),
        path=path,
        function=str(facts["KERNEL"]),
        description=str(facts["DESCRIPTION"]),
        dtype=str(facts["DTYPE"]),
        sizes=dict(facts["SIZES"]),
        test_sizes=dict(facts["TEST_SIZES"] or facts["SIZES"]),
        bench_sizes=list(facts["BENCH_SIZES"]),
        configs={k: list(v) for k, v in configs.items()},
        tolerance=dict(facts["TOLERANCE"]),
        source_sha=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        bundled=bundled,
    )


def bundled_kernels() -> dict[str, KernelInfo]:
    """The kernels that ship with irscope, by name."""
    found: dict[str, KernelInfo] = {}
    for path in sorted(bundled_dir().glob("*.py")):
        if path.name.startswith("_"):
            continue
        info = read_kernel(path, bundled=True)
        found[info.name] = info
    return found


def get_kernel(spec: str) -> KernelInfo:
    """A bundled kernel by name, or a kernel module by path (``path/to/kernel.py``)."""
    direct = bundled_dir() / f"{spec}.py"
    if spec.isidentifier() and len(spec) < _LONGEST_NAME and direct.is_file() \
            and (info := read_kernel(direct, bundled=True)).name == spec:
        return info
    kernels = bundled_kernels()
    if spec in kernels:
        return kernels[spec]
    if spec.endswith(".py") or "/" in spec:
        try:
            path = Path(spec).expanduser().resolve()
            found = path.is_file()
        except (OSError, RuntimeError) as exc:  # a name too long, a symlink loop
            why = exc.strerror if isinstance(exc, OSError) else str(exc)
            raise UsageError(f"kernel file {_short(spec)} cannot be opened: {why}") from None
        if not found:
            raise UsageError(f"kernel file {_short(spec)} does not exist; bundled kernels: {', '.join(kernels)}")
        return read_kernel(path)
    raise unknown("kernel", _short(spec), tuple(kernels))


_LONGEST_NAME = 200


def _short(name: str) -> str:
    """A name cut in the middle when too long for one readable line."""
    return name if len(name) <= _LONGEST_NAME else f"{name[:80]}...{name[-80:]} ({len(name)} characters)"
