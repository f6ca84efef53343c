"""The warm compile worker (irscope.compile.remote): one process per Triton, requests line by line.

This interpreter stands in for another Triton (the protocol is the same); tests/test_tritons.py runs
it with a real Triton 3.6.0.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from irscope.cli import cli
from irscope.compile import remote
from irscope.errors import UsageError
from irscope.model.kernels import bundled_dir, read_kernel
from irscope.request.captures import LaunchSpec, make_request
from irscope.store.store import Store, local_triton_version
from irscope.toolchain import tritons


@pytest.fixture(autouse=True)
def _fresh_workers():
    remote.close_all()
    yield
    remote.close_all()
    tritons.select(None)  # a test that chose a Triton leaves neither the choice nor $IRSCOPE_TRITON behind


def _stand_in(python: Path | None = None) -> tritons.TritonEnv:
    """This interpreter (or a link to it), treated as another Triton."""
    return tritons.TritonEnv(version=local_triton_version(), python=python or Path(sys.executable), kind="interpreter")


def _printing_kernel(tmp_path: Path) -> Path:
    """vector_add's module, printing on stdout when imported (as user modules do)."""
    path = tmp_path / "noisy_add.py"
    text = (bundled_dir() / "vector_add.py").read_text(encoding="utf-8")
    path.write_text(text.replace("import triton\n", "import triton\nprint('imported noisy_add', flush=True)\n", 1),
                    encoding="utf-8")
    return path


def test_the_worker_answers_request_lines_until_its_input_ends():
    proc = subprocess.Popen(tritons.worker_command("irscope.compile.remote", env=_stand_in()), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    hello = json.dumps({"protocol": remote.PROTOCOL, "op": "hello"}) + "\n"
    out, _ = proc.communicate(hello + "\n" + hello + json.dumps({"protocol": remote.PROTOCOL, "op": "nope"}) + "\n",
                              timeout=120)
    replies = [json.loads(line) for line in out.splitlines()]
    assert proc.returncode == 0
    assert [r["ok"] for r in replies] == [True, True, False]
    assert replies[0]["pid"] == replies[1]["pid"] == proc.pid and replies[0]["protocol"] == 2
    assert replies[2]["exit_code"] == 2 and "unknown request 'nope'" in replies[2]["error"]


@pytest.mark.compile
def test_captures_through_one_client_reuse_its_process_and_follow_the_parent_s_environment(tmp_path, monkeypatch):
    store = Store(tmp_path / "store")
    client = remote.worker(_stand_in())
    pid = client.pid
    assert pid not in (0, os.getpid())
    noisy = make_request(str(_printing_kernel(tmp_path)), "sm80").job()
    first = client.capture(noisy, store)  # the module's print does not get between the replies
    assert first.manifest.key == noisy.key()
    # A variable that enters capture keys, set after the worker started: the worker compiles with it, as
    # a worker started for this request would, so its key is the parent's.
    unmarked = make_request("vector_add", "sm90").job().key()
    monkeypatch.setenv("TRITON_IRSCOPE_TEST_MARK", "1")
    job = make_request("vector_add", "sm90").job()
    assert job.key() != unmarked
    second = client.capture(job, store)
    assert second.manifest.key == job.key()
    assert remote.worker(_stand_in()) is client and client.hello()["pid"] == pid


def test_a_killed_worker_is_started_again():
    client = remote.worker(_stand_in())
    pid = client.pid
    os.kill(pid, signal.SIGKILL)
    client._proc.wait()  # type: ignore[union-attr]
    reply = client.hello()
    assert reply["ok"] and reply["pid"] not in (0, pid)


def test_a_worker_that_cannot_start_again_is_one_clear_error(tmp_path):
    link = tmp_path / "bin" / "python"
    link.parent.mkdir()
    link.symlink_to(sys.executable)
    env = _stand_in(link)
    client = remote.worker(env)
    os.kill(client.pid, signal.SIGKILL)
    client._proc.wait()  # type: ignore[union-attr]
    link.unlink()
    reply = client.hello()
    assert not reply["ok"] and reply["error"].startswith(f"cannot start the compile worker of Triton "
                                                         f"{local_triton_version()} ({link})")
    tritons.select(env)
    result = CliRunner().invoke(cli, ["show", "vector_add", "--target", "sm80"], catch_exceptions=False)
    assert result.exit_code == 1, result.output
    errors = [line for line in result.output.splitlines() if "error" in line]
    assert errors == [f"irscope: error: cannot start the compile worker of Triton {local_triton_version()} ({link}): "
                      "No such file or directory"]


def test_a_usage_error_in_the_worker_keeps_its_message_and_exit_status(tmp_path):
    path = _printing_kernel(tmp_path)
    job = make_request(str(path), "sm80").job()
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    with pytest.raises(UsageError) as err:
        remote.worker(_stand_in()).capture(job, Store(tmp_path / "store"))
    assert err.value.exit_code == 2 and "changed while it was being compiled" in str(err.value)


def test_a_set_variant_travels_to_the_worker_whole():
    # --set on a kernel module changes one of its configs: the job must carry it, or another Triton's
    # worker compiles the module's own config under the variant's name.
    for kernel, settings in [("vector_add", ("num_warps=8",)), ("matmul", ("BLOCK_SIZE_K=32", "num_stages=2"))]:
        request = make_request(kernel, "sm90", launch=LaunchSpec(settings=settings))
        data = json.loads(json.dumps(remote.job_data(request.kernel, request.target, request.config_index,
                                                     request.sizes)))
        kernel_again, target, config, sizes = remote.job_from_data(data)
        assert kernel_again.settings == request.kernel.settings
        rebuilt = make_request.__globals__["Request"](kernel=kernel_again, target=target, config_index=config,
                                                      sizes=sizes)
        assert rebuilt.key() == request.key() != make_request(kernel, "sm90").key()
        assert read_kernel(Path(data["kernel"]["path"]), bundled=True).source_sha == request.kernel.source_sha


@pytest.mark.compile
def test_warm_up_compiles_once_in_the_worker_and_leaves_the_store_alone(tmp_path):
    """What the TUI's what-if form asks while the user types: Triton's first-compile set-up, then a real
    compile in the same process costs only itself."""
    store = Store(tmp_path / "store")
    client = remote.worker(None)
    pid = client.pid
    seconds = client.warm_up("sm80")
    assert seconds > 0 and "sm80" in client.warmed and client.pid == pid
    assert store.captures() == []  # the throwaway compile went to a scratch store
    request = make_request("vector_add", "sm80", store_dir=str(store.root))
    made = client.capture(request.job(), store)
    assert made.manifest.target == "sm80" and client.hello()["pid"] == pid
    with pytest.raises(UsageError, match="sm99"):
        client.warm_up("sm99")  # a target irscope does not know: one line, and the worker lives on
    assert client.alive()
