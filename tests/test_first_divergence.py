"""`irscope compare` names the first divergence: the pass from which two compilations differ, or the lower stage
when every MLIR pass agrees, checked against the per-pass dumps and the machine code of real compiles."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from irscope.analysis.diff import DiffOptions, normalize
from irscope.analysis.divergence import align_passes
from irscope.analysis.resources import capture_resources
from irscope.parse.passes import PassSnapshot, section_body
from irscope.store.passdump import load_dump
from irscope.store.store import Store
from tests.conftest import invoke
from tests.test_tritons import OLD, _cli, old_triton  # noqa: F401  (the fixture: Triton OLD, installed once)


def _pass(index: int, name: str, cls: str = "") -> PassSnapshot:
    return PassSnapshot(index=index, kind="before", pass_class=cls or name, name=name, options="", anchor="",
                        symbol="", ir="mlir", stage="ttgir", section=index, input=index, output=index + 1)


def test_pipelines_align_by_name_with_passes_added_removed_and_renamed():
    a = [_pass(0, "canonicalize"), _pass(1, "tritongpu-coalesce"), _pass(2, "tritongpu-F32DotTC"),
         _pass(3, "tritongpu-pipeline", "TritonGPUPipeline"), _pass(4, "cse")]
    b = [_pass(0, "canonicalize"), _pass(1, "tritongpu-coalesce"), _pass(2, "triton-nvidia-gpu-assign-cga-layouts"),
         _pass(3, "tritongpu-pipeliner", "TritonGPUPipeline"), _pass(4, "cse")]
    pairs = [(s.a.name if s.a else None, s.b.name if s.b else None) for s in align_passes(a, b)]
    assert pairs == [("canonicalize", "canonicalize"), ("tritongpu-coalesce", "tritongpu-coalesce"),
                     ("tritongpu-F32DotTC", None), (None, "triton-nvidia-gpu-assign-cga-layouts"),
                     ("tritongpu-pipeline", "tritongpu-pipeliner"), ("cse", "cse")]


def _compare(store: Path, *args: str) -> dict:
    result = invoke("compare", *args, "--json", "--store", str(store))
    assert result.exit_code == 0, result.output
    return json.loads(result.output[result.output.index("{"):])


def _outputs_equal(dump_a, pass_a: int, dump_b, pass_b: int) -> bool:
    """Whether two passes' outputs are one IR once SSA numbers and locations are set aside (re-derived here)."""
    texts = [section_body(d.text(d.index.passes[i].output)) for d, i in ((dump_a, pass_a), (dump_b, pass_b))]
    return normalize(texts[0], "mlir", DiffOptions(normalize_ssa=True)) == \
        normalize(texts[1], "mlir", DiffOptions(normalize_ssa=True))


@pytest.mark.compile
def test_num_stages_diverges_at_the_pass_that_reads_it(shared_store):
    data = _compare(shared_store, "matmul", "--target", "sm90", "--set", "num_stages=2")
    first = data["first_divergence"]
    assert first["level"] == "pass" and first["stage"] == "ttgir"
    by_key = {c.manifest.key: c for c in Store(shared_store).captures()}
    dump_a, dump_b = load_dump(by_key[data["a"]["key"]].path), load_dump(by_key[data["b"]["key"]].path)
    assert dump_a is not None and dump_b is not None
    ia, ib = first["index_a"], first["index_b"]
    # The named pass is where the IR parts: its outputs differ, the outputs of the pass before it agree.
    assert dump_a.index.passes[ia].name == first["pass"] == dump_b.index.passes[ib].name
    assert not _outputs_equal(dump_a, ia, dump_b, ib) and _outputs_equal(dump_a, ia - 1, dump_b, ib - 1)
    assert "num-stages=3 -> num-stages=2" in " ".join(first["effect"])  # the option the pass was given
    moved = {m["fact"]: (m["a"], m["b"]) for m in first["moved"]}
    assert moved["loop1.stages"] == (3, 2)
    assert first["see"] == (f"irscope diff matmul --target sm90 --pass {ia} ; "
                            f"irscope diff matmul --target sm90 --set num_stages=2 --pass {ib}")
    for command in first["see_commands"]:  # the commands run as written and show that pass's change
        shown = invoke(*shlex.split(command)[1:], "--store", str(shared_store))
        assert shown.exit_code == 0 and first["pass"] in shown.output, shown.output
    # Once the pass tables are cached (irscope passes), the passes they say changed nothing are not read again:
    # the answer is the same.
    from irscope.request.divergence import _unchanged

    for extra in ([], ["--set", "num_stages=2"]):
        assert invoke("passes", "matmul", "--target", "sm90", *extra, "--store", str(shared_store)).exit_code == 0
    assert len(_unchanged(dump_a)) > 10 and len(_unchanged(dump_b)) > 10
    again = _compare(shared_store, "matmul", "--target", "sm90", "--set", "num_stages=2")["first_divergence"]
    assert again == first


