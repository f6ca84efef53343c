"""Several Tritons: managed environments, --triton, and the compile worker's protocol.

The worker path is tested with this interpreter standing in as "another" one (it runs the same
protocol in a separate process), and for real with Triton 3.6.0 installed by `irscope triton install`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest

from irscope.compile.remote import PROTOCOL, call, job_data, job_from_data
from irscope.errors import UsageError
from irscope.request.captures import get_capture, make_request
from irscope.store.store import local_triton_version
from irscope.toolchain import tritons
from tests.conftest import DATA, invoke, repo_path

OLD = "3.6.0"  # the Triton of the GPU machine; its PTX, registers and metadata differ from the current Triton's


@pytest.mark.parametrize("text", ["3.4.0", "2.3", "three", "3", "3.5.x", ""])
def test_versions_irscope_cannot_use_are_refused_with_what_would_do(text):
    with pytest.raises(UsageError) as err:
        tritons.check_version(text)
    assert "3.5" in str(err.value)


def test_supported_version_spellings():
    assert tritons.check_version("3.5.1") == (3, 5, 1)
    assert tritons.check_version("3.6.0rc1")[:2] == (3, 6)
    assert tritons.check_version("4.0") == (4, 0)


def test_an_uninstalled_version_names_the_install_command(tmp_path):
    result = invoke("--triton", "3.7.0", "show", "vector_add")
    assert result.exit_code == 2
    assert "Triton 3.7.0 is not installed for irscope" in result.output
    assert "irscope triton install 3.7.0" in result.output
    assert f"{local_triton_version()} (current)" in result.output


def test_bad_triton_values_get_one_line(tmp_path):
    for value, said in [("", "--triton is empty"), ("/no/such/python", "no such file"),
                        ("3.4", "older than irscope supports")]:
        result = invoke("--triton", value, "show", "vector_add")
        assert result.exit_code == 2, result.output
        assert said in result.output and "Traceback" not in result.output


def test_an_interpreter_without_triton_is_refused(tmp_path):
    venv = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    result = invoke("--triton", str(tritons.env_python(venv)), "show", "vector_add")
    assert result.exit_code == 2
    assert "has no Triton" in result.output


# A compiling command line for each command that takes --triton after its name (compare's is its first side's).
_TRITON_COMMANDS = {
    "show": ["vector_add"], "layouts": ["vector_add"], "passes": ["vector_add"], "diff": ["vector_add", "--pass", "1"],
    "timing": ["vector_add"], "map": ["vector_add", "--line", "30"], "annotate": ["vector_add"],
    "loops": ["vector_add"], "resources": ["vector_add"], "perf": ["vector_add"], "graph": ["vector_add"],
    "repro": ["vector_add"], "verify": ["vector_add"], "facts": ["vector_add"], "check": ["facts.json"],
    "tui": ["vector_add"], "html": ["vector_add"],
}


def test_every_compiling_command_takes_triton_after_its_name_as_the_global_option():
    from irscope.cli import COMMANDS, cli

    ctx = click.Context(cli)
    takes = sorted(name for name in COMMANDS if any("--triton" in p.opts for p in cli.get_command(ctx, name).params))
    assert takes == sorted([*_TRITON_COMMANDS, "compare"])
    for name, rest in _TRITON_COMMANDS.items():
        after = invoke(name, *rest, "--triton", "3.7.0")
        before = invoke("--triton", "3.7.0", name, *rest)
        assert after.exit_code == before.exit_code == 2, (name, after.output)
        assert after.output == before.output, name
        assert after.output.startswith("irscope: error: Triton 3.7.0 is not installed for irscope"), after.output
        assert after.output.count("\n") == 1 and "irscope triton install 3.7.0" in after.output


def _interpreter_seeing_this_triton(venv: Path) -> Path:
    """Another interpreter that sees this one's Triton, in a venv or not. ``--system-site-packages`` alone gives the
    base interpreter's packages, which in a venv (as the README makes one) hold no Triton: a ``.pth`` file adds this
    interpreter's own site-packages, their ``.pth`` files (an editable install's) included."""
    import site

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", "--system-site-packages", str(venv)], check=True)
    python = tritons.env_python(venv)
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    ours = [folder for folder in site.getsitepackages() if Path(folder).is_dir()]
    adds = "".join(f"; site.addsitedir({folder!r})" for folder in ours)  # one line: site runs a .pth's import line
    Path(purelib, "this_interpreter.pth").write_text(f"import site{adds}\n")
    return python


def test_a_command_s_triton_option_chooses_the_triton_before_the_command_runs(tmp_path):
    python = _interpreter_seeing_this_triton(tmp_path / "shared")
    result = invoke("show", "no_such_kernel", "--triton", str(python))
    assert result.exit_code == 2 and "unknown kernel 'no_such_kernel'" in result.output
    chosen = tritons.selected()
    assert chosen is not None and chosen.python == python.absolute() and chosen.kind == "interpreter"
    assert os.environ["IRSCOPE_TRITON"] == str(python.absolute())  # its child processes compile with it too


def test_this_interpreter_named_by_path_or_version_compiles_in_process():
    here = tritons.resolve(sys.executable, Path("/nonexistent"))
    assert here.kind == "current" and not here.foreign
    assert tritons.resolve(local_triton_version(), Path("/nonexistent")).kind == "current"


@pytest.mark.compile
def test_job_descriptions_are_plain_data_and_rebuild_the_same_request(tmp_path):
    requests = [
        make_request("matmul", "sm90", 1),
        make_request(f"{DATA / 'kernels' / 'off_by_one_add.py'}:add_kernel", "gfx942",
                     launch=_launch(args="x_ptr=fp16[1024], y_ptr=fp16[1024], out_ptr=fp16[1024], n_elements=1024",
                                    constexprs=("BLOCK_SIZE=256",))),
        make_request(f"{DATA / 'kernels' / 'off_by_one_add.py'}:add_kernel", "sm80",
                     launch=_launch(signature="*fp32:16, *fp32:16, *fp32, i32, 128")),
    ]
    for request in requests:
        data = job_data(request.kernel, request.target, request.config_index, request.sizes)
        again = json.loads(json.dumps(data))  # survives JSON as is
        kernel, target, config, sizes = job_from_data(again)
        assert (target, config, sizes) == (request.target, request.config_index, request.sizes)
        rebuilt = make_request.__globals__["Request"](kernel=kernel, target=target, config_index=config, sizes=sizes)
        assert rebuilt.key() == request.key()


def _launch(**kw):
    from irscope.request.captures import LaunchSpec

    return LaunchSpec(**kw)


def _stand_in() -> tritons.TritonEnv:
    """This interpreter, treated as another Triton: everything goes through the worker process."""
    return tritons.TritonEnv(version=local_triton_version(), python=Path(sys.executable), kind="interpreter")


def test_the_worker_answers_hello_with_its_triton_and_refuses_other_protocols():
    tritons.select(_stand_in())
    reply = call({"op": "hello"})
    assert reply["ok"] and reply["triton"] == local_triton_version() and reply["protocol"] == PROTOCOL
    from irscope.toolchain.tritons import worker_command

    proc = subprocess.run(worker_command("irscope.compile.remote"), input=json.dumps({"protocol": 99, "op": "hello"}),
                          capture_output=True, text=True)
    answer = json.loads(proc.stdout)
    assert proc.returncode == 3 and not answer["ok"] and "protocol" in answer["error"]


@pytest.mark.compile
def test_a_worker_capture_equals_the_in_process_one(tmp_path):
    store = tmp_path / "store"
    here = get_capture(make_request("vector_add", "sm90"), str(store))
    tritons.select(_stand_in())
    there = get_capture(make_request("vector_add", "sm90"), str(tmp_path / "other"))
    assert there.manifest.key == here.manifest.key  # the parent's key is the worker's
    theirs, ours = there.path / there.manifest.files["ttgir"], here.path / here.manifest.files["ttgir"]
    assert theirs.read_text() == ours.read_text()


@pytest.mark.compile
def test_a_compile_error_in_the_worker_is_triton_s_message(tmp_path):
    tritons.select(_stand_in())
    result = invoke("show", str(DATA / "kernels" / "type_error.py"))
    assert result.exit_code == 1, result.output
    assert "type_error.py:20: Triton could not compile bad_kernel" in result.output
    assert "Traceback" not in result.output


def test_capture_of_a_program_refuses_triton():
    tritons.select(_stand_in())
    result = invoke("capture", "--", "python", "prog.py")
    assert result.exit_code == 2 and "--triton does not apply to capture" in result.output


# ---- a real second Triton -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def old_triton(tmp_path_factory) -> Path:
    """A store with Triton 3.6.0 installed by `irscope triton install` (pip's wheel cache makes it quick)."""
    home = tmp_path_factory.mktemp("tritons-home")
    env = {**os.environ, "IRSCOPE_HOME": str(home), "PYTHONPATH": repo_path()}
    env.pop("IRSCOPE_TRITON", None)
    proc = subprocess.run([sys.executable, "-m", "irscope", "triton", "install", OLD], capture_output=True, text=True,
                          env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith(f"Triton {OLD}: ")
    return home


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "IRSCOPE_HOME": str(home), "PYTHONPATH": repo_path()}
    env.pop("IRSCOPE_TRITON", None)
    return subprocess.run([sys.executable, "-m", "irscope", *args], capture_output=True, text=True, env=env,
                          timeout=900)


@pytest.mark.compile
def test_triton_install_list_and_compile_with_an_older_triton(old_triton):
    listed = _cli(old_triton, "triton", "list", "--json")
    rows = {r["version"]: r for r in json.loads(listed.stdout)}
    assert rows[OLD]["kind"] == "managed" and rows[local_triton_version()]["in_use"]
    assert not rows[OLD]["in_use"]
    chosen = _cli(old_triton, "--triton", OLD, "triton", "list", "--json")
    assert {r["version"]: r for r in json.loads(chosen.stdout)}[OLD]["in_use"]

    old = _cli(old_triton, "--triton", OLD, "show", "matmul", "--stage", "ptx", "--target", "sm90")
    new = _cli(old_triton, "show", "matmul", "--stage", "ptx", "--target", "sm90")
    assert old.returncode == 0 and new.returncode == 0, old.stderr + new.stderr
    assert f"Triton {OLD}" in old.stderr
    after = _cli(old_triton, "show", "matmul", "--stage", "ptx", "--target", "sm90", "--triton", OLD)
    assert after.returncode == 0 and after.stdout == old.stdout  # the command's own --triton: the same capture
    # Each PTX says which PTX ISA its Triton targets; 3.5.1's is older than the current one's.
    old_isa = next(line for line in old.stdout.splitlines() if line.startswith(".version"))
    new_isa = next(line for line in new.stdout.splitlines() if line.startswith(".version"))
    assert old_isa != new_isa
    listing = _cli(old_triton, "list", "--json")
    made = [c for c in json.loads(listing.stdout)["captures"] if c["kernel"] == "matmul"]
    assert sorted(c["triton_version"] for c in made) == sorted([OLD, local_triton_version()])
    # The compiling Triton wrote its own version into its metadata: not just irscope's label.
    from irscope.store.store import Store

    by_version = {c.manifest.triton_version: c for c in Store(old_triton).captures()}
    assert by_version[OLD].manifest.metadata["triton_version"] == OLD

    # $IRSCOPE_TRITON does the same as --triton, and the per-pass dump compiles there too.
    passes = subprocess.run([sys.executable, "-m", "irscope", "passes", "matmul", "--json"], capture_output=True,
                            text=True, timeout=900,
                            env={**os.environ, "IRSCOPE_HOME": str(old_triton), "PYTHONPATH": repo_path(),
                                 "IRSCOPE_TRITON": OLD})
    assert passes.returncode == 0, passes.stderr[-2000:]
    assert json.loads(passes.stdout)["triton_version"] == OLD


@pytest.mark.compile
def test_compare_and_check_across_tritons(old_triton, tmp_path):
    """The facts that move from the older Triton to the current one are found by compare and by check; a
    snapshot made with the older Triton passes check with it and fails with the current one."""
    compared = _cli(old_triton, "compare", "matmul", "--target", "sm90", "--triton", OLD, "--vs-triton", "current",
                    "--json")
    assert compared.returncode == 0, compared.stderr[-2000:]
    data = json.loads(compared.stdout)
    assert data["a"]["label"].endswith(f"Triton {OLD}") and data["b"]["label"].endswith(local_triton_version())
    changed = {c["fact"]: c for c in data["changed"]}
    assert "registers" in changed  # 3.6.0 and 3.9 allocate registers differently for the same matmul (207 vs 208)
    from irscope.analysis.resources import capture_resources
    from irscope.store.store import Store

    by_key = {c.manifest.key: c for c in Store(old_triton).captures()}
    for side in ("a", "b"):  # each side's register count is what ptxas -v says of that side's cubin
        assert data[side]["facts"]["registers"] == capture_resources(by_key[data[side]["key"]]).registers
    assert "loop1.stages" not in changed  # both pipeline the K-loop 3 deep
    snapshot = tmp_path / "facts.json"
    made = _cli(old_triton, "facts", "matmul", "--target", "sm90", "-o", str(snapshot), "-j", "1")
    assert made.returncode == 0, made.stderr[-2000:]
    same = _cli(old_triton, "check", str(snapshot), "-j", "1")
    assert same.returncode == 0 and "1 as recorded" in same.stdout
    moved = _cli(old_triton, "--triton", OLD, "check", str(snapshot), "-j", "1")
    assert moved.returncode == 1, moved.stdout + moved.stderr[-2000:]
    old_snapshot = tmp_path / "old-facts.json"
    assert _cli(old_triton, "--triton", OLD, "facts", "matmul", "--target", "sm90", "-o", str(old_snapshot),
                "-j", "1").returncode == 0
    assert _cli(old_triton, "--triton", OLD, "check", str(old_snapshot), "-j", "1").returncode == 0
    assert _cli(old_triton, "check", str(old_snapshot), "-j", "1").returncode == 1
    assert "CHANGED  matmul sm90 c0" in moved.stdout and "registers" in moved.stdout


@pytest.mark.compile
def test_triton_remove(old_triton, tmp_path):
    bad = _cli(old_triton, "triton", "remove", "3.8.0")
    assert bad.returncode == 2 and f"installed: {OLD}" in bad.stderr
    gone = _cli(old_triton, "triton", "remove", OLD)
    assert gone.returncode == 0 and not (old_triton / "tritons" / OLD).exists()
    after = _cli(old_triton, "--triton", OLD, "show", "matmul")
    assert after.returncode == 2 and f"irscope triton install {OLD}" in after.stderr
    # Its captures stay readable by name: they are in the store, not in the environment.
    listing = json.loads(_cli(old_triton, "list", "--json").stdout)
    assert OLD in {c["triton_version"] for c in listing["captures"]}


def test_install_refuses_old_versions_before_doing_anything(tmp_path):
    result = invoke("triton", "install", "3.4.0")
    assert result.exit_code == 2 and "older than irscope supports" in result.output
    assert not (tmp_path / "irscope-home" / "tritons").exists()
