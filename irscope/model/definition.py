"""Where a name bound in a Python module is defined, read from source with ``ast`` (nothing is imported).

``pkg.ops:twice`` may name a kernel that ``pkg/ops.py`` only re-exports (``from .impl import twice``);
the compiler's source positions then point into ``pkg/impl.py``, so that file and its line numbers are
the kernel's source. Followed: ``from M import x [as y]`` (absolute and relative), ``from M import *``,
``import M as m`` + ``y = m.x``, and ``y = x``. Anything else (``y = make_kernel()``) is not followed.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

_MAX_HOPS = 32
_Seen = frozenset[tuple[Path, str]]


@dataclass(frozen=True)
class Definition:
    """A function's definition site.

    Attributes:
        path: the file with its ``def``.
        qualname: its name in that file (``Cls.fn`` for methods).
        line: the first line of the definition, its decorators included.
    """

    path: Path
    qualname: str
    line: int


def module_file(module: str, search: list[Path] | None = None) -> Path | None:
    """``a.b.c``'s source file on ``search`` (default: sys.path), found without importing its packages."""
    parts = module.split(".")
    bases = search if search is not None else [Path(entry or ".") for entry in sys.path]
    for base in bases:
        for candidate in (base.joinpath(*parts).with_suffix(".py"), base.joinpath(*parts, "__init__.py")):
            if candidate.is_file():
                return candidate.resolve()
    return None


def _parse(path: Path) -> ast.Module | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return _parse_cached(path, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=256)
def _parse_cached(path: Path, mtime_ns: int, size: int) -> ast.Module | None:
    """A file's syntax tree, read once per version of the file."""
    try:
        return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None


def _package_dir(path: Path, level: int) -> Path:
    """The directory a relative import of ``level`` dots starts from, in the module at ``path``."""
    base = path.parent
    for _ in range(level - 1):
        base = base.parent
    return base


def _imported_file(path: Path, node: ast.ImportFrom) -> Path | None:
    """The file of the module an ``from ... import`` statement in ``path`` reads."""
    if node.level:
        base = _package_dir(path, node.level)
        return module_file(node.module, [base]) if node.module else (base / "__init__.py").resolve()
    if node.module is None:
        return None
    return module_file(node.module, [path.parent]) or module_file(node.module)


