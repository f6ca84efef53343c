"""The real thing: what Triton's own JIT and TritonParse wrote on an H100, opened, against irscope's own captures.

tests/data/artifacts/h100-triton-3.6.0-* were made on one H100 with Triton 3.6.0 (README.md there):
``jit-cache.tar.gz``, the ``TRITON_CACHE_DIR`` Triton's JIT wrote launching vector_add, softmax and matmul at
config 0; ``jit-dump.tar.gz``, the ``TRITON_DUMP_DIR`` of the same launches; ``own.tar.gz``, irscope's own offline
captures of the same kernels for sm90 on that machine (``irscope export``). The same Triton compiled both, so the
JIT's compile must be irscope's own, hash for hash, and every command must say of the opened capture what it says
of irscope's own. ``train_step.tritonparse.ndjson.gz`` is TritonParse 0.6.0's trace of a torch.compile training
step on the same H100; its kernels join by name to the torch.profiler trace of that program
(``train_step.trace.json.gz``). Triton 3.9 is installed here: nothing of this needs the Triton that made them.
"""

from __future__ import annotations

import gzip
import json
import re
import tarfile
from collections import Counter
from pathlib import Path

import pytest

from irscope.analysis.facts import capture_facts
from irscope.parse.profiles import read_profile
from irscope.request.launch_cache import recorded_launches
from irscope.store.archive import open_archive
from irscope.store.ingest import open_artifacts
from irscope.store.store import Store
from irscope.toolchain.stages import read_stage
from tests.conftest import invoke

DATA = Path(__file__).parent / "data" / "artifacts"
PREFIX = "h100-triton-3.6.0"
KERNELS = {"add_kernel": "vector_add", "softmax_kernel": "softmax", "matmul_kernel": "matmul"}
TRACE = DATA / "train_step.tritonparse.ndjson.gz"
STAGES = ("ttir", "ttgir", "llir", "ptx", "sass")
# Example: "loop 1: line 75: for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):   (TTGIR lines 126-162)"
_SOURCE_LINE = re.compile(r"(loop \d+: line \d+): [^\n]*?(   \(TTGIR)")
# Example: "Launch: grid (97, 1, 1) = 97 CTAs of 4 warps (vector_add's grid() for 132 SMs), 16 per SM (..."
_GRID_SOURCE = re.compile(r"(CTAs of \d+ warps) \((?:[^()]|\(\))*\)")


class Opened:
    """One store holding the JIT's cache and dump and irscope's own captures, by kernel function name."""

    def __init__(self, root: Path) -> None:
        self.store = root / "store"
        store = Store(self.store)
        self.reports = {}
        for kind in ("cache", "dump"):
            with tarfile.open(DATA / f"{PREFIX}-jit-{kind}.tar.gz") as tar:
                tar.extractall(root / kind, filter="data")
            self.reports[kind] = open_artifacts(root / kind, store, 1 << 30, 100)
        self.jit = {c.manifest.kernel: c for c in self.reports["cache"].added}
        self.dump = {c.manifest.kernel: c for c in self.reports["dump"].added}
        own = open_archive(DATA / f"{PREFIX}-own.tar.gz", store)
        assert not own.unreadable and not own.already
        self.own = {c.manifest.function: c for c in own.added}


@pytest.fixture(scope="module")
def opened(tmp_path_factory: pytest.TempPathFactory) -> Opened:
    return Opened(tmp_path_factory.mktemp("h100"))


