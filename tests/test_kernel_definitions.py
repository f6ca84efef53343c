"""A kernel named through a module that only re-exports it: its source is the file that defines it."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from irscope.model.definition import find_definition
from irscope.model.kernelspec import parse_function_ref
from tests.conftest import DATA, REPO, invoke, repo_path

PKG = DATA / "pkgs"
IMPL = (PKG / "reexport_kernels" / "impl.py").resolve()
LAUNCH = ["--args", "fp32[4096], fp32[4096], 4096", "--constexpr", "BLOCK=1024"]
# Example: #loc5 = loc("/x/reexport_kernels/impl.py":17:17)
_FILE_LOC_RE = re.compile(r'^(#loc\d*) = loc\("(?P<file>[^"]+)":(?P<line>\d+):\d+\)$', re.M)
# Example: #loc16 = loc("x"(#loc5))
_NAMED_LOC_RE = re.compile(r'^(#loc\d*) = loc\("[^"]*"\((?P<inner>#loc\d*)\)\)$', re.M)
# Example: %x_6 = tt.load %x_5, %mask_4 : tensor<1024x!tt.ptr<f32>, #blocked> loc(#loc17)
_OP_LOC_RE = re.compile(r"^\s*(?:%\S+ = )?(?P<op>[a-z_]+\.[a-z_.]+)\b.* loc\((?P<loc>#loc\d*)\)$", re.M)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize(("spec", "function"), [
    ("reexport_kernels.ops:twice", "twice"),
    ("reexport_kernels.ops:doubled", "twice"),   # from .impl import twice as doubled
    ("reexport_kernels.api:twice", "twice"),     # from .ops import *
    ("reexport_kernels.api:fast", "twice"),      # from . import impl as _impl; fast = _impl.twice
    (f"{IMPL}:twice", "twice"),
])
def test_reference_finds_the_defining_file_without_importing(spec, function, monkeypatch):
    monkeypatch.syspath_prepend(str(PKG))
    ref = parse_function_ref(spec)
    assert ref is not None
    assert ref.path == IMPL and ref.defined_as == function
    assert ref.line == _line_of(IMPL.read_text(), "@triton.jit")
    named = spec.split(":")[0]
    assert ref.lookup_file.name == (named.rsplit(".", 1)[-1] + ".py" if ref.module else "impl.py")


def test_definition_reader_imports_nothing():
    """Resolving the reference reads source only: Triton is not imported."""
    code = (f"import sys; sys.path.insert(0, {str(PKG)!r}); from irscope.model.kernelspec import parse_function_ref; "
            "ref = parse_function_ref('reexport_kernels.api:fast'); print(ref.path.name, 'triton' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO,
                         env={"PYTHONPATH": repo_path(), "PATH": "/usr/bin:/bin"})
    assert out.stdout.split() == ["impl.py", "False"]


def test_a_package_only_a_finder_knows_is_found_without_running_it():
    """An editable install's package is on no sys.path folder, only its finder knows it: the finder is asked for the
    top-level package, and the module is found in its folder; finding ``pkg.mod`` itself would import ``pkg``."""
    finder = ("import sys, importlib.machinery as m\n"
              "class Editable:\n"
              "    @staticmethod\n"
              "    def find_spec(name, path=None, target=None):\n"
              f"        return m.PathFinder.find_spec(name, [{str(PKG)!r}]) if name == 'reexport_kernels' else None\n"
              "sys.meta_path.append(Editable)\n"
              "from irscope.model.kernelspec import parse_function_ref\n"
              "ref = parse_function_ref('reexport_kernels.api:fast')\n"
              "print(ref.path.name, ref.lookup_file.name, 'reexport_kernels' in sys.modules, "
              "'triton' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", finder], capture_output=True, text=True, check=True, cwd=REPO,
                         env={"PYTHONPATH": repo_path(), "PATH": "/usr/bin:/bin"})
    assert out.stdout.split() == ["impl.py", "api.py", "False", "False"]


def test_unfollowable_binding_is_unknown(tmp_path):
    """A binding computed at import time is not guessed at: the caller keeps the module's own file."""
    mod = tmp_path / "made.py"
    mod.write_text("import triton\n\ndef make():\n    return None\n\nkernel = make()\n")
    assert find_definition(mod, "kernel") is None
    assert find_definition(mod, "make").line == 3


