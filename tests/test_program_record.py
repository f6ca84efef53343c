"""The program record of an offline ``irscope capture`` of torch.compile programs (issue 31, capture side): graphs,
their kernels per run and calls outside Triton, the program's runs of each graph, each kernel's provenance."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from irscope.model.program_record import ProgramRecord
from irscope.store.programs import ProgramNameError, capture_provenance, list_programs, read_program
from irscope.store.store import Store
from tests.conftest import DATA, invoke
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile

TRAIN = DATA / "programs" / "inductor_train_step.py"
RUNS = DATA / "programs" / "inductor_runs.py"


@pytest.fixture(scope="module")
def train(train_program: tuple[Path, Any]) -> tuple[Path, Any, ProgramRecord]:
    """The two-step training program captured offline for sm90 (the session's): store, the capture's output, record."""
    store, proc = train_program
    assert proc.returncode == 0, proc.stderr[-3000:]
    return store, proc, read_program(store, "latest")


def test_a_training_program_has_a_forward_and_a_backward_graph_each_run_once_a_step(train) -> None:
    store, proc, record = train
    steps = int(re.search(r"^STEPS = (\d+)", TRAIN.read_text(encoding="utf-8"), re.M).group(1))
    assert steps == 2
    assert [g.kind for g in record.graphs] == ["forward", "backward"]
    assert [g.calls for g in record.graphs] == [steps, steps]
    assert record.target == "sm90" and record.gpu == "h100" and record.exit_code == 0
    assert record.torch_version and not record.notes
    names = {u.name for g in record.graphs for u in g.kernels}
    assert (f"irscope: program {record.id}: {len(record.keys)} captures of {len(names)} kernels; {len(names)} "
            f"kernels launched by 2 torch.compile graphs; irscope report {record.id} models them") in proc.stderr
    stored = {c.manifest.key: c for c in Store(store).captures()}
    assert set(record.keys) == set(stored)
    for graph in record.graphs:
        assert graph.kernels
        for kernel in graph.kernels:
            assert kernel.per_run >= 1 and kernel.keys
            assert all(stored[k].manifest.kernel == kernel.name for k in kernel.keys)
    # The loss's gradient is summed into each bias's gradient: one reduction kernel launched twice a backward run.
    assert max(k.per_run for k in record.graphs[1].kernels) >= 2


def test_a_training_programs_matmuls_are_calls_to_cublas_with_their_flops(train) -> None:
    _, _, record = train
    forward, backward = record.graphs
    for graph in (forward, backward):
        mms = [e for e in graph.externs if e.op.split(".")[1] in ("mm", "addmm", "bmm")]
        assert mms and all(e.library == "cuBLAS" and e.dtype == "float32" for e in mms)
        for e in mms:
            a, b = e.shapes[1:3] if e.op.startswith("aten.addmm") else e.shapes[:2]
            batch = a[0] if len(a) == 3 else 1
            assert a[-1] == b[-2] and e.flops == 2 * batch * a[-2] * a[-1] * b[-1]
            assert e.nbytes >= 4 * (batch * a[-2] * a[-1] + batch * b[-2] * b[-1])
    # qkv (64 -> 192) in the forward: the 32 tokens' mm, once a run; the attention's two bmm's of 8 heads.
    assert any(e.shapes == ((32, 64), (64, 192)) and e.per_run == 1 for e in forward.externs)
    assert any(e.op == "aten.bmm.out" and e.shapes[0] == (8, 16, 16) and e.per_run == 2 for e in forward.externs)
    assert sum(e.per_run for e in backward.externs if e.library == "cuBLAS") > \
        sum(e.per_run for e in forward.externs if e.library == "cuBLAS")  # each weight's and input's gradient


def test_every_training_kernel_links_to_the_programs_own_lines(train) -> None:
    """Forward and backward: the backward's FX nodes carry the stack traces of the forward nodes they differentiate."""
    _, _, record = train
    text = TRAIN.read_text(encoding="utf-8").splitlines()
    for graph in record.graphs:
        for kernel in graph.kernels:
            prov = kernel.provenance
            assert prov.lines and prov.nodes and prov.aten and not prov.missing, kernel.name
            for line in prov.lines:
                assert line.file == str(TRAIN) and line.function in ("forward", "<genexpr>")  # line 26 is a generator
                assert text[line.line - 1].strip() == line.code
    by_name = {k.name: k.provenance for g in record.graphs for k in g.kernels}
    (gelu,) = [p for n, p in by_name.items() if n.startswith("triton_poi_fused_gelu_gelu_backward")]
    assert "aten.gelu_backward" in gelu.aten and [ln.code for ln in gelu.lines] == ["x = x + self.mlp(self.ln2(x))"]
    (mask,) = [p for n, p in by_name.items() if "ones_tril" in n]
    assert mask.lines[0].code.startswith("mask = torch.tril(torch.ones(T, T")
    (embed,) = [p for n, p in by_name.items() if n.startswith("triton_per_fused_add_embedding_dense_backward")]
    assert "x = self.embed(tokens)" in [ln.code for ln in embed.lines]


def test_each_inductor_capture_keeps_its_provenance_and_show_and_map_print_it(train) -> None:
    store, _, record = train
    kernel = next(k for k in record.graphs[0].kernels if "gelu" in k.name)
    capture = Store(store).get(kernel.keys[0])
    assert capture is not None and capture_provenance(capture) == kernel.provenance
    line = kernel.provenance.lines[0]
    shown = invoke("show", kernel.keys[0], "--stage", "ttgir", "--no-pager", store=store)
    assert shown.exit_code == 0, shown.output
    assert f"{TRAIN}:{line.line}  {line.code}" in shown.stderr and "fused ATen ops: " in shown.stderr
    assert shown.stdout == capture.read("ttgir") + "\n" or shown.stdout == capture.read("ttgir")
    as_json = json.loads(invoke("show", kernel.keys[0], "--json", store=store).stdout)
    assert as_json["provenance"]["lines"][0]["line"] == line.line
    mapped = invoke("map", kernel.keys[0], "--line", "20", store=store)
    assert mapped.exit_code == 0, mapped.output
    head = mapped.stdout.split("\n\n", 1)[0]
    assert head.startswith("from the model (Inductor's provenance):") and f":{line.line}  {line.code}" in head


def test_an_exported_inductor_capture_carries_its_provenance(train, tmp_path: Path) -> None:
    store, _, record = train
    key = record.graphs[1].kernels[0].keys[0]
    archive = tmp_path / "one.tar.gz"
    assert invoke("export", key, "-o", str(archive), store=store).exit_code == 0
    opened = invoke("open", str(archive), store=tmp_path / "other")
    assert opened.exit_code == 0, opened.output
    capture = Store(tmp_path / "other").get(key)
    assert capture is not None and capture_provenance(capture) == record.graphs[1].kernels[0].provenance


def test_program_records_are_read_by_id_prefix_or_latest_and_refused_in_one_line(train, tmp_path: Path) -> None:
    store, _, record = train
    assert list_programs(store) == [record.id]
    assert read_program(store, record.id) == read_program(store, record.id[:12]) == record
    with pytest.raises(ProgramNameError) as unknown:
        read_program(store, "prog-1999")
    assert unknown.value.exit_code == 2 and "\n" not in str(unknown.value) and record.id in str(unknown.value)
    with pytest.raises(ProgramNameError, match="no program record in the store"):
        read_program(tmp_path, "latest")
    copy = tmp_path / "store"
    (copy / "programs" / record.id).mkdir(parents=True)
    path = copy / "programs" / record.id / "program.json"
    data = record.to_json()
    data["graphs"][0]["calls"] = "two"
    path.write_text(json.dumps(data), encoding="utf-8")
    from irscope.errors import StoreError

    with pytest.raises(StoreError) as damaged:
        read_program(copy, "latest")
    assert str(damaged.value) == f"program record {record.id} is damaged: graphs[0].calls is missing or not an integer"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(StoreError, match=r"is damaged: program.json is not JSON \("):
        read_program(copy, "latest")


def test_a_second_capture_on_the_same_machine_codegens_again_and_an_abrupt_end_counts_no_runs(tmp_path: Path) -> None:
    """Inductor's FX graph cache (on here, in a cache folder both captures share) would give the second capture the
    compiled graph without generating its kernels, so without their provenance; and the second run ends with
    ``os._exit``, skipping the exit handlers that write the graph's run count."""
    env = {"TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "inductor-cache"), "TORCHINDUCTOR_FX_GRAPH_CACHE": "1",
           "TORCHINDUCTOR_AUTOGRAD_CACHE": "1"}
    records = []
    for store, args in ((tmp_path / "a", ()), (tmp_path / "b", ("--abrupt",))):
        proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(RUNS), *args, store=store, env=env)
        assert proc.returncode == 0 and "ran 3 times (64,) stepped twice" in proc.stdout, proc.stderr[-3000:]
        records.append(read_program(store, "latest"))
    text = RUNS.read_text(encoding="utf-8").splitlines()
    sine, foreach = (next(i for i, t in enumerate(text, 1) if what in t) for what in ("torch.sin(x)", "_foreach_add_("))
    for record in records:
        ((kernel,), (step,)) = [g.kernels for g in record.graphs]
        assert kernel.provenance.aten == ("aten.sin", "aten.mul", "aten.add")
        assert [(ln.line, ln.function) for ln in kernel.provenance.lines] == [(sine, "scaled_sine")]
        # A foreach kernel: Inductor's combo-kernel code path names it (triton_for_...) from the foreach node.
        assert step.name.startswith("triton_for_fused_") and step.provenance.aten == ("aten._foreach_add",)
        assert [(ln.line, ln.function) for ln in step.provenance.lines] == [(foreach, "sgd")]
    assert [g.calls for g in records[0].graphs] == [3, 2] and not records[0].notes
    assert [g.calls for g in records[1].graphs] == [0, 0] and "calls are 0" in records[1].notes[0]