def test_the_jits_cache_is_irscopes_own_compile(opened: Opened) -> None:
    report = opened.reports["cache"]
    # the launcher's and cuda_utils' builds were left out of the archive; nothing else is passed over or refused
    assert report.kind == "cache" and not report.refused and report.passed_over == 0
    assert set(opened.jit) == set(opened.own) == set(KERNELS)
    for name, jit in opened.jit.items():
        mine, own = jit.manifest, opened.own[name].manifest
        assert (mine.origin, own.origin, mine.triton_version, own.triton_version) == ("cache", "bundled", "3.6.0",
                                                                                      "3.6.0")
        assert (mine.target, mine.arch, mine.warp_size) == (own.target, own.arch, own.warp_size) == ("sm90", 90, 32)
        # the same specialization, so Triton's own hash of the compile is the same: 16-byte divisibility on every
        # pointer and integer argument, the ==1 strides folded into constants, the same warps, stages and CTAs
        assert mine.metadata["hash"] == own.metadata["hash"]
        assert mine.signature == {k: v for k, v in own.signature.items() if v != "constexpr"}
        assert mine.attrs == {k: v for k, v in own.attrs.items() if v and k in mine.signature}
        assert {k: mine.config[k] for k in ("num_warps", "num_stages", "num_ctas")} == \
            {k: own.metadata[k] for k in ("num_warps", "num_stages", "num_ctas")}
        assert mine.metadata["shared"] == own.metadata["shared"]
        for stage in STAGES:  # the SASS of each made here from its cubin
            assert read_stage(jit, stage) == read_stage(opened.own[name], stage), (name, stage)
    matmul = opened.jit["matmul_kernel"].manifest
    assert "stride_am" in matmul.signature and "stride_ak" not in matmul.signature
    assert matmul.attrs["stride_am"] == [["tt.divisibility", 16]]


def test_the_jits_cache_gives_every_fact_of_irscopes_own(opened: Opened) -> None:
    for name, jit in opened.jit.items():
        theirs, ours = capture_facts(opened.own[name]), capture_facts(jit)
        assert not theirs.unread and not ours.unread, (theirs.unread, ours.unread)
        # all but the compile's wall time, which a cache does not say
        assert "compile_seconds" not in ours.values and theirs.values.pop("compile_seconds") > 0
        assert ours.values == theirs.values, name
    # what the H100's compile decided, read from both alike
    matmul = capture_facts(opened.jit["matmul_kernel"]).values
    assert matmul["mma.shape"] == ["m64n256k16"] and matmul["loop1.stages"] == 3 and matmul["loop1.async_copies"] == 2
    assert matmul["shared_bytes"] == 147456 + 1024 and matmul["spills"] == 0
    softmax = capture_facts(opened.jit["softmax_kernel"]).values
    assert softmax["occupancy.ctas_per_sm"] == 4 and softmax["occupancy.limited_by"] == ["shared memory"]


def _same(args: list[str], jit: str, own: str, store: Path) -> str:
    """``irscope ARGS`` of the opened capture and of irscope's own: the opened one's output (asserted equal after
    the line that names the kernel and key)."""
    mine, theirs = invoke(args[0], jit, *args[1:], store=store), invoke(args[0], own, *args[1:], store=store)
    assert mine.exit_code == 0 and theirs.exit_code == 0, (args, mine.output[-1500:], theirs.output[-1500:])
    # the artifacts keep no copy of the kernel's Python: the loop's source line is irscope's own capture's alone
    expected = _SOURCE_LINE.sub(r"\1:\2", theirs.output) if args[0] == "loops" else theirs.output
    assert mine.output.split("\n", 1)[1:] == expected.split("\n", 1)[1:], (args, mine.output[-2000:])
    return mine.output