@pytest.mark.compile
def test_reexported_kernel_source_map_and_annotate_use_the_defining_file(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(PKG))

    def output(*args: str) -> str:
        result = invoke(*args, *LAUNCH, store=tmp_path)
        assert result.exit_code == 0, result.output
        return result.stdout

    impl_text = IMPL.read_text()
    assert output("show", "reexport_kernels.ops:twice", "--stage", "source").strip() == impl_text.strip()
    ttgir = json.loads(output("show", "reexport_kernels.ops:twice", "--stage", "ttgir", "--json"))["text"]
    # The compiler's own positions: every file location in the TTGIR names impl.py.
    file_locs = {m.group(1): (m.group("file"), int(m.group("line"))) for m in _FILE_LOC_RE.finditer(ttgir)}
    assert {f for f, _ in file_locs.values()} == {str(IMPL)}
    named = {m.group(1): m.group("inner") for m in _NAMED_LOC_RE.finditer(ttgir)}
    load = next(m for m in _OP_LOC_RE.finditer(ttgir) if m.group("op") == "tt.load")
    load_line = file_locs[named.get(load.group("loc"), load.group("loc"))][1]
    assert load_line == _line_of(impl_text, "tl.load(")
    mapped = json.loads(output("map", "reexport_kernels.ops:twice", "--line", str(load_line), "--stage", "ttgir",
                               "--json"))
    assert mapped["file"] == str(IMPL) and "tl.load(" in mapped["source"]
    assert "tt.load" in [line["opcode"] for line in mapped["stages"][0]["lines"]]
    annotated = output("annotate", "reexport_kernels.ops:doubled", "--stage", "ttgir")
    row = next(line for line in annotated.splitlines() if line.strip().startswith(str(load_line)))
    assert "tl.load(" in row and re.search(r"\s[1-9]\d*\s", row)
    manifest = json.loads((REPO / json.loads(output("show", "reexport_kernels.ops:twice", "--json"))["path"])
                          .parent.joinpath("manifest.json").read_text())
    assert manifest["kernel_path"] == str(IMPL) and manifest["function"] == "twice"


HELPER = """import triton


@triton.jit
def scaled(x):
    return x * {scale}.0
"""
KERNEL = """import triton
import triton.language as tl

from .helpers import scaled


@triton.jit
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, scaled(tl.load(x_ptr + offs, mask=mask)), mask=mask)
"""


@pytest.mark.compile
def test_editing_an_imported_helper_compiles_again(tmp_path):
    """The capture key covers the files the kernel imports from its package, not only its own file."""
    pkg = tmp_path / "src" / "helper_pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "kernel.py").write_text(KERNEL)
    env = {**__import__("os").environ, "PYTHONPATH": f"{REPO}:{tmp_path / 'src'}"}

    def ttgir() -> str:
        done = subprocess.run([sys.executable, "-m", "irscope", "show", "helper_pkg.kernel:scale_kernel", *LAUNCH,
                               "--stage", "ttgir", "--store", str(tmp_path / "store")],
                              capture_output=True, text=True, env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        return done.stdout

    (pkg / "helpers.py").write_text(HELPER.format(scale=2))
    assert "dense<2.000000e+00>" in ttgir()
    (pkg / "helpers.py").write_text(HELPER.format(scale=3))
    assert "dense<3.000000e+00>" in ttgir()


def test_import_cycles_end(tmp_path):
    """Modules that star-import each other: the reader stops instead of recursing without end."""
    pkg = tmp_path / "cyc"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, others in (("a", "bc"), ("b", "ac"), ("c", "ab")):
        (pkg / f"{name}.py").write_text("".join(f"from .{o} import *\n" for o in others))
    (pkg / "c.py").write_text((pkg / "c.py").read_text() + "\n\ndef k():\n    pass\n")
    assert find_definition(pkg / "a.py", "missing") is None
    found = find_definition(pkg / "a.py", "k")
    assert found is not None and found.path == pkg / "c.py" and found.line == 5