def test_a_tiny_llama_links_nine_in_ten_kernels_to_transformers_source(llama_program) -> None:
    """Real foreign model code: Hugging Face's Llama. Each kernel's model line is the innermost frame outside torch:
    mostly modeling_llama.py, and transformers' helpers it calls (its SDPA wrapper, its KV cache, its masks)."""
    _, record = llama_program
    kernels = [k for g in record.graphs for k in g.kernels]
    assert len(kernels) >= 8  # one graph (20 while its indexing broke it: fake_indexing)
    linked = [k for k in kernels if any("/transformers/" in ln.file for ln in k.provenance.lines)]
    assert len(linked) >= 0.9 * len(kernels)
    assert all(k.provenance.missing for k in kernels if not k.provenance.lines)
    llama = [ln for k in kernels for ln in k.provenance.lines if ln.file.endswith("models/llama/modeling_llama.py")]
    assert len({k.name for k in kernels if any(ln in llama for ln in k.provenance.lines)}) >= len(kernels) // 2
    source = Path(llama[0].file).read_text(encoding="utf-8").splitlines()
    assert all(source[ln.line - 1].strip() == ln.code for ln in llama)
    rms = [k for k in kernels if "mean_mul_pow_rsqrt" in k.name]
    assert rms and all("variance = hidden_states.pow(2).mean(-1, keepdim=True)"
                       in [ln.code for ln in k.provenance.lines]
                       for k in rms)


def test_the_tuis_facts_name_an_inductor_kernels_model_lines(train) -> None:
    from irscope.tui.facts import capture_facts

    store, _, record = train
    kernel = next(k for k in record.graphs[1].kernels if len(k.provenance.lines) > 3)
    capture = Store(store).get(kernel.keys[0])
    assert capture is not None
    facts = [f for f in capture_facts(capture) if f.source == "Inductor provenance"]
    first = kernel.provenance.lines[0]
    assert [f.label for f in facts] == ["model line"] * 3 + ["model lines", "fused ATen ops"]
    assert facts[0].value == f"{TRAIN}:{first.line}  {first.code}"
    assert facts[-1].value == ", ".join(kernel.provenance.aten)