def test_every_command_reads_the_jits_cache_as_irscopes_own(opened: Opened, tmp_path: Path) -> None:
    """show (each stage), layouts, loops, resources, verify, perf, diff, compare and html: the opened cache's
    capture against irscope's own capture of the same compile, on the same store."""
    store = opened.store
    for name, jit in opened.jit.items():
        key, own = jit.manifest.key, opened.own[name].manifest.key
        for stage in STAGES:
            _same(["show", "--stage", stage], key, own, store)
        layouts = _same(["layouts"], key, own, store)
        loops = _same(["loops"], key, own, store)
        _same(["resources"], key, own, store)
        verify = _same(["verify"], key, own, store)
        assert " 0 disagree" in verify and " 0 unchecked" in verify, verify
        for stage in ("ttir", "ttgir", "llir", "ptx", "sass"):
            same = invoke("diff", key, "--vs", own, "--stage", stage, store=store)
            assert same.exit_code == 0 and "are identical" in same.output, (stage, same.output[-1000:])
        facts = invoke("compare", key, own, "--facts-only", store=store)
        assert facts.exit_code == 0 and "no fact differs" in facts.output, facts.output
        if name == "matmul_kernel":
            assert "nvidia_mma v3 (Hopper wgmma), instrShape 16x256x16" in layouts and "pipelined" in loops
    # perf: a cache records no launch, so the bundled grid is given; a kernel with no loop is predicted alike
    # but for the tensors' sizes (not in a cache: the bytes the CTAs request, not capped at the tensors'), and
    # softmax's loop bound is an argument a cache does not record
    add, own_add = opened.jit["add_kernel"].manifest.key, opened.own["add_kernel"].manifest.key
    mine, theirs = invoke("perf", add, "--grid", "97", store=store), invoke("perf", own_add, store=store)
    assert mine.exit_code == 0 and theirs.exit_code == 0
    verdict = [line for line in theirs.output.splitlines() if not line.startswith("Work:")]
    assert [line for line in mine.output.splitlines() if not line.startswith("Work:")] == \
        [_GRID_SOURCE.sub(r"\1 (--grid)", line) for line in verdict]
    assert "Verdict: latency-bound, 3.1 us predicted on the NVIDIA H100 80GB HBM3" in mine.output
    soft, own_soft = opened.jit["softmax_kernel"].manifest.key, opened.own["softmax_kernel"].manifest.key
    mine, theirs = invoke("perf", soft, "--grid", "264", store=store), invoke("perf", own_soft, store=store)
    launch = [line for line in theirs.output.splitlines() if line.startswith("Launch:")]
    assert [line for line in mine.output.splitlines() if line.startswith("Launch:")] == \
        [_GRID_SOURCE.sub(r"\1 (--grid)", line) for line in launch]
    assert "4 per SM (50.0% occupancy, limited by shared memory)" in launch[0]
    assert "the loop at line 36 runs as many times as the argument n_rows, not recorded" in mine.output
    # the page of the opened capture: its stages, layouts and loops
    html = tmp_path / "softmax.html"
    page = invoke("html", soft, "-o", str(html), "--no-passes", store=store)
    text = html.read_text(encoding="utf-8")
    assert page.exit_code == 0 and "softmax_kernel" in text and "#ttg.blocked" in text and "loop 1" in text


def test_the_jits_dump_folder_is_the_same_compile(opened: Opened) -> None:
    """A dump folder keeps the stages and Triton's own SASS, not <name>.json: no hash, no Triton version."""
    report = opened.reports["dump"]
    assert report.kind == "dump" and not report.refused and set(opened.dump) == set(KERNELS)
    for name, dump in opened.dump.items():
        own = opened.own[name]
        assert dump.manifest.origin == "dump" and dump.manifest.target == "sm90"
        assert dump.manifest.config["num_warps"] == own.manifest.metadata["num_warps"]
        for stage in ("ttir", "ttgir", "llir", "ptx"):
            assert dump.read(stage) == own.read(stage), (name, stage)
        assert (Path(dump.path) / dump.manifest.files["cubin"]).read_bytes() == \
            (Path(own.path) / own.manifest.files["cubin"]).read_bytes()
        # Triton's nvdisasm listing (control codes first): the same instructions as the SASS made here
        theirs = [line.split("\t", 1)[1].strip() for line in dump.read("sass").splitlines() if "\t" in line]
        assert theirs and all(text.rstrip(";").split()[0] in read_stage(own, "sass") for text in theirs[:50])
        # Triton's shared memory is in <name>.json alone (allocated after the TTGIR is written; the cubin's is the
        # driver's 1 KB): not known, so neither is the occupancy, and the facts say so rather than count 0 bytes
        # (softmax's 48 KiB would have made 6 CTAs per SM, limited by registers, of the H100's real 4)
        mine, ours = capture_facts(dump), capture_facts(own)
        assert mine.values.pop("shared_bytes") is None and ours.values.pop("shared_bytes") >= 1024
        occupancy = {k for k in ours.values if k.startswith("occupancy.")}
        assert occupancy and not occupancy & set(mine.values)
        ours.values.pop("compile_seconds")
        assert mine.values == {k: v for k, v in ours.values.items() if k not in occupancy}, name
        assert mine.unread == ("Triton's shared memory per CTA is not recorded (a kernel dump folder keeps no "
                               "<name>.json, and the TTGIR is written before it is allocated): the occupancy is not "
                               "computed",)
    resources = invoke("resources", opened.dump["softmax_kernel"].manifest.key, store=opened.store)
    assert resources.exit_code == 0 and "shared memory  unknown (Triton's buffers not recorded)" in resources.output
    assert "occupancy on" not in resources.output


