"""One kernel protocol: commands ask a kernel's adapter (irscope.request.kinds), not which class the kernel is.

The count of ``isinstance`` checks on the kernel classes is read from irscope/ with ast, as issue 25 counts
them (unions and tuples of the classes included). The adapters are asked on real kernels: a bundled module, a
FILE:FUNCTION kernel from tests/data/kernels, and a kernel recorded from a program run by ``irscope capture``;
each kind's compile job goes through its JSON form and comes back with the same key.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from irscope.compile.job import KINDS, CaptureJob
from irscope.errors import UsageError
from irscope.model.kernels import bundled_dir, read_kernel
from irscope.model.launch import LaunchShape, TensorBytes
from irscope.request.captures import LaunchSpec, get_capture, make_request, request_for
from irscope.request.kinds import ADAPTERS, StoredKernel, kind_of
from irscope.request.settings import OPTIONS
from tests.conftest import DATA, REPO, repo_path

KERNEL_CLASSES = frozenset({"KernelInfo", "FunctionKernel", "RecordedKernel", "StoredKernel"})
MOST_KIND_CHECKS = 4
FUNCTION = f"{DATA / 'kernels' / 'off_by_one_add.py'}:add_kernel"
FUNCTION_ARGS = "x_ptr=fp32[1024], y_ptr=fp32[1024], out_ptr=fp32[1024], n_elements=1024"

# A program that compiles one kernel itself (no torch, no GPU): `irscope capture` records it.
PROGRAM = '''
import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource


@triton.jit
def double_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 2.0, mask=mask)


src = ASTSource(double_kernel, {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}, {(3,): 128})
triton.compile(src, target=GPUTarget("cuda", 90, 32), options={"num_warps": 2})
'''


def _class_names(node: ast.expr) -> set[str]:
    """The class names an isinstance's second argument names: a name, ``mod.Name``, a union, a tuple of these."""
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, ast.Attribute):
        return {node.attr}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _class_names(node.left) | _class_names(node.right)
    if isinstance(node, (ast.Tuple, ast.List)):
        return set().union(*(_class_names(e) for e in node.elts))
    return set()