def _first_line(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> int:
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def _top_level(tree: ast.Module) -> list[ast.stmt]:
    """Module-level statements, including those inside top-level ``if``/``try`` blocks."""
    out: list[ast.stmt] = []
    pending = list(tree.body)
    while pending:
        node = pending.pop(0)
        out.append(node)
        if isinstance(node, ast.If):
            pending[:0] = [*node.body, *node.orelse]
        elif isinstance(node, ast.Try):
            pending[:0] = [*node.body, *node.orelse, *node.finalbody]
    return out


def find_definition(path: Path, name: str, _seen: _Seen = frozenset()) -> Definition | None:
    """Where the module-level name ``name`` (``a`` or ``Cls.a``) of the module at ``path`` is defined; None if
    unknown."""
    if (path, name) in _seen or len(_seen) > _MAX_HOPS:
        return None  # an import cycle, or a chain too long to be real
    tree = _parse(path)
    if tree is None:
        return None
    seen = _seen | {(path, name)}
    head, _, rest = name.partition(".")
    found: Definition | None = None
    modules: dict[str, Path] = {}  # import-as aliases of modules, for ``y = m.x``
    # The last module-level binding wins, as when Python runs the file.
    for node in _top_level(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == head and not rest:
            found = Definition(path=path, qualname=head, line=_first_line(node))
        elif isinstance(node, ast.ClassDef) and node.name == head:
            found = _in_class(path, node, rest) if rest else None
        elif isinstance(node, ast.ImportFrom):
            source = _imported_file(path, node)
            for alias in node.names:
                if alias.name == "*" and source is not None:
                    found = find_definition(source, name, seen) or found
                    continue
                sub = _submodule(source, alias.name)
                if sub is not None:  # ``from pkg import impl [as m]``: a module, for ``y = m.x``
                    modules[alias.asname or alias.name] = sub
                if (alias.asname or alias.name) == head:
                    found = _follow(source, alias.name, sub, rest, seen)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname and (target := module_file(alias.name, [path.parent]) or module_file(alias.name)):
                    modules[alias.asname] = target
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == head for t in node.targets):
            found = _assigned(path, node.value, modules, rest, seen)
    return found


def _in_class(path: Path, node: ast.ClassDef, attr: str) -> Definition | None:
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == attr:
            return Definition(path=path, qualname=f"{node.name}.{attr}", line=_first_line(item))
    return None


def _submodule(source: Path | None, name: str) -> Path | None:
    """The file of submodule ``name`` of the package whose ``__init__.py`` is ``source``."""
    if source is None or source.name != "__init__.py":
        return None
    return module_file(name, [source.parent])


def _follow(source: Path | None, imported: str, sub: Path | None, rest: str, seen: _Seen) -> Definition | None:
    """The definition behind ``from M import imported``: a name bound in M, or in its submodule ``imported``."""
    dotted = f"{imported}.{rest}" if rest else imported
    if source is not None and (hit := find_definition(source, dotted, seen)) is not None:
        return hit
    return find_definition(sub, rest, seen) if sub is not None and rest else None


def _assigned(path: Path, value: ast.expr, modules: dict[str, Path], rest: str, seen: _Seen) -> Definition | None:
    """The definition behind ``y = x`` or ``y = m.x``; None for anything computed."""
    suffix = f".{rest}" if rest else ""
    if isinstance(value, ast.Name):
        return find_definition(path, value.id + suffix, seen)
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id in modules:
        return find_definition(modules[value.value.id], value.attr + suffix, seen)
    return None


def _package_root(path: Path) -> Path:
    """The top package directory holding ``path`` (its own directory for a file outside any package)."""
    root = path.parent
    while (root / "__init__.py").is_file() and (root.parent / "__init__.py").is_file():
        root = root.parent
    return root


def _imported_files(path: Path, tree: ast.Module) -> list[Path]:
    """The .py files the imports of the module at ``path`` read (wherever the statement is)."""
    found: list[Path | None] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = _imported_file(path, node)
            found.append(source)
            found.extend(_submodule(source, alias.name) for alias in node.names if alias.name != "*")
        elif isinstance(node, ast.Import):
            found.extend(module_file(alias.name, [path.parent]) or module_file(alias.name) for alias in node.names)
    return [f for f in found if f is not None]


def local_sources(path: Path, limit: int = 256) -> list[Path]:
    """``path`` and the files of its package (or directory) that it imports, directly or not: the
    source a kernel's compile can read (helpers, constants), sorted after ``path``."""
    root = _package_root(path.resolve())
    seen = {path.resolve()}
    pending = [path.resolve()]
    while pending and len(seen) < limit:
        current = pending.pop()
        tree = _parse(current)
        if tree is None:
            continue
        for dep in _imported_files(current, tree):
            dep = dep.resolve()
            if dep not in seen and dep.is_relative_to(root):
                seen.add(dep)
                pending.append(dep)
    rest = sorted(seen - {path.resolve()})
    return [path.resolve(), *rest]


def source_digest(path: Path) -> str:
    """sha256 over the kernel's file and the local files it imports, so an edit to a helper changes it."""
    import hashlib

    files = local_sources(path)
    if len(files) == 1:  # the digest of the file itself, as before helpers were counted
        return hashlib.sha256(files[0].read_bytes()).hexdigest()
    digest = hashlib.sha256()
    for file in files:
        digest.update(str(file.relative_to(_package_root(files[0]))).encode() + b"\0")
        digest.update(hashlib.sha256(file.read_bytes()).digest())
    return digest.hexdigest()