def _trace_events() -> list[dict[str, object]]:
    with gzip.open(TRACE, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def test_a_real_tritonparse_trace_opens_a_capture_per_compile(tmp_path: Path) -> None:
    """TritonParse 0.6.0 on an H100, a torch.compile training step: every compile a capture with its launches."""
    events = _trace_events()
    compiles = [e for e in events if e["event_type"] == "compilation"]
    launched = Counter(e["compilation_metadata"]["hash"] for e in events  # type: ignore[index]
                       if e["event_type"] == "launch")
    assert (len(compiles), sum(launched.values())) == (23, 948)
    report = open_artifacts(TRACE, Store(tmp_path / "store"), 1 << 30, 100)
    assert report.kind == "tritonparse" and not report.refused and report.passed_over == 0
    by_hash = {c.manifest.metadata["hash"]: c for c in report.added}
    assert len(by_hash) == 23 and set(by_hash) == {e["payload"]["metadata"]["hash"]  # type: ignore[index]
                                                     for e in compiles}
    assert len({c.manifest.kernel for c in report.added}) == 8
    for digest, capture in by_hash.items():
        m = capture.manifest
        assert (m.origin, m.triton_version, m.target) == ("tritonparse", "3.6.0", "sm90")
        assert {"ttir", "ttgir", "llir", "ptx"} <= set(m.files) and "cubin" not in m.files
        # every compile was launched (autotuning's benchmark runs, then the program's own): at most 64 kept
        shapes = recorded_launches(Path(capture.path), m.files)
        assert len(shapes) == min(launched[digest], 64) > 0, (m.key, launched[digest])
    # the program's embedding + layer norm: its 32 rows of 64, its integer arguments as launched
    norm = [c for c in report.added if c.manifest.kernel == "triton_per_fused_embedding_native_layer_norm_0"]
    grids = {tuple(s.grid) for c in norm for s in recorded_launches(Path(c.path), c.manifest.files)}
    assert (32, 1, 1) in grids


def test_commands_read_the_traces_captures_and_join_the_profile(tmp_path: Path) -> None:
    store = tmp_path / "store"
    report = open_artifacts(TRACE, Store(store), 1 << 30, 100)
    profile = read_profile(DATA / "train_step.trace.json.gz")
    measured = {k.name for k in profile.kernels}
    traced = {c.manifest.kernel for c in report.added}
    # every kernel TritonParse traced ran in the torch.profiler trace of the same program, by the same name
    assert traced <= measured, traced - measured
    for capture in report.added:
        key = capture.manifest.key
        for args in (["show", "--stage", "ttgir"], ["show", "--stage", "ptx"], ["layouts"], ["loops"], ["verify"]):
            done = invoke(args[0], key, *args[1:], store=store)
            assert done.exit_code == 0, (key, args, done.output[-1500:])
            if args[0] == "verify":
                assert " 0 disagree" in done.output, done.output
    # one kernel through the rest: resources (no cubin in a trace: ptxas on its PTX), perf on its recorded launch,
    # joined to the profile by name and grid, and the page
    norm = next(c for c in report.added if c.manifest.kernel == "triton_per_fused_add_native_layer_norm_view_7")
    key = norm.manifest.key
    resources = invoke("resources", key, store=store)
    assert resources.exit_code == 0 and "registers" in resources.output and "has no cubin file" in resources.output
    perf = invoke("perf", key, "--measured", str(DATA / "train_step.trace.json.gz"), store=store)
    assert perf.exit_code == 0, perf.output
    assert "(the program's grid 32x1x1, the same in all 32 launches)" in perf.output
    row = next(line for line in perf.output.splitlines() if line.strip().startswith("-  triton_per_fused_add"))
    assert row.split()[3] == "2" and "joined by name and grid" in perf.output  # the two steps' forward launches
    html = tmp_path / "norm.html"
    page = invoke("html", key, "-o", str(html), "--no-passes", store=store)
    assert page.exit_code == 0 and "triton_per_fused_add_native_layer_norm_view_7" in html.read_text("utf-8")
    # two kernels of the trace against each other: another autotuning config of the same kernel
    other = next(c for c in report.added if c.manifest.kernel == norm.manifest.kernel and c.manifest.key != key)
    diff = invoke("diff", key, "--vs", other.manifest.key, "--stage", "ttgir", store=store)
    assert diff.exit_code == 0 and diff.output.startswith("--- ttgir"), diff.output[:500]