@pytest.mark.compile
def test_a_ptxas_level_option_is_reported_at_the_lower_stage_with_spills_per_line(shared_store):
    """maxnreg reaches the MLIR only as an attribute: the code agrees through every pass, the LLVM IR is where it
    first differs, and the spills ptxas adds are listed on the kernel lines they belong to."""
    data = _compare(shared_store, "matmul", "--target", "sm90", "--set", "maxnreg=160")
    first = data["first_divergence"]
    assert first["level"] == "stage" and first["stage"] == "llir" and first["pass"] is None
    assert any('"nvvm.maxnreg"="160"' in e for e in first["effect"])
    assert any("ttg.maxnreg = 160" in e for e in first["effect"])
    # LLVM's own passes (the dump with LLVM_IR_ENABLE_DUMP) were searched: the attribute is there from the start.
    assert "in llir, the IR the LLVM passes of llir start from (translated from the MLIR) differs before any pass" in \
        first["note"]
    by_key = {c.manifest.key: c for c in Store(shared_store).captures()}
    a, b = capture_resources(by_key[data["a"]["key"]]), capture_resources(by_key[data["b"]["key"]])
    moved = {m["fact"]: (m["a"], m["b"]) for m in first["moved"]}
    assert moved["registers"] == (a.registers, b.registers) and b.registers <= 160 < a.registers
    assert moved["spills"] == (0, b.spill_stores + b.spill_loads) and b.spill_stores > 0
    sass = [d for d in first["lines"] if d["stage"] == "sass"]
    assert sass and all(d["line"] is not None for d in sass)
    spilled = sum(int(c.split(" -> ")[1]) for d in sass for c in d["changes"] if c.startswith("spill stores"))
    assert 0 < spilled <= b.spill_stores  # the lines shown carry ptxas' spill stores (the rest are on lines not shown)
    text = invoke("compare", "matmul", "--target", "sm90", "--set", "maxnreg=160", "--store", str(shared_store))
    assert "First divergence: stage llir" in text.output and "spill stores 0 ->" in text.output
    assert first["see"] == "irscope compare matmul --target sm90 --set maxnreg=160 --stage llir --facts-only"


@pytest.mark.compile
def test_facts_only_is_the_plain_compare(shared_store):
    plain = _compare(shared_store, "vector_add", "--target", "sm90", "--set", "num_warps=8", "--facts-only")
    assert "first_divergence" not in plain and plain["changed"]


TINY_DOT = str(Path(__file__).parent / "data" / "kernels" / "tiny_dot.py") + ":tiny_dot"
TINY_SIGNATURE = "*fp16:16, *fp16:16, *fp32:16, 16"


