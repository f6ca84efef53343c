"""The import graph of irscope/, read with ast: no cycles outside the TUI, and the layers of docs/architecture.md.

Every import counts, also one inside a function (lazy) or under ``if TYPE_CHECKING``: a cycle that
only closes at run time is still a cycle to reason about.
"""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "irscope"

# Which folder may import which: irscope's layers, lowest first. A module is placed by its folder
# (``irscope.store.locks`` is in ``store``); a top-level module is a folder of its own. A new folder
# must be added here, with the layers it may import. docs/architecture.md draws the same graph.
LAYERS: dict[str, frozenset[str]] = {
    "errors": frozenset(),
    "model": frozenset({"errors"}),
    "toolchain": frozenset({"model", "errors"}),
    "parse": frozenset({"model", "errors"}),
    "store": frozenset({"parse", "toolchain", "model", "errors"}),
    "analysis": frozenset({"store", "parse", "toolchain", "model", "errors"}),
    "views": frozenset({"analysis", "parse", "model", "errors"}),
    "compile": frozenset({"store", "parse", "toolchain", "model", "errors"}),
    "request": frozenset({"compile", "analysis", "store", "parse", "toolchain", "model", "errors", "irscope"}),
    "run": frozenset({"request", "compile", "analysis", "store", "toolchain", "model", "errors"}),
    "tui": frozenset({"run", "request", "views", "analysis", "store", "parse", "toolchain", "model", "errors"}),
    "cli": frozenset({"tui", "run", "request", "views", "analysis", "store", "parse", "toolchain", "model", "errors",
                      "irscope"}),
    "api": frozenset({"request", "analysis", "store", "toolchain", "model", "errors"}),
    "testing": frozenset({"api", "request", "views", "analysis", "store", "parse", "toolchain", "model", "errors",
                          "irscope"}),
    "irscope": frozenset({"api"}),
    "__main__": frozenset({"cli"}),
}
WHY = {
    "model": "model/ is plain data about kernels, targets and stages: it imports nothing but errors",
    "compile": "compile/ gets plain-data jobs: it never reaches the request layer, the analyses or the faces",
    "store": "the store sits below everything that compiles, analyses or resolves requests",
    "parse": "text-to-facts reads text: it imports only model/",
    "analysis": "analyses read captures: they never compile, resolve requests or run commands",
    "views": "renderers turn typed results into text: they read no store and compile nothing",
    "tui": "the faces get ready requests: compiling goes through request/",
    "cli": "the faces get ready requests: compiling goes through request/",
}
# The only modules at the top of irscope/; everything else lives in a layer's folder.
TOP_LEVEL = frozenset({"__init__", "__main__", "api", "testing", "errors"})
TRITON_IMPORTERS = ("irscope.compile", "irscope.run")
# The layers that only read text and files: they never import or run Python code they are handed (a kernel
# module, a user's package). Importing such code runs it; compile/ and run/ do that.
PLAIN_DATA = ("model", "parse", "store", "analysis", "views")
# Builtins that run code given as text, called by their bare name (``re.compile`` is not ``compile``).
_RUNS_TEXT = frozenset({"exec", "eval", "compile", "__import__"})
# Functions, by their name however reached (``importlib.import_module``, ``spec.loader.exec_module``, a
# ``from`` import), that import a module, which runs its code; and irscope's own ways to import a kernel module.
_RUNS_MODULES = frozenset({"import_module", "exec_module", "module_from_spec", "spec_from_file_location",
                           "run_path", "run_module", "load_module", "load_kernel", "reload", "load_source"})


def layer_of(module: str) -> str:
    """The layer a module belongs to: its folder under irscope/, or its own name at the top."""
    parts = module.split(".")
    return "irscope" if len(parts) == 1 else parts[1]