def kind_checks(package: Path) -> list[str]:
    """Each ``isinstance(x, K)`` under ``package`` whose K names a kernel class, as ``file:line: the call``."""
    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance" \
                    and len(node.args) == 2 and _class_names(node.args[1]) & KERNEL_CLASSES:
                found.append(f"{path.relative_to(package.parent)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_count_sees_unions_tuples_and_qualified_names(tmp_path):
    pkg = tmp_path / "irscope"
    pkg.mkdir()
    (pkg / "a.py").write_text(
        "def f(k, m):\n"
        "    isinstance(k, KernelInfo)\n"
        "    isinstance(k, FunctionKernel | RecordedKernel)\n"
        "    isinstance(k, (int, captures.StoredKernel))\n"
        "    isinstance(k, int | (str | KernelInfo))\n"
        "    isinstance(k, (int, str)) or isinstance(m, dict) or isinstance(k, Kernels)\n")
    assert [line.split(": ", 1)[0] for line in kind_checks(pkg)] == [f"irscope/a.py:{n}" for n in (2, 3, 4, 5)]


def test_at_most_four_isinstance_checks_on_the_kind_of_kernel_remain():
    found = kind_checks(REPO / "irscope")
    assert len(found) <= MOST_KIND_CHECKS, "ask the kernel's adapter (irscope.request.kinds.kind_of) instead:\n" \
        + "\n".join(found)


def test_every_kind_has_one_adapter_and_the_compile_registry_knows_the_compilable_ones():
    assert set(ADAPTERS) == set(KINDS) | {StoredKernel.kind} == {"module", "function", "recorded", "stored"}


@pytest.mark.compile
def test_a_bundled_kernel_module_answers_from_its_own_declarations(captures, tmp_path):
    request = make_request("vector_add", "sm90")
    module = read_kernel(bundled_dir() / "vector_add.py", bundled=True)
    kind = kind_of(request.kernel)
    assert kind.name == "vector_add" and kind.stored is None
    assert kind.compiles_on_miss and kind.compiles_when_damaged
    assert kind.config_count("cuda") == kind.declared_configs("cuda") == len(module.configs_for("cuda")) == 4
    assert kind.size_names() == ["n_elements"]
    assert kind.settable("cuda", 1, None) == ({"BLOCK_SIZE": 2048, "num_warps": 8}, {})
    # The key it answers is the key its real capture is stored under, and the manifest says what the kernel says.
    capture = captures("vector_add", "sm90")
    m = capture.manifest
    assert kind.key(request.target, 0, request.sizes) == m.key == request.key()
    assert (m.origin, m.dtype, m.arguments, m.sizes) == ("bundled", "float32", "", {"n_elements": 98432})
    assert kind.settable("cuda", 0, capture)[0]["BLOCK_SIZE"] == 1024
    # Its launcher: 98432 elements in blocks of 1024 are 97 programs; --grid replaces only the grid.
    shape = kind.launch_shape(request.target, 0, request.sizes, None, 132, tmp_path)
    assert shape.grid == (97, 1, 1) and shape.values["n_elements"] == 98432
    assert [t.nbytes for t in shape.tensors] == [98432 * 4] * 3
    again = kind.launch_shape(request.target, 0, request.sizes, (5, 1, 1), 132, tmp_path)
    assert (again.grid, again.origin, again.tensors) == ((5, 1, 1), "--grid", shape.tensors)
    variant = kind.with_settings({"num_warps": 2}, request.target, 0, OPTIONS["cuda"])
    assert variant.configs_for("cuda")[0] == {"BLOCK_SIZE": 1024, "num_warps": 2}
    assert variant.configs_for("cuda")[1:] == module.configs_for("cuda")[1:] and variant.settings == {"num_warps": 2}
    assert kind_of(variant).key(request.target, 0, request.sizes) \
        == make_request("vector_add", "sm90", launch=LaunchSpec(settings=("num_warps=2",))).key() != m.key


def _function_request(**more):
    return make_request(FUNCTION, "sm90", launch=LaunchSpec(args=FUNCTION_ARGS, constexprs=("BLOCK_SIZE=256",)), **more)


def test_a_file_function_kernel_answers_from_its_arguments(tmp_path):
    request = _function_request()
    kind = kind_of(request.kernel)
    assert kind.name == "add_kernel" and kind.stored is None and kind.compiles_on_miss
    assert kind.config_count("cuda") == 1  # not autotuned: one config, found by importing the kernel
    assert kind.declared_configs("cuda") is None and kind.size_names() is None
    assert kind.settable("cuda", 0, None) == ({"BLOCK_SIZE": 256}, {})
    with pytest.raises(UsageError, match=r"^--grid is required for add_kernel"):
        kind.launch_shape(request.target, 0, {}, None, 132, tmp_path)
    shape = kind.launch_shape(request.target, 0, {}, (4, 1, 1), 132, tmp_path)
    assert shape == LaunchShape((4, 1, 1), {"n_elements": 1024},
                                tuple(TensorBytes(name, 4096, "inout") for name in ("x_ptr", "y_ptr", "out_ptr")),
                                "--grid")
    variant = kind.with_settings({"BLOCK_SIZE": 128}, request.target, 0, OPTIONS["cuda"])
    assert variant.settings == {"BLOCK_SIZE": 128} and "; set: BLOCK_SIZE=128" in variant.describe_arguments()
    assert kind_of(variant).key(request.target, 0, {}) != request.key()
    assert request.kernel.source_file("/elsewhere/defining.py") == Path("/elsewhere/defining.py")


@pytest.fixture(scope="module")
def program_store(tmp_path_factory):
    """A store holding the one kernel a program compiled, recorded by ``irscope capture`` (one compile)."""
    root = tmp_path_factory.mktemp("program")
    program = root / "double.py"
    program.write_text(PROGRAM, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": repo_path(), "IRSCOPE_HOME": str(root / "store"), "IRSCOPE_PRECOMPILE": "0"}
    proc = subprocess.run([sys.executable, "-m", "irscope", "capture", "--target", "sm90", "--", sys.executable,
                           str(program)], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return root / "store"


@pytest.mark.compile
def test_a_recorded_program_kernel_answers_from_its_capture(program_store, tmp_path):
    store = str(program_store)
    request = make_request("double_kernel", "sm90", store_dir=store)
    stored = kind_of(request.kernel)
    capture = stored.stored
    assert capture is not None and capture.manifest.origin == "program" and stored.name == "double_kernel"
    assert stored.key(request.target, 0, {}) == capture.manifest.key == request.key()
    assert not stored.compiles_on_miss and not stored.compiles_when_damaged
    assert (stored.config_count("cuda"), stored.declared_configs("cuda"), stored.size_names()) == (None, None, None)
    with pytest.raises(UsageError, match=r"^--set does not apply to double_kernel$"):
        stored.settable("cuda", 0, capture)
    with pytest.raises(UsageError, match=r"cannot be compiled again from the store alone$"):
        stored.job(request.target, 0, {})
    assert stored.launch_shape(request.target, 0, {}, (8, 1, 1), 132, tmp_path) == LaunchShape((8, 1, 1), {}, (),
                                                                                             "--grid")
    # Compiled again, it is the recorded specialization, under the recorded key.
    recorded = request_for(capture)
    kind = kind_of(recorded.kernel)
    assert recorded.kernel.path == capture.path / "source.py" and recorded.kernel.compiles_recorded_ir
    assert request.job().kernel == recorded.kernel and recorded.key() == capture.manifest.key
    assert not kind.compiles_on_miss and not kind.compiles_when_damaged and kind.config_count("cuda") is None
    values, options = kind.settable("cuda", 0, capture)
    assert values == {"BLOCK": 128} and options["num_warps"] == 2
    variant = kind.with_settings({"num_warps": 4}, recorded.target, 0, OPTIONS["cuda"])
    assert variant.settings_of == capture.manifest.key and variant.replay["options"]["num_warps"] == 4
    assert variant.describe_arguments() == f"a variant of {capture.manifest.key}" and kind_of(variant).compiles_on_miss
    by_set = make_request("double_kernel", "sm90", launch=LaunchSpec(settings=("num_warps=4",)), store_dir=store)
    assert by_set.kernel == variant and by_set.key() == variant.key != capture.manifest.key


@pytest.mark.compile
def test_a_job_of_each_kind_comes_back_from_its_json_form_with_its_key(program_store):
    requests = {
        "module": make_request("matmul", "sm90", 1),
        "module --set": make_request("vector_add", "gfx942", launch=LaunchSpec(settings=("num_warps=2",))),
        "function": _function_request(),
        "recorded": request_for(get_capture(make_request("double_kernel", "sm90", store_dir=str(program_store)),
                                            str(program_store))),
    }
    for label, request in requests.items():
        job = request.job()
        data = json.loads(json.dumps(job.to_data()))
        assert data["kernel"]["kind"] == label.split()[0]
        again = CaptureJob.from_data(data)
        assert again == job and again.key() == request.key(), label
    assert requests["module --set"].job().to_data()["kernel"]["configs"]["hip"][0]["num_warps"] == 2
    with pytest.raises(UsageError, match="unknown kernel kind 'stored'"):
        CaptureJob.from_data({**data, "kernel": {"kind": "stored"}})


@pytest.mark.compile
def test_a_stored_capture_is_compiled_again_through_the_request_it_names(captures):
    capture = captures("vector_add", "sm90")
    request = make_request(capture.manifest.key, store_dir=str(captures.store))
    assert isinstance(request.kernel, StoredKernel) and kind_of(request.kernel).stored == capture
    job = request.job()  # a bundled capture: the module itself, read again
    assert job.kernel.kind == "module" and job.key() == capture.manifest.key
