"""Size limits of the code in irscope/: modules a reader can hold in mind, functions that fit on a screen or two.

No module over 650 lines; no function (method, nested function) over 120 lines, from its ``def`` to its last
line. A table that a script generates belongs in a data file beside the code, not in a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import REPO

PACKAGE = REPO / "irscope"
MAX_MODULE_LINES = 650
MAX_FUNCTION_LINES = 120


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def function_lengths(path: Path) -> list[tuple[str, int, int]]:
    """(qualified name, first line, length in lines) of every function in the module, nested ones included."""
    found: list[tuple[str, int, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                found.append((name, child.lineno, (child.end_lineno or child.lineno) - child.lineno + 1))
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), "")
    return found


def test_the_package_is_where_the_limits_look() -> None:
    assert len(modules()) > 100 and (PACKAGE / "analysis" / "perf" / "predict.py") in modules()


def test_no_module_is_over_650_lines() -> None:
    lengths = {p: len(p.read_text(encoding="utf-8").splitlines()) for p in modules()}
    over = [f"{p.relative_to(REPO)}: {n} lines" for p, n in sorted(lengths.items()) if n > MAX_MODULE_LINES]
    assert not over, f"modules over {MAX_MODULE_LINES} lines (split them by concern):\n" + "\n".join(over)


def test_no_function_is_over_120_lines() -> None:
    over = [f"{p.relative_to(REPO)}:{line} {name}: {n} lines"
            for p in modules() for name, line, n in function_lengths(p) if n > MAX_FUNCTION_LINES]
    assert not over, f"functions over {MAX_FUNCTION_LINES} lines (split them into named steps):\n" + "\n".join(over)


def test_lengths_are_counted_from_def_to_the_last_line(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text("class A:\n    @staticmethod\n    def m():\n        def inner():\n            return 1\n\n"
                      "        return inner\n\n\nasync def f():\n    pass\n", encoding="utf-8")
    assert function_lengths(source) == [("A.m", 3, 5), ("A.m.inner", 4, 2), ("f", 10, 2)]
