"""Reading the store never runs a tool: the SASS made from the cubin, and the tools' reports, come from
irscope.toolchain."""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import pytest

from irscope.model.stages import stages_for
from irscope.store.store import DerivedStageError, Store
from irscope.toolchain.stages import has_stage, read_stage
from tests.test_architecture import PACKAGE, _imported, _modules, import_graph

# Standard modules that start processes, and the os functions that do.
_PROCESS_MODULES = ("subprocess", "multiprocessing", "concurrent.futures", "pty", "asyncio.subprocess")
_PROCESS_CALLS = frozenset({"system", "popen", "fork", "forkpty", "posix_spawn", "posix_spawnp", "execv", "execve",
                            "execvp", "execvpe", "execl", "execle", "execlp", "execlpe", "spawnv", "spawnve",
                            "spawnl", "spawnle", "spawnvp", "spawnvpe", "spawnlp", "spawnlpe"})
# The one toolchain module the store reaches: the Triton version that enters capture keys (a file read).
_STORE_TOOLCHAIN = frozenset({"irscope.toolchain.tritons"})


def _reached(graph: dict[str, set[str]], roots: list[str]) -> set[str]:
    seen = set(roots)
    todo = list(roots)
    while todo:
        for child in graph[todo.pop()]:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def _starts_processes(path: Path, module: str) -> list[str]:
    found = [f"imports {name} (line {line})" for name, line in _imported(module, path)
             if any(name == m or name.startswith(m + ".") for m in _PROCESS_MODULES)]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Attribute) and node.attr in _PROCESS_CALLS and isinstance(node.value, ast.Name)
                and node.value.id == "os"):
            found.append(f"calls os.{node.attr} (line {node.lineno})")
    return found


def test_the_store_package_reaches_no_code_that_runs_a_tool() -> None:
    graph, _ = import_graph(PACKAGE)
    store = sorted(m for m in graph if m.startswith("irscope.store."))
    reached = _reached(graph, store)
    higher = sorted(m for m in reached if m.split(".")[1] in ("compile", "run", "request", "analysis", "cli", "tui"))
    assert not higher, f"the store reaches {', '.join(higher)}"
    tools = sorted(m for m in reached if m.startswith("irscope.toolchain.") and m not in _STORE_TOOLCHAIN)
    assert not tools, f"the store reaches toolchain modules that run tools on captures: {', '.join(tools)}"
    modules = _modules(PACKAGE)
    problems = [f"{m} {why}" for m in store for why in _starts_processes(modules[m], m)]
    assert not problems, "\n".join(problems)


def test_the_checker_sees_a_lazy_tool_import_in_the_store(tmp_path: Path) -> None:
    # The shape store.py had: Capture.read importing the SASS maker inside the method.
    pkg = tmp_path / "irscope"
    for folder in ("store", "toolchain"):
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "store" / "store.py").write_text("def read():\n    from irscope.toolchain.sass_lazy import derived_sass\n")
    (pkg / "toolchain" / "sass_lazy.py").write_text("import subprocess\n\ndef derived_sass():\n    os.system('x')\n")
    graph, _ = import_graph(pkg)
    assert "irscope.toolchain.sass_lazy" in _reached(graph, ["irscope.store.store"])
    assert _starts_processes(pkg / "toolchain" / "sass_lazy.py", "irscope.toolchain.sass_lazy") == [
        "imports subprocess (line 1)", "calls os.system (line 4)"]


def _fresh_copy(capture_dir: Path, root: Path) -> Store:
    """A store holding a copy of one capture without its derived/ (nothing cached, no memo for its path)."""
    shutil.copytree(capture_dir, root / "captures" / capture_dir.name, ignore=shutil.ignore_patterns("derived"))
    return Store(root)


@pytest.mark.compile
def test_reading_an_nvidia_capture_through_the_store_runs_no_process(captures, tmp_path, monkeypatch):
    cap = captures("matmul", "sm90")
    store = _fresh_copy(cap.path, tmp_path / "store")

    def no_process(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"the store started a process: {args[0] if args else kwargs}")

    monkeypatch.setattr(subprocess, "Popen", no_process)
    copy = store.get(cap.manifest.key)
    assert copy is not None and store.find("matmul") == [copy]
    stored = [s.name for s in stages_for("cuda") if s.name in copy.manifest.files]
    assert stored == ["source", "ttir", "ttgir", "llir", "ptx"]  # the sass is not stored: made from the cubin
    for name in stored:
        assert copy.read(name) == (cap.path / cap.manifest.files[name]).read_text(encoding="utf-8")
    with pytest.raises(DerivedStageError, match=r"keeps no sass file: its sass is made from its cubin"):
        copy.read("sass")
    with pytest.raises(DerivedStageError):
        copy.stage_path("sass")
    assert copy.damage() is None and copy.verify_files() == []
    assert not (copy.path / "derived").exists()


@pytest.mark.compile
def test_the_toolchain_path_reads_every_stage_the_capture_has(captures, tmp_path):
    """What has_stage promises, read_stage gives: the stored stages as the store reads them, the SASS as Triton's."""
    from triton.tools.disasm import get_sass

    cap = captures("matmul", "sm90")
    copy = _fresh_copy(cap.path, tmp_path / "store").get(cap.manifest.key)
    assert copy is not None
    have = [s.name for s in stages_for("cuda") if has_stage(copy, s.name)]
    assert have == ["source", "ttir", "ttgir", "llir", "ptx", "sass"]
    for name in have[:-1]:
        assert read_stage(copy, name) == copy.read(name)
    sass = read_stage(copy, "sass")
    assert sass == get_sass((copy.path / copy.manifest.files["cubin"]).read_bytes())
    assert (copy.path / "derived" / "nvdisasm-all.json").is_file()  # cached in the capture by the toolchain
    amd = captures("vector_add", "gfx942")
    assert not has_stage(amd, "sass") and has_stage(amd, "amdgcn")
