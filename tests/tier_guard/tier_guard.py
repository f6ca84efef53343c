"""The test tiers' guard: a test that compiles (or runs the interpreter) without its marker fails, saying so.

While ``IRSCOPE_TEST_NO_COMPILE`` names a file, ``triton.compile`` refuses to run and writes what it was asked
to compile there; ``IRSCOPE_TEST_NO_INTERPRET`` does the same for a grid launch under Triton's interpreter.
The hooks go into Triton's modules as they are imported, so Triton itself is never imported for them. The
pytest process installs them from tests/conftest.py; child processes of a guarded test get this folder on
PYTHONPATH and install them from its ``sitecustomize.py``. tests/conftest.py reads the files after each test.
"""

from __future__ import annotations

import functools
import importlib.machinery
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the child processes' sitecustomize imports this module: it stays light
    from collections.abc import Callable, Sequence
    from types import ModuleType
    from typing import Any

COMPILE_ENV = "IRSCOPE_TEST_NO_COMPILE"
INTERPRET_ENV = "IRSCOPE_TEST_NO_INTERPRET"
_GUARDED = "__irscope_tier_guard__"


def _name(obj: Any) -> str:
    """The kernel's name, as far as a compile source or an interpreted function tells it."""
    fn = getattr(obj, "fn", obj)
    return str(getattr(fn, "__name__", None) or getattr(obj, "name", None) or type(obj).__name__)


def _refused(env: str, what: str, marker: str) -> RuntimeError:
    """Record ``what`` in the file ``env`` names; the error that stops it."""
    with open(os.environ[env], "a", encoding="utf-8") as log:
        log.write(f"{what} (pid {os.getpid()})\n")
    return RuntimeError(f"irscope tests: {what} in a test without the `{marker}` marker; mark the test "
                        f"(@pytest.mark.{marker}) so `pytest -m 'not {marker}'` stays free of it")


def _guarded(real: Callable[..., Any], env: str, marker: str, doing: str, arg: int) -> Callable[..., Any]:
    """``real``, refused while ``env`` is set; ``arg`` is the index of the argument naming the kernel."""
    if getattr(real, _GUARDED, False):
        return real

    @functools.wraps(real)
    def guard(*args: Any, **kwargs: Any) -> Any:
        if os.environ.get(env):
            raise _refused(env, f"{doing} {_name(args[arg]) if len(args) > arg else '?'}", marker)
        return real(*args, **kwargs)

    setattr(guard, _GUARDED, True)
    return guard


def _guard_compiler(module: ModuleType) -> None:
    """``triton.compiler.compiler.compile``: every compile, in-process, in the JIT and in workers, calls it."""
    module.compile = _guarded(module.compile, COMPILE_ENV, "compile", "triton.compile of", 0)  # type: ignore[attr-defined]
    for name in ("triton.compiler", "triton"):  # already imported (the guard came late): their re-exports too
        if name in sys.modules and hasattr(sys.modules[name], "compile"):
            sys.modules[name].compile = module.compile  # type: ignore[attr-defined]


def _guard_interpreter(module: ModuleType) -> None:
    """``InterpretedFunction.run``: a grid launch under TRITON_INTERPRET."""
    cls = module.InterpretedFunction  # type: ignore[attr-defined]
    cls.run = _guarded(cls.run, INTERPRET_ENV, "slow", "an interpreter run of", 0)


_HOOKS: dict[str, Callable[[ModuleType], None]] = {
    "triton.compiler.compiler": _guard_compiler,
    "triton.runtime.interpreter": _guard_interpreter,
}


class _Finder:
    """Finds Triton's guarded modules as the path finder would, and hooks them once they have run."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None) -> Any:
        hook = _HOOKS.get(fullname)
        if hook is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        run = spec.loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            hook(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def install() -> None:
    """Hook Triton's compile and interpreter, now if they are imported, else when they are."""
    for name, hook in _HOOKS.items():
        if name in sys.modules:
            hook(sys.modules[name])
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
