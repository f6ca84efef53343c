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

# Layers, by module-name prefix (``irscope.compile`` covers irscope.compile.*).
VIEWS_AND_FACTS = ("irscope.parse", "irscope.analysis", "irscope.views")
REQUEST_AND_UP = ("irscope.captures", "irscope.api", "irscope.testing", "irscope.settings", "irscope.factsfile",
                  "irscope.neighbours", "irscope.repro", "irscope.cli", "irscope.tui", "irscope.run")
DATA_LAYER = ("irscope.store", "irscope.paths", "irscope.tritons", "irscope.targets", "irscope.stages",
              "irscope.kernels", "irscope.kernelspec", "irscope.definition", "irscope.capturejob", "irscope.passwrite",
              "irscope.errors", "irscope.locks", "irscope.manifest_fields", "irscope.gpus")
# (importer prefixes, forbidden prefixes, why)
RULES = [
    (VIEWS_AND_FACTS, ("irscope.compile", "irscope.capturejob", "irscope.tritons", "irscope.passdump",
                       *REQUEST_AND_UP), "text-to-facts and rendering never compile, resolve requests or run commands"),
    (("irscope.compile",), REQUEST_AND_UP, "compile gets plain-data jobs and never reaches back to requests or UIs"),
    (DATA_LAYER, ("irscope.compile", "irscope.passdump", "irscope.compare", *REQUEST_AND_UP),
     "the store and the job description sit below everything that compiles or resolves"),
]
TRITON_IMPORTERS = ("irscope.compile", "irscope.run")


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
    """Each import cycle outside irscope.tui, one readable cycle per component."""
    graph, lines = import_graph(package)
    return [_one_cycle(c, graph, lines) for c in cycles(graph)
            if not all(_under(m, ("irscope.tui",)) for m in c)]


def layer_problems(package: Path) -> list[str]:
    """Each import that breaks a layering rule, with its file and line."""
    graph, lines = import_graph(package)
    out = []
    for importers, forbidden, why in RULES:
        for module in sorted(graph):
            if not _under(module, importers):
                continue
            for target in sorted(graph[module]):
                if _under(target, forbidden):
                    out.append(f"{module} imports {target} (line {lines[(module, target)]}): {why}")
    return out


def test_no_import_cycle_outside_the_tui() -> None:
    problems = cycle_problems(PACKAGE)
    assert not problems, "import cycles:\n" + "\n".join(problems)


def test_the_layers_import_only_downward() -> None:
    problems = layer_problems(PACKAGE)
    assert not problems, "\n".join(problems)


def test_only_compile_and_run_import_triton() -> None:
    modules = _modules(PACKAGE)
    offenders = [f"{m} (line {line})" for m, path in sorted(modules.items()) if not _under(m, TRITON_IMPORTERS)
                 for name, line in _imported(m, path) if name == "triton" or name.startswith("triton.")]
    assert not offenders, "Triton imported outside irscope.compile and irscope.run: " + ", ".join(offenders)


def test_the_checker_sees_lazy_imports_and_reports_a_cycle(tmp_path: Path) -> None:
    # The shape the capture path had: a module-level import one way, a function-local import back.
    pkg = tmp_path / "irscope"
    (pkg / "compile").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "compile" / "__init__.py").write_text("")
    (pkg / "captures.py").write_text("from irscope.compile.capture import capture\n")
    (pkg / "compile" / "capture.py").write_text("def capture():\n    from irscope.captures import Request\n")
    (pkg / "tui").mkdir()
    (pkg / "tui" / "__init__.py").write_text("")
    (pkg / "tui" / "a.py").write_text("from irscope.tui import b\n")
    (pkg / "tui" / "b.py").write_text("def f():\n    from . import a\n")
    problems = cycle_problems(pkg)
    assert problems == ["irscope.captures (line 1) -> irscope.compile.capture (line 2) -> irscope.captures"]
    assert layer_problems(pkg) == ["irscope.compile.capture imports irscope.captures (line 2): compile gets "
                                   "plain-data jobs and never reaches back to requests or UIs"]
