"""Compile a stored kernel again from its recorded source text, without running the program around it.

A kernel recorded by ``irscope capture`` (or captured as FILE:FUNCTION) is stored with the file that
defines it. Importing that file would run the program's own module-level code (argument parsing,
tensors, autotuner set-up, even the whole script). Instead this module reads the file with ``ast``
and writes a module holding only what the kernel needs: the ``@triton.jit`` function itself (its
autotune / heuristics decorators dropped: the recorded specialization already fixes those values),
the ``@triton.jit`` helpers it calls, the module constants it reads (``LOG2E: tl.constexpr = ...``)
and the imports those use. Every kept statement stays on its original line, so the IR's locations
name the same lines. What cannot be had without running program code is refused with one line.
"""

from __future__ import annotations

import ast
import atexit
import builtins
import hashlib
import importlib.util
import linecache
import shutil
import sys
import tempfile
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from irscope.errors import UsageError

# Decorators kept on the functions: they make the JIT functions themselves (``@tl.constexpr def get_int_t``, as
# FlagGems writes it, makes a function the kernel calls at compile time).
_KEPT_DECORATORS = frozenset({"jit", "constexpr_function", "constexpr"})
# Calls allowed in a module constant the kernel reads (everything else would run program code).
_SAFE_CALLS = frozenset({"constexpr", "int", "float", "bool", "str", "tuple"})
_SAFE_NODES = (ast.Constant, ast.Name, ast.Attribute, ast.BinOp, ast.UnaryOp, ast.BoolOp, ast.Compare, ast.IfExp,
               ast.Tuple, ast.List, ast.Dict, ast.Subscript, ast.Slice, ast.Load, ast.operator, ast.unaryop,
               ast.boolop, ast.cmpop, ast.keyword, ast.Call)
_BUILTINS = frozenset(dir(builtins))
# Whose fault a value the replay cannot have is: irscope's (its replay runs none of the program's own code).
_NOT_RUN = "irscope does not run the program's code to get it (irscope's limit, not the program's fault)"


@dataclass(frozen=True)
class ReplaySource:
    """The generated module of one kernel.

    Attributes:
        text: the module's source, with every kept statement on its original line.
        kept: names of the module-level definitions kept, in source order.
    """

    text: str
    kept: tuple[str, ...]