def _modules(package: Path) -> dict[str, Path]:
    """Dotted module name -> file, for every .py under ``package``."""
    found = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imported(module: str, path: Path) -> list[tuple[str, int]]:
    """Every name ``module`` imports (module, and module.attribute for ``from`` imports), with its line."""
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            out.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            out.append((name, node.lineno))
            out.extend((f"{name}.{alias.name}", node.lineno) for alias in node.names)
    return out


def import_graph(package: Path) -> tuple[dict[str, set[str]], dict[tuple[str, str], int]]:
    """Module -> the irscope modules it imports; and the line of each edge."""
    modules = _modules(package)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    lines: dict[tuple[str, str], int] = {}
    for module, path in modules.items():
        for name, line in _imported(module, path):
            if name in modules and name != module:
                graph[module].add(name)
                lines.setdefault((module, name), line)
    return graph, lines


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _one_cycle(component: list[str], graph: dict[str, set[str]], lines: dict[tuple[str, str], int]) -> str:
    """A shortest cycle through the component's first module, as ``a:12 -> b:40 -> a``."""
    start = component[0]
    members = set(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(graph[node] & members):
            if child == start:
                path = [*paths[node], start]
                return " -> ".join(f"{a} (line {lines[(a, b)]})" for a, b in itertools.pairwise(path)) + f" -> {start}"
            if child not in paths:
                paths[child] = paths[node] + [child]
                queue.append(child)
    return ", ".join(component)


def _under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def cycle_problems(package: Path) -> list[str]:
    """Each import cycle, one readable cycle per component."""
    graph, lines = import_graph(package)
    return [_one_cycle(c, graph, lines) for c in cycles(graph)]


def layer_problems(package: Path) -> list[str]:
    """Each import that breaks a layering rule, with its file and line; and each module in no known layer."""
    graph, lines = import_graph(package)
    out = []
    for module in sorted(graph):
        layer = layer_of(module)
        allowed = LAYERS.get(layer)
        if allowed is None:
            out.append(f"{module} is in no known layer: add {layer!r} to LAYERS in tests/test_architecture.py")
            continue
        for target in sorted(graph[module]):
            other = layer_of(target)
            if other != layer and other not in allowed:
                why = WHY.get(layer, f"{layer} may import only {', '.join(sorted(allowed)) or 'nothing'}")
                out.append(f"{module} imports {target} (line {lines[(module, target)]}): {why}")
    return out


def test_no_import_cycle() -> None:
    problems = cycle_problems(PACKAGE)
    assert not problems, "import cycles:\n" + "\n".join(problems)


def test_only_the_package_face_sits_at_the_top() -> None:
    loose = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem not in TOP_LEVEL)
    assert not loose, f"modules loose at the top of irscope/ (give each a layer's folder): {', '.join(loose)}"


def test_the_layers_import_only_downward() -> None:
    problems = layer_problems(PACKAGE)
    assert not problems, "\n".join(problems)


def test_only_compile_and_run_import_triton() -> None:
    modules = _modules(PACKAGE)
    offenders = [f"{m} (line {line})" for m, path in sorted(modules.items()) if not _under(m, TRITON_IMPORTERS)
                 for name, line in _imported(m, path) if name == "triton" or name.startswith("triton.")]
    assert not offenders, "Triton imported outside irscope.compile and irscope.run: " + ", ".join(offenders)


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _top_level_only(node: ast.expr) -> bool:
    """Whether a ``find_spec`` argument is surely a top-level name: a literal without a dot, or ``x.partition(".")[0]``
    (a dotted name imports its parent packages to find it)."""
    if (text := _literal(node)) is not None:
        return "." not in text
    return (isinstance(node, ast.Subscript) and _literal(node.slice) is None and isinstance(node.slice, ast.Constant)
            and node.slice.value == 0 and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute) and node.value.func.attr in ("partition", "split")
            and len(node.value.args) == 1 and _literal(node.value.args[0]) == ".")