@pytest.mark.compile
def test_the_see_commands_of_a_file_function_kernel_carry_its_launch_and_run_as_printed(shared_store):
    """Issue 43 item 2: the hints named FILE:FUNCTION without its launch and failed ("describe the launch
    with exactly one of --signature or --args")."""
    from irscope.analysis.divergence import Divergence
    from irscope.cli.compare_cmd import Side, see_commands

    base = ("--target", "sm80", "--signature", TINY_SIGNATURE)
    data = _compare(shared_store, TINY_DOT, *base, "--set", "num_warps=8")
    first = data["first_divergence"]
    assert first["level"] == "pass" and len(first["see_commands"]) == 2
    for command in first["see_commands"]:
        assert f"--signature '{TINY_SIGNATURE}'" in command, command
        shown = invoke(*shlex.split(command)[1:], "--store", str(shared_store))
        assert shown.exit_code == 0 and first["pass"] in shown.output, shown.output
    # A divergence below the MLIR passes hints a compare of that stage: it runs as printed too.
    launch = ("--signature", TINY_SIGNATURE)
    sides = (Side(TINY_DOT, "sm80", 0, None, (), launch), Side(TINY_DOT, "sm80", 0, None, ("num_warps=8",), launch))
    [command] = see_commands(Divergence(level="stage", stage="llir"), *sides)
    shown = invoke(*shlex.split(command)[1:], "--store", str(shared_store))
    assert shown.exit_code == 0 and "--- llir of A" in shown.output, shown.output


# ---- two Tritons: the older one installed by `irscope triton install`, as tests/test_tritons.py does --------------


