"""The program record assembled from a capture session's records (irscope.compile.program_graphs), and stored."""

from __future__ import annotations

from pathlib import Path

from irscope.compile.program_graphs import build_record, graph_records, provenance_by_launch
from irscope.store.programs import list_programs, read_program, write_program

PROV = {"aten": ["aten.sin"], "nodes": ["sin"], "missing": "",
        "lines": [{"file": "/p/prog.py", "line": 3, "function": "f", "code": "return x.sin()"}]}
GRAPHS = [
    {"id": "7-2", "seq": 2, "time": 2.0, "kind": "backward", "externs": [], "notes": [],
     "kernels": [{"name": "triton_poi_fused_cos_0", "launch_keys": ["k2"], "per_run": 1, "provenance": {}}]},
    {"id": "7-1", "seq": 1, "time": 1.0, "kind": "forward", "notes": ["its wrapper could not run"],
     "torch_version": "2.13.0", "kernels": [{"name": "triton_poi_fused_sin_0", "launch_keys": ["k1", "k1b"],
                                             "per_run": 3, "provenance": PROV}],
     "externs": [{"op": "aten.mm.out", "library": "cuBLAS", "per_run": 2, "shapes": [[2, 3], [3, 4]],
                  "dtype": "bfloat16", "flops": 48, "nbytes": 60, "extra": 1}]},
]


def test_graphs_in_compile_order_with_capture_keys_runs_and_provenance(tmp_path: Path) -> None:
    graphs = graph_records([*GRAPHS, "not a record", {"kernels": "no"}])
    assert [g["kind"] for g in graphs] == ["forward", "backward"]
    assert provenance_by_launch(graphs)["k1b"] == {"kernel": "triton_poi_fused_sin_0", "graph": 0, "kind": "forward",
                                                   **PROV}
    record = build_record(command="python prog.py", target="sm90", gpu="h100", exit_code=0, graphs=graphs,
                          calls_records=[{"calls": {"7-1": 5, "7-2": 4}}], keys=["a", "b", "c"],
                          keys_by_launch={"k1": ["a"], "k1b": ["b", "a"], "k2": ["c"]}, notes=[], created=1e9)
    assert record.id.startswith("prog-20010909-014640-") and record.torch_version == "2.13.0"
    forward, backward = record.graphs
    assert (forward.index, forward.calls, backward.calls) == (0, 5, 4)
    assert forward.kernels[0].keys == ("a", "b") and forward.kernels[0].per_run == 3
    assert forward.kernels[0].provenance.lines[0].code == "return x.sin()"
    assert forward.externs[0].library == "cuBLAS" and forward.externs[0].shapes == ((2, 3), (3, 4))
    assert record.notes == ("graph 0 (forward): its wrapper could not run",)
    write_program(tmp_path, record)
    assert list_programs(tmp_path) == [record.id] and read_program(tmp_path, "latest") == record
    assert not list((tmp_path / "programs").glob(".*"))  # the temp folder was renamed into place


def test_no_run_counts_is_a_note_and_a_program_of_hand_written_kernels_has_only_keys() -> None:
    abrupt = build_record(command="p", target="sm90", gpu="", exit_code=0, graphs=graph_records(GRAPHS),
                          calls_records=[], keys=[], keys_by_launch={}, notes=[])
    assert [g.calls for g in abrupt.graphs] == [0, 0] and "calls are 0" in abrupt.notes[0]
    plain = build_record(command="p", target="sm90", gpu="", exit_code=0, graphs=[], calls_records=[],
                         keys=["add_kernel-sm90-c0-p-0123"], keys_by_launch={}, notes=[])
    assert plain.graphs == () and plain.keys == ("add_kernel-sm90-c0-p-0123",) and plain.notes == ()


def test_a_graph_record_names_its_cpu_variant_calls_and_the_extern_groups(monkeypatch) -> None:
    """A training graph is traced by AOT autograd on the CPU: its SDPA is the CPU flash op (seen in a bf16 Llama
    training step's record), which the record must not pass off as the GPU's."""
    from irscope.compile import inductor_graphs
    from irscope.compile.inductor_provenance import Collected

    written: list[tuple[str, dict]] = []
    monkeypatch.setattr(inductor_graphs, "write_record", lambda kind, data: written.append((kind, data)))
    sdpa = "aten._scaled_dot_product_flash_attention_for_cpu.default"
    calls = [{"op": sdpa, "library": "ATen", "shapes": [[1, 4, 8, 16]] * 3, "dtype": "bfloat16"},
             {"op": "aten.mm.out", "library": "cuBLAS", "shapes": [[2, 3], [3, 4]], "dtype": "bfloat16"},
             {"op": "aten.mm.out", "library": "cuBLAS", "shapes": [[2, 3], [3, 4]], "dtype": "bfloat16"}]
    with inductor_graphs.made_graphs() as ids:
        inductor_graphs.write_graph("forward", Collected(), [("triton_poi_0", ["k"]), ("triton_poi_0", ["k"])], calls)
    ((kind, data),) = written
    assert kind == "graphs" and ids == [data["id"]] and data["kind"] == "forward"
    assert data["kernels"][0]["per_run"] == 2 and "define_kernel did not name it" in data["kernels"][0]["provenance"][
        "missing"]
    assert [(e["op"], e["per_run"]) for e in data["externs"]] == [(sdpa, 1), ("aten.mm.out", 2)]
    assert data["notes"] == [f"{sdpa}: AOT autograd traced the graph on the CPU, which chose the CPU variant of this "
                             "op; on a GPU the graph calls the GPU one (not modelled either way)"]
    assert inductor_graphs.library_of("aten.convolution.default") == "cuDNN"
    assert inductor_graphs.library_of("aten._scaled_dot_product_flash_attention.default") == "FlashAttention"
    assert inductor_graphs.library_of("aten._scaled_dot_product_cudnn_attention_backward.default") == "cuDNN"


def test_the_capture_summary_counts_one_graph_and_one_kernel_in_the_singular(tmp_path: Path) -> None:
    """Issue 43 item 9: `irscope capture` of a one-graph program said "1 graphs, 1 kernels"."""
    from irscope.cli.capture_cmd import program_summary

    one = build_record(command="p", target="sm90", gpu="", exit_code=0, graphs=graph_records(GRAPHS[:1]),
                       calls_records=[], keys=[], keys_by_launch={"k2": ["c"]}, notes=[])
    assert program_summary(one, str(tmp_path)) == (f"program {one.id}: 0 captures of 0 kernels; 1 kernel launched by "
                                                   f"1 torch.compile graph; irscope report {one.id} models them")
    two = build_record(command="p", target="sm90", gpu="", exit_code=0, graphs=graph_records(GRAPHS),
                       calls_records=[], keys=[], keys_by_launch={}, notes=[])
    assert "2 kernels launched by 2 torch.compile graphs;" in program_summary(two, str(tmp_path))