def _terminal(node: ast.expr) -> str:
    """``triton.jit`` -> ``jit``; ``triton.jit(noinline=True)`` -> ``jit``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _root(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _bound(stmt: ast.stmt) -> list[str]:
    """Module-level names a statement binds."""
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [stmt.name]
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return [(a.asname or a.name).split(".")[0] for a in stmt.names]
    if isinstance(stmt, ast.Assign):
        return [n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
        return [stmt.target.id]
    if isinstance(stmt, (ast.If, ast.Try)):
        return [n for child in ast.iter_child_nodes(stmt) if isinstance(child, ast.stmt) for n in _bound(child)] + [
            n for h in getattr(stmt, "handlers", []) for child in h.body for n in _bound(child)]
    return []


def _free_names(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """Names a function reads from its module (decorators kept, annotations and defaults included)."""
    local = {a.arg for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs]}
    local |= {a.arg for a in (fn.args.vararg, fn.args.kwarg) if a is not None}
    loads: set[str] = set()
    for node in [*fn.body, *fn.args.defaults, *[d for d in fn.args.kw_defaults if d is not None],
                 *[a.annotation for a in [*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs] if a.annotation],
                 *[d for d in fn.decorator_list if _terminal(d) in _KEPT_DECORATORS]]:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                (loads if isinstance(sub.ctx, ast.Load) else local).add(sub.id)
            elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef)):
                local.add(sub.name)
    return loads - local


def _safe_value(node: ast.expr) -> bool:
    for sub in ast.walk(node):
        if not isinstance(sub, _SAFE_NODES):
            return False
        if isinstance(sub, ast.Call) and _terminal(sub.func) not in _SAFE_CALLS:
            return False
    return True


def _safe_block(stmt: ast.If | ast.Try) -> bool:
    """Whether a compound statement only imports and assigns constants (so it can be run as it is)."""
    if isinstance(stmt, ast.If) and not _safe_value(stmt.test):
        return False
    for sub in ast.walk(stmt):
        if isinstance(sub, ast.stmt) and sub is not stmt:
            if isinstance(sub, (ast.Assign, ast.AnnAssign)):
                if sub.value is None or not _safe_value(sub.value):
                    return False
            elif (not isinstance(sub, (ast.Import, ast.ImportFrom, ast.Pass, ast.If, ast.Try))
                  or (isinstance(sub, ast.ImportFrom) and sub.level)):
                return False
    return True


def _absolute(stmt: ast.ImportFrom, module: str) -> str | None:
    """``from .consts import X`` in ``pkg.ops`` -> ``pkg.consts``; None when the package is not known."""
    if "." not in module or module.startswith("__main__"):
        return None
    package = module.rsplit(".", 1)[0]
    try:
        return importlib.util.resolve_name("." * stmt.level + (stmt.module or ""), package)
    except (ImportError, ValueError):
        return None


def _import_subset(stmt: ast.Import | ast.ImportFrom, names: set[str], module: str) -> str:
    """The import statement with only the aliases that bind ``names`` (relative ones made absolute)."""
    aliases = [a for a in stmt.names if (a.asname or a.name).split(".")[0] in names]
    if isinstance(stmt, ast.Import):
        return ast.unparse(ast.Import(names=aliases))
    if stmt.level:
        return ast.unparse(ast.ImportFrom(module=_absolute(stmt, module), names=aliases, level=0))
    return ast.unparse(ast.ImportFrom(module=stmt.module, names=aliases, level=0))


def extract_kernel(text: str, name: str, where: str, module: str = "") -> ReplaySource:
    """The module that defines ``name`` and what it needs from ``text``, nothing else of the program.

    ``module`` is the dotted name the file had when it was compiled (``pkg.ops``): with it, relative
    imports (``from .consts import SCALE``) are resolved against its package.
    """
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        raise UsageError(f"{where}:{exc.lineno}: the recorded source is not valid Python: {exc.msg}") from None
    defs: dict[str, ast.stmt] = {}
    for stmt in tree.body:
        for bound in _bound(stmt):
            defs[bound] = stmt
    target = defs.get(name)
    if not isinstance(target, (ast.FunctionDef, ast.AsyncFunctionDef)):
        raise UsageError(f"{where} defines no function {name!r} at module level; it cannot be compiled again "
                         "from the recorded source")
    lines = text.splitlines()
    out = [""] * len(lines)
    kept: dict[int, str] = {}
    imports: dict[int, set[str]] = {}
    todo = [name]
    done: set[str] = set()
    while todo:
        wanted = todo.pop()
        if wanted in done:
            continue
        done.add(wanted)
        found = defs.get(wanted)
        if found is None:
            if wanted in _BUILTINS:
                continue
            raise UsageError(f"replaying {name} needs {wanted!r}, which {where} does not define at module level; "
                             "irscope compiles recorded kernels without running the program's code (irscope's limit)")
        stmt = found
        line = f"{where}:{stmt.lineno}"
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            if isinstance(stmt, ast.ImportFrom) and stmt.level and _absolute(stmt, module) is None:
                raise UsageError(f"replaying {name} needs {wanted!r} from a relative import ({line}), which "
                                 "cannot be resolved outside its package (irscope's limit: the module is not known)")
            imports.setdefault(id(stmt), set()).add(wanted)
            kept[id(stmt)] = wanted
            continue
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            todo.extend(_free_names(stmt))
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            value = stmt.value
            assert value is not None
            if not _safe_value(value):
                raise UsageError(f"replaying {name} needs {wanted!r}, computed by the program at {line} "
                                 f"({ast.unparse(value)[:60]}); {_NOT_RUN}")
            todo.extend(n.id for n in ast.walk(value) if isinstance(n, ast.Name))
            if isinstance(stmt, ast.AnnAssign):
                todo.extend(n.id for n in ast.walk(stmt.annotation) if isinstance(n, ast.Name))
        elif isinstance(stmt, (ast.If, ast.Try)) and _safe_block(stmt):
            # ``try: from triton.language.extra.cuda import libdevice`` / ``except ImportError: ...``
            todo.extend(n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
        else:
            raise UsageError(f"replaying {name} needs {wanted!r}, defined by a {type(stmt).__name__.lower()} "
                             f"statement at {line}; {_NOT_RUN}")
        kept[id(stmt)] = wanted
    order = []
    for stmt in tree.body:
        if id(stmt) not in kept:
            continue
        order.append(kept[id(stmt)])
        first = stmt.lineno
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            out[first - 1] = _import_subset(stmt, imports[id(stmt)], module)
            continue
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.decorator_list:
            first = min(d.lineno for d in stmt.decorator_list)
        out[first - 1:stmt.end_lineno] = lines[first - 1:stmt.end_lineno]
        for deco in getattr(stmt, "decorator_list", []):
            if _terminal(deco) not in _KEPT_DECORATORS:  # autotune, heuristics, Inductor's wrappers
                end = deco.end_lineno or deco.lineno
                out[deco.lineno - 1:end] = [""] * (end - deco.lineno + 1)
    return ReplaySource(text="\n".join(out) + "\n", kept=tuple(order))


def load_replayed(path: Path, name: str, module: str = "", filename: str = "") -> Any:
    """The kernel object ``name`` from a generated module of ``path``'s source (no program code runs).

    With ``filename`` (the file the kernel was compiled from when it was recorded) the generated code
    carries that name, and Python's line cache serves the generated text under it, so the IR's
    locations name the recorded file as the original compile's did. Meant for a process of its own
    (the per-pass worker): that cache entry hides the real file of that name from ``inspect``.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"the recorded source {path} cannot be read: {exc.strerror}") from None
    reach_package(module, filename)
    try:
        replay = extract_kernel(text, name, str(path), module)
    except UsageError as refused:  # the kernel needs what only its module's own code makes: import that module
        return _from_module(module, name, text, refused)
    digest = hashlib.sha256(replay.text.encode()).hexdigest()[:12]
    if not filename:
        folder = Path(tempfile.mkdtemp(prefix="irscope-replay-"))
        atexit.register(shutil.rmtree, folder, True)
        filename = str(folder / path.name)
        Path(filename).write_text(replay.text, encoding="utf-8")
    # mtime None: linecache.checkcache keeps the entry instead of re-reading a file of that name
    linecache.cache[filename] = (len(replay.text), None, replay.text.splitlines(keepends=True), filename)
    generated = types.ModuleType(f"irscope_replay_{name}_{digest}")
    generated.__file__ = filename
    sys.modules[generated.__name__] = generated
    try:
        exec(compile(replay.text, filename, "exec"), generated.__dict__)  # only the extracted definitions
    except Exception as exc:  # an import the kernel needs is missing here: say which, in one line
        raise UsageError(f"the recorded source of {name} cannot be compiled here: {one_line(exc)} "
                         f"({whose_fault(exc)})") from None
    return getattr(generated, name)