def code_running_calls(path: Path) -> list[tuple[str, int]]:
    """Each call in the file that imports or runs Python code: its function's name and line. Importing one of
    irscope's own modules by a literal name runs nothing it was handed."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
        first = node.args[0] if node.args else None
        own = first is not None and (_literal(first) or "").startswith("irscope.")
        if ((isinstance(func, ast.Name) and name in _RUNS_TEXT) or (name in _RUNS_MODULES and not own)
                or (name == "find_spec" and not (first is not None and _top_level_only(first)))):
            found.append((name, node.lineno))
    return sorted(found, key=lambda item: item[1])


def code_running_problems(package: Path) -> list[str]:
    """Each call from a plain-data layer into code that imports or runs Python code, with its file and line."""
    return [f"{module} calls {name} (line {line}): {layer_of(module)}/ is plain data; import or run code in compile/"
            for module, path in sorted(_modules(package).items()) if layer_of(module) in PLAIN_DATA
            for name, line in code_running_calls(path)]


def test_plain_data_layers_run_no_code() -> None:
    problems = code_running_problems(PACKAGE)
    assert not problems, "\n".join(problems)


def test_the_checker_sees_a_call_that_runs_code_not_only_an_import(tmp_path: Path) -> None:
    # The shape model/kernels.py once had: no import of compile/, but importlib running a kernel module's file.
    pkg = tmp_path / "irscope"
    for folder in ("model", "compile"):
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "model" / "kernels.py").write_text(
        "import importlib.util\nimport re\n\n"
        "def load(path):\n    spec = importlib.util.spec_from_file_location('k', path)\n"
        "    module = importlib.util.module_from_spec(spec)\n    spec.loader.exec_module(module)\n\n"
        "def find(name):\n    return importlib.util.find_spec(name), "
        "importlib.util.find_spec(name.partition('.')[0])\n\n"
        "def fine():\n    return re.compile('x'), importlib.util.find_spec('triton'), "
        "importlib.import_module('irscope.model')\n\n"
        "def text(source):\n    exec(source)\n    return eval(source), __import__(source)\n")
    (pkg / "compile" / "kernel_module.py").write_text("import importlib\n\ndef f(n):\n    importlib.import_module(n)\n")
    assert layer_problems(pkg) == [] and cycle_problems(pkg) == []  # the import graph alone sees nothing
    where = "model/ is plain data; import or run code in compile/"
    assert code_running_problems(pkg) == [
        f"irscope.model.kernels calls {name} (line {line}): {where}"
        for name, line in [("spec_from_file_location", 5), ("module_from_spec", 6), ("exec_module", 7),
                           ("find_spec", 10), ("exec", 16), ("eval", 17), ("__import__", 17)]]


def test_the_checker_sees_lazy_imports_and_reports_a_cycle(tmp_path: Path) -> None:
    # The shape the capture path once had: a module-level import one way, a function-local import back;
    # and a cycle inside the TUI, which is no longer exempt.
    pkg = tmp_path / "irscope"
    for folder in ("compile", "request", "tui", "widgets"):
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "request" / "captures.py").write_text("from irscope.compile.capture import capture\n")
    (pkg / "compile" / "capture.py").write_text("def capture():\n    from irscope.request.captures import Request\n")
    (pkg / "tui" / "a.py").write_text("from irscope.tui import b\n")
    (pkg / "tui" / "b.py").write_text("def f():\n    from irscope.tui import a\n")
    problems = cycle_problems(pkg)
    assert problems == [
        "irscope.compile.capture (line 2) -> irscope.request.captures (line 1) -> irscope.compile.capture",
        "irscope.tui.a (line 1) -> irscope.tui.b (line 2) -> irscope.tui.a",
    ]
    assert layer_problems(pkg) == [
        f"irscope.compile.capture imports irscope.request.captures (line 2): {WHY['compile']}",
        "irscope.widgets is in no known layer: add 'widgets' to LAYERS in tests/test_architecture.py",
    ]