def _cli_json(home: Path, *args: str) -> dict:
    done = _cli(home, *args, "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.compile
def test_two_tritons_diverge_at_a_named_pass_and_equal_ttgir_goes_down(old_triton):  # noqa: F811
    data = _cli_json(old_triton, "compare", "matmul", "--target", "sm90", "--triton", OLD, "--vs-triton", "current")
    first = data["first_divergence"]
    assert first["level"] == "pass" and first["pass"], first
    by_key = {c.manifest.key: c for c in Store(old_triton).captures()}
    dump_a, dump_b = load_dump(by_key[data["a"]["key"]].path), load_dump(by_key[data["b"]["key"]].path)
    assert dump_a is not None and dump_b is not None
    assert dump_a.index.passes[first["index_a"]].name == first["pass"] == dump_b.index.passes[first["index_b"]].name
    assert not _outputs_equal(dump_a, first["index_a"], dump_b, first["index_b"])
    assert all(_cli(old_triton, *shlex.split(c)[1:]).returncode == 0 for c in first["see_commands"])
    # vector_add: the two Tritons' TTGIR code agrees; the report says so and goes on to the LLVM level.
    add = _cli_json(old_triton, "compare", "vector_add", "--target", "sm90", "--triton", OLD, "--vs-triton", "current")
    low = add["first_divergence"]
    assert low["stage"] in ("llir", "ptx", "sass"), low
    if low["level"] == "pass":
        assert "TTGIR code agree" in low["note"]
    assert low["lines"] and all(d["stage"] in ("ptx", "sass") for d in low["lines"])


@pytest.mark.compile
def test_across_targets_the_machine_code_is_paired_by_kernel_line_and_ranked_by_perf(shared_store):
    data = _compare(shared_store, "matmul", "--target", "sm90", "--vs-target", "gfx942")
    targets = data["targets"]
    assert targets["ranked"].startswith("ranked by perf's estimate")
    fa, fb = data["a"]["facts"], data["b"]["facts"]
    # Every tensor-core instruction of each side's listing is on a kernel line, and the lines carry them all.
    for side, stage in (("a", "ptx"), ("b", "amdgcn")):
        listed = sum(n for t in targets["lines"] if t[side] for n in t[side]["mma"].values())
        assert listed == fa[f"instructions.{stage}.mma"] if side == "a" else listed == fb[f"instructions.{stage}.mma"]
    dot = next(t for t in targets["lines"] if "tl.dot" in t["source"])
    assert list(dot["a"]["mma"]) == [f"wgmma {fa['mma.shape'][0]}"]
    assert list(dot["b"]["mma"]) == [f"mfma {fb['mma.shape'][0]}"]
    assert dot["a"]["dynamic"] > dot["a"]["instructions"]  # inside the K loop: perf's trips weight it
    loads = [t for t in targets["lines"] if "tl.load" in t["source"]]
    assert loads and all(t["b"]["buffer_ops"] > 0 and t["a"]["buffer_ops"] == 0 for t in loads)
    assert [t["cost"] for t in targets["lines"]] == sorted((t["cost"] for t in targets["lines"]), reverse=True)
    whole = " ".join(targets["whole"])
    assert "pipeliner: tritongpu-pipeline -> tritonamdgpu-" in whole and "occupancy limited by" in whole
    assert "[" not in whole and "'" not in whole, whole  # issue 43: `limited by: ['registers'] -> [...]`


@pytest.mark.compile
def test_a_pass_only_one_pipeline_runs_is_named_when_it_changed_the_ir(captures, tmp_path):
    """Side B is side A's real dump with one pass more (before triton-licm) that renames the kernel: the alignment
    passes over it on A, and the divergence is that pass, on B alone."""
    import gzip

    from irscope.analysis.divergence import pass_divergence
    from irscope.request.passdump import get_pass_dump
    from irscope.store.passdump import scan_dump

    dump = get_pass_dump(captures.request("matmul", "sm90"), captures("matmul", "sm90"))
    text = gzip.decompress(dump.path.read_bytes()).decode()
    head = "// -----// IR Dump Before TritonLoopInvariantCodeMotion: triton-licm"
    at = text.index(head)
    ir = text[text.index("\n", at) + 1:text.index("\n// -----//", at) + 1]
    extra = "// -----// IR Dump Before IrscopeExtra: irscope-extra ('builtin.module' operation) //----- //\n"
    rest = text[at:]
    assert "@matmul_kernel(" in ir and "@matmul_kernel(" in rest
    side_b = text[:at] + extra + ir + rest.replace("@matmul_kernel(", "@matmul_kernel_b(")  # to the end
    (tmp_path / "a.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "b.gz").write_bytes(gzip.compress(side_b.encode()))
    a, b = scan_dump(tmp_path / "a.gz"), scan_dump(tmp_path / "b.gz")
    found = pass_divergence(a, b)
    extra_pass = next(p for p in b.index.passes if p.name == "irscope-extra")
    assert (found.level, found.pass_name, found.index_a, found.index_b) == ("pass", "irscope-extra", None,
                                                                            extra_pass.index)
    assert "only B runs this pass" in found.note and "A does not run this pass" in found.effect
    assert pass_divergence(a, scan_dump(tmp_path / "a.gz")).level == "none"  # a dump against itself: none


@pytest.mark.compile
def test_a_captures_missing_pass_dump_is_compiled_by_its_own_triton(old_triton):  # noqa: F811
    """compare KEY_A KEY_B with no --triton: the dump a capture lacks is printed by the Triton that made the capture,
    never by this interpreter's (which would store another compiler's passes as the capture's)."""
    data = _cli_json(old_triton, "compare", "vector_add", "--target", "sm90", "--triton", OLD, "--vs-triton", "current")
    old = {c.manifest.key: c for c in Store(old_triton).captures()}[data["a"]["key"]]
    for stale in old.path.glob("passes.*"):
        stale.unlink()
    again = _cli_json(old_triton, "compare", data["a"]["key"], data["b"]["key"])
    dump = load_dump(old.path)
    assert dump is not None and dump.info.triton_version == OLD
    keys = ("level", "stage", "pass", "index_a", "index_b")
    assert {k: again["first_divergence"][k] for k in keys} == {k: data["first_divergence"][k] for k in keys}


# ---- backend or LLVM IR: each side's LLVM IR through the other side's backend -----------------------------------

def _swapped(ir_side, name: str):
    from irscope.store.manifest import Manifest
    from irscope.store.store import Capture

    folder = ir_side.path / "derived" / "swap" / name
    return Capture(folder, Manifest.from_json(json.loads((folder / "manifest.json").read_text())))


@pytest.mark.compile
@pytest.mark.parametrize(("kernel", "target", "lower"), [("matmul", "sm90", "ptx"), ("softmax", "gfx942", "amdgcn")])
def test_backend_swap_puts_each_sides_llvm_ir_through_the_other_sides_backend(old_triton, kernel, target,  # noqa: F811
                                                                             lower):
    from irscope.analysis.facts import capture_facts

    data = _cli_json(old_triton, "compare", kernel, "--target", target, "--triton", OLD, "--vs-triton", "current")
    swap = data["backend_swap"]
    # Each side's own LLVM IR through its own backend gives back its own facts (3.6 on NVIDIA only with LLVM's
    # process-wide nvptx-short-ptr, which its make_llir sets): without that, a swap's values would mean nothing.
    assert swap["controls"] == []
    by_key = {c.manifest.key: c for c in Store(old_triton).captures()}
    a, b = by_key[data["a"]["key"]], by_key[data["b"]["key"]]
    forward = swap["swaps"][0]
    assert (forward["ir"], forward["backend"], forward["triton_ir"], forward["error"]) == ("A", "B", OLD, "")
    swapped = _swapped(a, b.manifest.key)
    assert swapped.manifest.key == forward["key"]
    assert swapped.read("llir") == a.read("llir")  # A's LLVM IR, as A's Triton wrote it
    assert swapped.read(lower) != a.read(lower)  # the machine code below it is B's LLVM's, not A's
    values = capture_facts(swapped).values
    assert swap["facts"] and all(row["a_ir_b_backend"] == values.get(row["fact"]) for row in swap["facts"])
    for row in swap["facts"]:  # what a row says it follows is what the swapped value is
        if row["follows"] == "ir":
            assert abs(row["a_ir_b_backend"] - row["a"]) <= 0.1 * abs(row["b"] - row["a"]), row
        elif row["follows"] == "backend":
            assert abs(row["a_ir_b_backend"] - row["b"]) <= 0.1 * abs(row["b"] - row["a"]), row
    backward = swap["swaps"][1]  # B's IR through A's (older) backend: an LLVM cannot always read a newer one's IR
    assert (backward["key"] is None) == bool(backward["error"])
    if backward["error"]:
        assert backward["error"].startswith(f"Triton {OLD}'s backend did not take Triton ")
    else:
        assert _swapped(b, a.manifest.key).read("llir") == b.read("llir")
    # Kept beside A: a second compare reads it instead of compiling; --no-swap leaves it out.
    stamp = (swapped.path / "swap.json").stat().st_mtime_ns
    again = _cli_json(old_triton, "compare", data["a"]["key"], data["b"]["key"])
    assert again["backend_swap"] == swap and (swapped.path / "swap.json").stat().st_mtime_ns == stamp
    assert "backend_swap" not in _cli_json(old_triton, "compare", data["a"]["key"], data["b"]["key"], "--no-swap")


@pytest.mark.compile
def test_softmax_on_gfx942_keeps_its_registers_with_its_own_llvm_ir(old_triton):  # noqa: F811
    """Triton 3.9 gives the tutorial softmax 64 VGPRs on gfx942 where 3.6 gives 55; 3.6's LLVM IR through 3.9's
    backend still gets 3.6's count, so the change is in what Triton lowered (its first divergence is a TTGIR pass)."""
    data = _cli_json(old_triton, "compare", "softmax", "--target", "gfx942", "--triton", OLD, "--vs-triton",
                     "current")
    rows = {r["fact"]: r for r in data["backend_swap"]["facts"]}
    registers = rows["registers"]
    assert registers["a"] != registers["b"] and registers["a_ir_b_backend"] == registers["a"]
    assert registers["follows"] == "ir"
    assert data["first_divergence"]["stage"] in ("ttir", "ttgir")


def test_the_whole_kernel_lines_of_two_targets_write_lists_as_words():
    """Issue 43 item 9: `occupancy limited by: ['registers'] -> ['shared memory']` printed Python's list syntax."""
    from irscope.request.target_compare import _whole

    lines = _whole({"occupancy.limited_by": ["registers"], "shared_bytes": 0},
                   {"occupancy.limited_by": ["registers", "shared memory"], "shared_bytes": 65536}, None)
    assert lines == ["shared memory (LDS on AMD), bytes: 0 -> 65536",
                     "occupancy limited by: registers -> registers, shared memory"]