def reach_package(module: str, filename: str) -> None:
    """Make the recorded module's package importable as the program had it (a folder it put on sys.path).

    A package that cannot be found here is reached through the folder above the recorded file; when its
    ``__init__`` fails (it loads a compiled extension that is not built), its packages are made as namespaces
    over their folders, so only the modules the kernel needs load.
    """
    parts = module.split(".")
    if len(parts) < 2 or not filename or parts[0] in sys.modules:
        return
    try:
        if importlib.util.find_spec(parts[0]) is not None:
            return
    except (ImportError, ValueError):
        pass
    folder = Path(filename).parent
    if len(folder.parents) < len(parts) - 1:
        return
    root = folder.parents[len(parts) - 2] if len(parts) > 1 else folder
    if root.joinpath(*parts[:-1]) != folder or not folder.is_dir():
        return
    sys.path.append(str(root))
    try:
        importlib.import_module(parts[0])
        return
    except Exception:  # its __init__ needs what is not here: namespaces over the folders instead
        for loaded in [m for m in sys.modules if m == parts[0] or m.startswith(parts[0] + ".")]:
            del sys.modules[loaded]
    for depth in range(1, len(parts)):
        package = types.ModuleType(".".join(parts[:depth]))
        package.__path__ = [str(root.joinpath(*parts[:depth]))]
        sys.modules[package.__name__] = package


