"""torch.compile programs captured offline: Inductor writes and compiles its Triton kernels for the target (issue 18
item 6)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from irscope.store.store import Store
from tests.conftest import DATA
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile


@pytest.mark.parametrize(("target", "device", "stage"), [
    ("sm90", "DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9", "ptx"),
    ("gfx942", "DeviceProperties(type='hip', index=0, multi_processor_count=304, cc='gfx942', major=9", "amdgcn"),
])
def test_inductor_kernels_are_written_for_the_stood_in_gpu_and_compiled_for_the_target(tmp_path: Path, target: str,
                                                                                       device: str, stage: str) -> None:
    proc = irscope("capture", "--target", target, "--", sys.executable, str(DATA / "programs" / "inductor_demo.py"),
                   store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "inductor output matches eager" in proc.stdout  # the program ran on, eagerly on the CPU
    captures = Store(tmp_path).captures()
    assert captures and {c.manifest.kernel for c in captures} == {"triton_poi_fused_add_gelu_0"}
    for capture in captures:
        assert capture.manifest.target == target and stage in capture.manifest.files
        source = capture.read("source")
        # Inductor's own record of the device it generated the kernel for: the stand-in's answers.
        assert device in source
    assert "NOT captured" not in proc.stderr


def test_without_a_target_on_a_machine_without_gpu_inductor_kernels_compile_for_sm90(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No --target and no GPU: capture compiles for sm90, as every other command does, and says so; the tensors
    the program puts on the (stand-in) GPU give Inductor a GPU graph, so it writes Triton kernels."""
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")  # a machine with a GPU is made one without (no skip)
    proc = irscope("capture", "--", sys.executable, str(DATA / "programs" / "inductor_cpu.py"), store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "(offline for sm90 as an NVIDIA H100 80GB HBM3: no GPU on this machine, so launches compile and " \
           "do not run; " \
           "--target chooses another target), exit status 0" in proc.stderr
    found = Store(tmp_path).captures()
    assert found and all(c.manifest.target == "sm90" and c.manifest.kernel.startswith("triton_") for c in found)


def test_a_dynamic_shape_graph_is_captured_with_its_size_as_a_runtime_argument(tmp_path: Path) -> None:
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(DATA / "programs" / "inductor_dynamic.py"),
                   store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "16.0" in proc.stdout  # the program ran on, eagerly
    (capture,) = Store(tmp_path).captures()
    assert capture.manifest.kernel == "triton_poi_fused_mul_0"
    assert capture.manifest.signature["xnumel"] == "i32"  # not a constant: the size stays symbolic in the kernel
    assert "NOT captured" not in proc.stderr


def _kernels(store: Path) -> dict[str, list]:
    out: dict[str, list] = {}
    for capture in Store(store).captures():
        out.setdefault(capture.manifest.kernel, []).append(capture)
    return out


def test_a_module_whose_parameters_require_grad_run_under_no_grad_is_captured(tmp_path: Path) -> None:
    """Issue 26 item 2a: the nn.Linear weights require grad; the compile used to abort the program (SIGABRT from
    autograd's C++ side asking a CPU-only torch for a CUDA stream) with nothing recorded."""
    proc = irscope("capture", "--target", "sm90", "--", sys.executable,
                   str(DATA / "programs" / "inductor_no_grad.py"), store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "shape (16, 64)" in proc.stdout and "NOT captured" not in proc.stderr
    found = _kernels(tmp_path)
    assert set(found) == {"triton_poi_fused_addmm_silu_0", "triton_poi_fused_add_addmm_1"}
    for capture in found["triton_poi_fused_addmm_silu_0"]:
        # The bias add and SiLU fused after the matmul (an extern aten.mm): x / (1 + exp(-x)), exp from libdevice,
        # as Inductor writes it for an NVIDIA GPU.
        assert capture.manifest.target == "sm90" and 'symbol = "__nv_expf"' in capture.read("ttgir")


def test_a_causal_mask_built_on_the_device_inside_forward_is_captured(tmp_path: Path) -> None:
    """Issue 26 item 2b: ``torch.triu(torch.ones(T, T, device=x.device))`` used to stop Inductor (its constant
    folding ran ``aten::empty`` on a CUDA device that a CPU-only torch has not), so nothing was compiled."""
    proc = irscope("capture", "--target", "sm90", "--", sys.executable,
                   str(DATA / "programs" / "inductor_causal_mask.py"), store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "shape (2, 16, 64)" in proc.stdout and "NOT captured" not in proc.stderr
    found = _kernels(tmp_path)
    (softmax,) = [name for name in found if "softmax" in name]
    assert "ones" in softmax and "triu" in softmax  # the mask is computed inside the fused softmax kernel
    assert len(found[softmax]) > 1  # Inductor's persistent-reduction configs, each compiled
    assert all("tt.reduce" in capture.read("ttgir") for capture in found[softmax])


def test_one_training_step_compiles_its_forward_and_backward_kernels_for_the_target(train_program) -> None:
    """A GPT-style block, forward and backward under torch.compile with parameters requiring grad: AOT autograd
    traces on the CPU, Inductor compiles both graphs for sm90; the program's steps run on (eagerly, on the CPU)."""
    store, proc = train_program
    assert proc.returncode == 0, proc.stderr
    assert "grads 14" in proc.stdout and "NOT captured" not in proc.stderr
    found = _kernels(store)
    backward = [name for name in found if "backward" in name]
    assert any("gelu_backward" in n for n in backward) and any("native_layer_norm_backward" in n for n in backward)
    (embedding,) = [n for n in backward if n.startswith("triton_per_") and "embedding_dense_backward" in n]
    # The embedding's gradient scatters rows into the weight's gradient: atomic adds on the GPU.
    assert all("tt.atomic_rmw fadd" in c.read("ttgir") for c in found[embedding])
    assert all(c.manifest.target == "sm90" for cs in found.values() for c in cs)
    # Both graphs' wrappers ran once on fake inputs, so every kernel, backward ones included, has its launches
    # (the training forward's wrapper checks its inputs' alignment, which read a fake tensor's data pointer).
    assert all("launches" in c.manifest.files for cs in found.values() for c in cs)


def test_hidden_gpus_are_no_local_gpu(monkeypatch: pytest.MonkeyPatch) -> None:
    # CUDA_VISIBLE_DEVICES= hides every GPU from the program, though nvidia-smi still lists them.
    from irscope.model import targets

    monkeypatch.setattr(targets, "_nvidia_arch", lambda: 90)
    monkeypatch.setattr(targets, "_amd_arch", lambda: None)
    monkeypatch.setattr(targets.Path, "exists", lambda self: True)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    assert targets._cached_nvidia_arch() is None


def test_the_training_steps_forward_saves_the_weights_as_on_the_gpu(tmp_path: Path) -> None:
    """Offline, AOT autograd must see the parameters as Dynamo marked them: on the H200 (torch 2.11, Triton 3.6,
    2026-12-02) the train step's forward saves the weights themselves for the backward, which recomputes their
    transposes; with the marks lost (a plain deepcopy of Dynamo's graph) it saved five ``permute``s of them,
    and the backward's kernels came out numbered and fused differently."""
    env_logs = {"TORCH_LOGS": "aot_graphs", "TORCHINDUCTOR_FORCE_DISABLE_CACHES": "1"}
    proc = irscope("capture", "--target", "sm90", "--", sys.executable,
                   str(DATA / "programs" / "inductor_train_step.py"), store=tmp_path, env=env_logs)
    assert proc.returncode == 0, proc.stderr
    forward = proc.stderr.split("===== Forward graph 0 =====", 1)[1].split("===== Backward graph 0 =====", 1)[0]
    saved = re.search(r"\n[^\n]*return \(([^)]*)\)", forward)
    assert saved is not None, forward[-2000:]
    names = {n.strip() for n in saved.group(1).split(",")}
    weights = set(re.findall(r"(permute_\d+)[^=\n]*= torch\.ops\.aten\.permute\.default\(primals_\d+, \[1, 0\]\)",
                             forward))
    assert weights, forward[-2000:]
    assert not names & weights, f"saved transposes of weights: {sorted(names & weights)}"
    assert {"primals_5", "primals_7", "primals_11", "primals_13", "primals_15"} <= names


def test_inductors_inner_compile_sees_aot_autograds_metadata() -> None:
    """Inductor reads which saved activations the backward may overwrite (``bw_donated_idxs``) from the tracing
    context; the offline compile ran under none, so its in-place buffer choices differed from the GPU's (the
    softmax backward kernel wrote into the gradient, not the saved softmax, on 2026-12-02's H200 comparison)."""
    import torch
    from torch._guards import TracingContext, tracing
    from torch._subclasses.fake_tensor import FakeTensorMode

    from irscope.compile.inductor_offline import _compile_on_gpu

    gm = torch.fx.symbolic_trace(torch.nn.Linear(4, 4))
    seen = []

    def compile_fn(graph, inputs, **kwargs):
        context = TracingContext.try_get()
        seen.append((context.fw_metadata if context is not None else None, kwargs))

    metadata = object()
    aot = TracingContext(FakeTensorMode())
    aot.fw_metadata = metadata
    with tracing(aot):
        _compile_on_gpu(compile_fn, gm, [torch.randn(2, 4)], is_backward=True)
    assert seen == [(metadata, {"is_backward": True})]
    assert aot.fw_metadata is metadata and aot.output_strides is None  # what Inductor appends stays out of AOT's
