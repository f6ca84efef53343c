"""The digest of the source ``report``'s cached answers depend on: every irscope module the report path imports.

The set is the import graph from ``ROOTS``, read from the modules' source (``import`` statements at any depth,
function-local ones included, and module names written as strings, as ``importlib.import_module`` takes them), not
a hand list: a module the model starts to import is covered as soon as it is. Nothing is imported or run.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = ["ROOTS", "model_digest", "report_modules"]

# Where a row's facts come from: the report's own modules and the request that models a capture for it.
ROOTS = ("irscope.analysis.report.build", "irscope.analysis.report.facts", "irscope.analysis.report.reasons",
         "irscope.request.program_report")
_PACKAGE = Path(__file__).resolve().parents[2]  # the irscope package folder


def _path(module: str, package: Path) -> Path | None:
    parts = module.split(".")
    if parts[0] != "irscope":
        return None
    base = package.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _named(tree: ast.AST, module: str, is_package: bool) -> Iterable[str]:
    """The irscope modules a module's source names: its imports (relative ones resolved) and module-name strings."""
    here = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)  # ``from irscope.x import module``
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value.startswith("irscope.")
              and all(part.isidentifier() for part in node.value.split("."))):
            yield node.value


def report_modules(roots: Iterable[str] = ROOTS, package: Path = _PACKAGE) -> dict[str, Path]:
    """Every irscope module reachable by imports from ``roots``, with its file, by name (parent packages included:
    their ``__init__`` runs on import)."""
    found: dict[str, Path] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in found:
            continue
        path = _path(name, package)
        if path is None:
            continue
        found[name] = path
        parent = name.rpartition(".")[0]
        if parent:
            todo.append(parent)
        tree = ast.parse(path.read_bytes(), filename=str(path))
        todo.extend(n for n in _named(tree, name, path.name == "__init__.py") if n.startswith("irscope"))
    return found


def model_digest(read: Callable[[Path], bytes] | None = None, modules: dict[str, Path] | None = None) -> str:
    """sha256 (10 hex digits) over the name and source of every module ``report_modules`` finds (or of ``modules``);
    ``read``: how a module's source is read (a test changes one)."""
    reader = read or (lambda path: path.read_bytes())
    digest = hashlib.sha256()
    for name, path in sorted((modules if modules is not None else report_modules()).items()):
        digest.update(name.encode() + b"\0" + hashlib.sha256(reader(path)).digest())
    return digest.hexdigest()[:10]