def _from_module(module: str, name: str, text: str, refused: UsageError) -> Any:
    """The kernel from its recorded module, imported (its code runs) when the source alone is not enough.

    Refused (the extraction's line kept) for a program's ``__main__`` and for a module whose file is not the
    recorded source any more (the library changed since the capture).
    """
    if not module or module == "__main__":
        raise refused
    try:
        imported = importlib.import_module(module)
        kernel = getattr(imported, name, None)
        source = getattr(kernel, "src", None)
        if isinstance(source, str) and (f"def {name}(" not in source or source.strip() not in text):
            # An earlier replay put its extracted text in linecache under this file's name, and the module was
            # imported after it: Triton read the kernel's source from there. Read the file again.
            linecache.cache.pop(str(getattr(imported, "__file__", "")), None)
            imported = importlib.reload(imported)
    except Exception as exc:
        raise UsageError(f"{refused}; importing its module {module} failed too: {one_line(exc)} "
                         f"({whose_fault(exc)})") from None
    try:
        same = Path(str(getattr(imported, "__file__", ""))).read_text(encoding="utf-8") == text
    except OSError:
        same = False
    if not same or not hasattr(imported, name):
        raise UsageError(f"{refused}; its module {module} is not the recorded source any more") from None
    return getattr(imported, name)


def one_line(exc: BaseException) -> str:
    """``Type: message`` on one line."""
    said = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {said}" if said else type(exc).__name__


def whose_fault(exc: BaseException) -> str:
    """Whose fault an exception of the program's code in a replay is, as a clause: irscope's stand-in (the missing
    piece named), a module not installed here, or the program's code (where it raised)."""
    import traceback

    from irscope.compile.standin_faults import blame

    found = blame(exc)
    if found["cause"] == "irscope":
        if found["missing"]:
            return f"irscope's fault: its offline stand-in has no {found['missing']}"
        return f"irscope's fault: raised in its own code at {found['where']}"
    if isinstance(exc, ModuleNotFoundError):
        return f"{exc.name or 'a module'} is not installed here: the program's dependency, not irscope's fault"
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if not f.filename.startswith("<")]
    where = f" at {frames[-1].filename}:{frames[-1].lineno}" if frames else ""
    return f"raised by the program's own code{where}"


def job_replay(job: Any) -> dict[str, Any]:
    """A compile job's specialization in the form ``Manifest.replay`` keeps (as ``irscope capture`` records it)."""
    from irscope.compile.program_hook import encode_constant, jsonable

    code = getattr(getattr(job.fn, "fn", None), "__code__", None)
    return {
        "module": str(getattr(getattr(job.fn, "fn", None), "__module__", "") or ""),
        "file": code.co_filename if code is not None else "",
        "signature": {k: str(v) for k, v in job.signature.items()},
        "constants": [[list(path), encode_constant(value)] for path, value in job.constexprs.items()],
        "attrs": [[list(path), jsonable(value)] for path, value in job.attrs.items()],
        "options": {k: jsonable(v) for k, v in job.options.items()},
    }
