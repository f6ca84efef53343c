"""Triton's own artifacts opened as captures: a cache folder, a kernel dump folder, a TritonParse trace.

Each is written here by the installed Triton (and TritonParse's structured logging), compiling the bundled kernels
with the exact specialization irscope's own capture uses; the opened captures must give the facts irscope's own
captures give (layouts, loops, resources, instructions), and hostile folders and traces are refused in one line.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from irscope.analysis.facts import capture_facts
from irscope.compile.specialize import kernel_job
from irscope.model.kernels import get_kernel
from irscope.model.targets import TARGETS
from irscope.parse.ttir_signature import kernel_signature
from irscope.store.ingest import open_artifacts
from irscope.store.store import Store
from tests.conftest import invoke

pytestmark = pytest.mark.compile

KERNELS = (("vector_add", "sm90"), ("matmul", "sm90"), ("softmax", "gfx942"))
_TP_SCRIPT = """
import os, sys
import tritonparse.structured_logging as tp
tp.init(sys.argv[1])
from tests.test_ingest import compile_into
compile_into(sys.argv[2:], launches=True)
"""


def compile_into(pairs: list[str], launches: bool = False) -> None:
    """Compile each ``kernel:target`` with irscope's specialization through ``triton.compile`` (which writes
    TRITON_CACHE_DIR and, with TRITON_KERNEL_DUMP, TRITON_DUMP_DIR): what the JIT writes for the same launch.

    With ``launches`` (TritonParse's logging on) each compile's launch at irscope's sizes is traced too, as
    TritonParse's launch hook writes it (its own argument extraction, on CPU tensors: no GPU runs it here)."""
    import triton

    for pair in pairs:
        name, target = pair.split(":")
        job = kernel_job(get_kernel(name), TARGETS[target], 0, get_kernel(name).sizes)
        compiled = triton.compile(job.source(), target=job.gpu_target, options=job.options)
        if launches:
            trace_launch(name, target, compiled)


def trace_launch(name: str, target: str, compiled: Any) -> None:
    """The launch of ``compiled`` at irscope's sizes and config 0, written as TritonParse's launch hook writes it."""
    import torch
    import tritonparse.structured_logging as tp

    from irscope.compile.kernel_module import load_kernel
    from irscope.compile.specialize import takes_sm_count
    from irscope.model.gpus import compiled_sm_count

    info = get_kernel(name)
    module, sizes, config = load_kernel(info), dict(info.sizes), dict(info.config(TARGETS[target].backend, 0))
    tensors = module.make_tensors(sizes, getattr(torch, info.dtype),
                                  lambda shape, dtype, role: torch.empty(shape, dtype=dtype))
    extra = [compiled_sm_count(target)] if takes_sm_count(module.kernel_args) else []
    args, kwargs = module.kernel_args(tensors, sizes, config, *extra)
    names = list(getattr(module, info.function).arg_names)
    bound = {**dict(zip(names[:len(args)], args, strict=True)), **{k: v for k, v in kwargs.items() if k in names}}
    grid = list(module.grid(sizes, config, *extra))
    event = {"name": compiled.metadata.name, "function": None, "stream": 0, "grid": grid,
             "compilation_metadata": compiled.metadata._asdict(), "extracted_args": tp.extract_arg_info(bound),
             "extracted_inductor_args": {}}
    tp.trace_structured_triton("launch", metadata_fn=lambda: tp.convert(event))


def _run(args: list[str], env: dict[str, str]) -> None:
    done = subprocess.run([sys.executable, *args], env={**os.environ, "TRITON_DEFAULT_FP_FUSION": "1", **env},
                          capture_output=True, text=True, cwd=Path(__file__).parent.parent, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A Triton cache and a dump folder of the three kernels, and a TritonParse trace of them (two processes)."""
    root = tmp_path_factory.mktemp("triton-artifacts")
    pairs = [f"{k}:{t}" for k, t in KERNELS]
    code = "import sys; from tests.test_ingest import compile_into; compile_into(sys.argv[1:])"
    _run(["-c", code, *pairs], {"TRITON_CACHE_DIR": str(root / "cache"), "TRITON_KERNEL_DUMP": "1",
                                "TRITON_DUMP_DIR": str(root / "dump"), "TRITON_ALWAYS_COMPILE": "1"})
    _run(["-c", _TP_SCRIPT, str(root / "trace"), *pairs], {"TRITON_CACHE_DIR": str(root / "tp-cache")})
    traces = sorted((root / "trace").glob("*.ndjson"))
    assert len(traces) == 1
    return {"cache": root / "cache", "dump": root / "dump", "trace": traces[0]}


@pytest.mark.parametrize("kind", ["cache", "trace"])
def test_opened_captures_give_the_facts_of_irscopes_own(artifacts: dict[str, Path], captures: Any, kind: str,
                                                        tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    report = open_artifacts(artifacts[kind], store, 1 << 30, 1000)
    assert not report.refused and report.kind == ("cache" if kind == "cache" else "tritonparse")
    opened = {(c.manifest.kernel, c.manifest.target): c for c in report.added}
    for name, target in KERNELS:
        own = captures(name, target)
        mine = opened[(get_kernel(name).function, target)]
        assert mine.manifest.origin == report.kind and mine.manifest.triton_version == own.manifest.triton_version
        # the same compile: Triton's hash is irscope's own compile's, the TTGIR the same text
        assert mine.read("ttgir") == own.read("ttgir")
        assert {k: mine.manifest.config[k] for k in ("num_warps", "num_stages")} == \
            {k: own.manifest.metadata[k] for k in ("num_warps", "num_stages")}
        # TritonParse keeps no cubin: on NVIDIA the facts SASS and ptxas give (registers, spills, SASS instructions)
        # are not there to read; every other fact is irscope's own capture's
        no_cubin = kind == "trace" and target.startswith("sm")
        binary = "cubin" if target.startswith("sm") else "hsaco"
        assert (binary in mine.manifest.files) == (kind == "cache")
        theirs, ours = capture_facts(own, quick=no_cubin), capture_facts(mine, quick=no_cubin)
        # all but the compile's wall time, which the artifacts do not say
        assert "compile_seconds" not in ours.values and theirs.values.pop("compile_seconds") > 0
        assert ours.values == theirs.values, (name, target)
        if no_cubin:
            assert any("cubin" in why for why in capture_facts(mine).unread), capture_facts(mine).unread


def test_the_signature_is_read_from_the_ttir(artifacts: dict[str, Path], captures: Any, tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    report = open_artifacts(artifacts["cache"], store, 1 << 30, 1000)
    matmul = next(c for c in report.added if c.manifest.kernel == "matmul_kernel")
    own = captures("matmul", "sm90").manifest
    # irscope's own signature holds the constexprs too; the TTIR's is the runtime arguments, same types and attrs
    runtime = {k: v for k, v in own.signature.items() if v != "constexpr"}
    assert matmul.manifest.signature == runtime
    assert matmul.manifest.attrs["a_ptr"] == [["tt.divisibility", 16]]
    assert "stride_am" in runtime and "stride_ak" not in runtime  # ==1 stride specialized away, as the JIT does


def test_a_dump_folder_reads_its_target_from_the_ttgir(artifacts: dict[str, Path], tmp_path: Path) -> None:
    report = open_artifacts(artifacts["dump"], Store(tmp_path / "store"), 1 << 30, 1000)
    assert report.kind == "dump" and not report.refused
    found = {(c.manifest.kernel, c.manifest.target, c.manifest.config.get("num_warps")) for c in report.added}
    assert found == {("add_kernel", "sm90", 4), ("matmul_kernel", "sm90", 8), ("softmax_kernel", "gfx942", 8)}
    softmax = next(c for c in report.added if c.manifest.kernel == "softmax_kernel")
    assert softmax.manifest.warp_size == 64 and "amdgcn" in softmax.manifest.files
    # a dump says neither which Triton wrote it nor the frontend's module: the chosen Triton compiles its TTIR
    add = next(c for c in report.added if c.manifest.kernel == "add_kernel").manifest.key
    refused = invoke("passes", add, store=tmp_path / "store")
    assert refused.exit_code == 2 and "(add_kernel.ttir; no Python is run) with the chosen Triton" in refused.output
    again = invoke("passes", add, "--recompile", store=tmp_path / "store")
    assert again.exit_code == 0 and "passes of Triton 3.9.0" in again.output and "tritongpu-coalesce" in again.output


def test_opening_twice_adds_nothing_and_a_trace_of_the_same_compiles_is_already_there(
        artifacts: dict[str, Path], tmp_path: Path) -> None:
    store = Store(tmp_path / "store")
    first = open_artifacts(artifacts["cache"], store, 1 << 30, 1000)
    again = open_artifacts(artifacts["cache"], store, 1 << 30, 1000)
    assert len(first.added) == 3 and not again.added and len(again.already) == 3
    traced = open_artifacts(artifacts["trace"], store, 1 << 30, 1000)
    assert not traced.added and {c.manifest.key for c in traced.already} == {c.manifest.key for c in first.added}


def _irscope(*args: str, store: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "irscope", *args, "--store", str(store)], capture_output=True,
                          text=True, timeout=300)


def test_hostile_folders_and_traces_are_refused_in_one_line(artifacts: dict[str, Path], tmp_path: Path) -> None:
    cache = artifacts["cache"]
    entry = next(d for d in sorted(cache.iterdir()) if (d / "add_kernel.json").is_file())
    bad = tmp_path / "bad-cache"
    bad.mkdir()
    # a link out of the folder, metadata of the wrong types, a target Triton never writes, truncated JSON
    (bad / "link").symlink_to(entry, target_is_directory=True)
    sm90 = {"backend": "cuda", "arch": 90, "warp_size": 32}
    for name, meta in (("wrong-types", {"name": "k", "target": sm90, "num_warps": "four"}),
                       ("odd-target", {"name": "k", "target": {**sm90, "arch": "../../x"}})):
        (bad / name).mkdir()
        (bad / name / "k.json").write_text(json.dumps(meta))
        (bad / name / "k.ttir").write_text((entry / "add_kernel.ttir").read_text())
    (bad / "truncated").mkdir()
    (bad / "truncated" / "k.json").write_text('{"name": "k", "targ')
    (bad / "truncated" / "k.ttir").write_text("module {")
    store = tmp_path / "store"
    done = _irscope("open", str(bad), store=store)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    refusals = [line for line in done.stderr.splitlines() if line.startswith("irscope: refused")]
    assert len(refusals) == 3, done.stderr
    assert any("'num_warps' is not an integer" in r for r in refusals)
    assert any("is not one Triton writes" in r for r in refusals)
    assert any("not JSON" in r for r in refusals)
    assert "0 capture(s) added" in done.stdout  # the link was not followed

    # traces: a path in a file name, a wrong type, a line that is not JSON, a gzip cut short
    event = json.loads(artifacts["trace"].read_text().splitlines()[0])
    assert event["event_type"] == "compilation"
    lines = []
    for change in ({"../../etc/passwd": "x"}, {"add_kernel.ttir": 7}):
        e = json.loads(json.dumps(event))
        e["payload"]["file_content"] = change
        lines.append(json.dumps(e))
    lines.append("{not json")
    trace = tmp_path / "hostile.ndjson"
    trace.write_text("\n".join(lines) + "\n")
    done = _irscope("open", str(trace), store=store)
    refusals = [line for line in done.stderr.splitlines() if line.startswith("irscope: refused")]
    assert done.returncode == 1 and len(refusals) == 3 and "Traceback" not in done.stderr, done.stderr
    assert "not a stage file of Triton's" in refusals[0] and "not a file name to text" in refusals[1]
    cut = tmp_path / "cut.ndjson.gz"
    cut.write_bytes(gzip.compress(artifacts["trace"].read_bytes())[:400])
    done = _irscope("open", str(cut), store=store)
    refusals = [line for line in done.stderr.splitlines() if line.startswith("irscope: refused")]
    assert done.returncode == 1 and len(refusals) == 1 and "cannot be read" in refusals[0], done.stderr
    assert "Traceback" not in done.stderr
    missing = _irscope("open", str(tmp_path / "nothing-here"), store=store)
    assert missing.returncode == 2 and missing.stderr.count("\n") == 1 and "does not exist" in missing.stderr


def test_commands_read_opened_captures(artifacts: dict[str, Path], tmp_path: Path) -> None:
    store = tmp_path / "store"
    done = _irscope("open", str(artifacts["cache"]), store=store)
    assert done.returncode == 0, done.stderr
    keys = {line.split()[1]: line.split()[2] for line in done.stdout.splitlines()[1:]}
    sm90 = next(k for k in keys.values() if k.startswith("matmul_kernel-sm90"))
    # (each command in-process: test_every_command_reads_an_opened_capture; here the process's exit and stderr)
    sass = _irscope("show", sm90, "--stage", "sass", store=store)
    assert sass.returncode == 0 and "HGMMA" in sass.stdout  # SASS made from its cubin
    passes = _irscope("passes", sm90, store=store)
    assert passes.returncode == 2 and "opened from a Triton cache folder" in passes.stderr
    assert passes.stderr.count("\n") == 1 and f"irscope passes {sm90} --recompile" in passes.stderr


def test_signature_parser_reads_odd_text_in_linear_time() -> None:
    assert kernel_signature("") is None
    assert kernel_signature("tt.func public @k(") is None
    name, args = kernel_signature('tt.func public @k(%a: !tt.ptr<bf16> {tt.divisibility = 16 : i32} loc("a"(#l)), '
                                  "%n: i64 loc(#l2)) attributes {noinline = false} {") or ("", [])
    assert name == "k" and [(a.name, a.type, a.attrs) for a in args] == [
        ("a", "*bf16", (("tt.divisibility", 16),)), ("n", "i64", ())]
    import time

    start = time.perf_counter()
    kernel_signature("tt.func public @k(" + "%a: i32, " * 20000 + ")")
    kernel_signature("tt.func public @k(" + "(" * 50000)
    assert time.perf_counter() - start < 2.0


# Example: "loop 1: line 75: for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):   (TTGIR lines 126-163)"
_SOURCE_LINE = re.compile(r"(loop \d+: line \d+): [^\n]*?(   \(TTGIR)")


def _opened_keys(path: Path, store: Path) -> dict[str, str]:
    report = open_artifacts(path, Store(store), 1 << 30, 1000)
    assert not report.refused
    return {c.manifest.kernel: c.manifest.key for c in report.added}


@pytest.mark.parametrize("kind", ["cache", "trace"])
def test_every_command_reads_an_opened_capture(artifacts: dict[str, Path], captures: Any, kind: str,
                                               tmp_path: Path) -> None:
    """show, layouts, loops, resources, verify, perf, diff, compare, html and passes on an opened capture: what
    irscope's own capture of the same compile says, through the CLI."""
    store = tmp_path / "store"
    keys = _opened_keys(artifacts[kind], store)
    for name, target in (("matmul", "sm90"), ("softmax", "gfx942")):  # irscope's own beside them, compiled once
        own_capture = captures(name, target)
        shutil.copytree(own_capture.path, store / "captures" / own_capture.path.name)
    own = store
    for kernel, name, target in (("matmul_kernel", "matmul", "sm90"), ("softmax_kernel", "softmax", "gfx942")):
        key = keys[kernel]
        for args in (["show", "--stage", "ttgir"], ["layouts"], ["loops"]):
            mine, theirs = invoke(args[0], key, *args[1:], store=store), invoke(args[0], name, "--target", target,
                                                                                *args[1:], store=own)
            # the artifacts keep no copy of the kernel's Python (never read from where the IR says it was): the
            # loop's source line is irscope's own capture's alone
            expected = _SOURCE_LINE.sub(r"\1:\2", theirs.output)
            assert mine.exit_code == 0, mine.output
            if kind == "trace" and target == "sm90" and args[0] == "loops":  # no cubin in a trace: no SASS per loop
                shown, _, missing = mine.output.partition("\nnot shown: sass: ")
                assert "has no cubin file" in missing and set(shown.splitlines()) <= set(expected.splitlines())
                assert "HGMMA" in expected and "HGMMA" not in shown
            else:
                assert mine.output == expected, (kind, args, mine.output[-2000:])
        resources = invoke("resources", key, store=store)
        assert resources.exit_code == 0
        if kind == "cache" or target.startswith("gfx"):  # a trace keeps no cubin: no static shared memory from it
            assert resources.output == invoke("resources", name, "--target", target, store=own).output
        verify = invoke("verify", key, store=store)
        assert verify.exit_code == 0 and " 0 disagree" in verify.output, verify.output
        # the same stage of irscope's own capture of the same compile, and the opened capture's own stages
        same = invoke("diff", key, "--vs", name, "--stage", "ttgir", store=store)
        assert same.exit_code == 0 and "are identical" in same.output, same.output
        lowered = invoke("diff", key, "--from", "ttir", "--to", "ttgir", "--no-pager", store=store)
        layout = "#ttg.nvidia_mma<{versionMajor = 3" if target == "sm90" else "#ttg.blocked<{sizePerThread = [4]"
        assert lowered.exit_code == 0 and any(line.startswith("+#") and layout in line
                                              for line in lowered.output.splitlines()), lowered.output[:2000]
        if target == "sm90":
            continue
        # the slower ones on softmax alone (matmul's page and model take seconds more)
        if kind == "cache":  # no launch in a cache: --grid, and the loop's bound is not known
            perf = invoke("perf", key, "--grid", "1216", store=store)
            assert perf.exit_code == 0 and "grid (1216, 1, 1)" in perf.output, perf.output
            assert "the loop at line 36 runs as many times as the argument n_rows, not recorded" in perf.output
        else:  # the trace's launch: its grid, integer arguments and tensor sizes, irscope's own launch
            perf, ours = invoke("perf", key, store=store), invoke("perf", name, "--target", target, store=own)
            assert perf.exit_code == 0 and "(the program's grid 608x1x1, its one launch)" in perf.output
            # the tensors' roles read from the IR (AMD's amdg.buffer_load/store): the same DRAM bytes and verdict
            assert [line for line in perf.output.splitlines() if line.startswith(("Verdict:", "  bound:", "Work:"))] \
                == [line for line in ours.output.splitlines() if line.startswith(("Verdict:", "  bound:", "Work:"))]
            assert "DRAM 128.00 MiB" in perf.output, perf.output
        html = tmp_path / f"{kernel}.html"
        page = invoke("html", key, "-o", str(html), "--no-passes", store=store)
        text = html.read_text(encoding="utf-8")
        # its stages and layouts on the page (the page marks up the text: the layout's name, not all its text)
        assert page.exit_code == 0 and kernel in text and "#ttg.blocked" in text and "loop 1" in text, page.output
    # compare against irscope's own, facts only (the first divergence needs the opened side's passes: --recompile)
    facts = invoke("compare", keys["matmul_kernel"], "matmul", "--target", "sm90", "--facts-only", store=store)
    assert facts.exit_code == 0, facts.output
    if kind == "cache":
        assert "no fact differs" in facts.output, facts.output
    else:  # a trace keeps no cubin: the SASS instruction counts are not on the opened side, the rest agrees
        differ = [line.split()[0] for line in facts.output.split(" facts differ:")[1].split("\n\n")[0].splitlines()[2:]]
        assert differ and all(f.startswith("instructions.sass.") for f in differ), facts.output
        assert "not read: cuobjdump: capture" in facts.output and "has no cubin file" in facts.output
    # passes: the recorded module compiled again, only when asked (a trace keeps no <name>.source: its TTIR)
    add = keys["add_kernel"]
    refused = invoke("passes", add, store=store)
    assert refused.exit_code == 2 and f"irscope passes {add} --recompile" in refused.output
    table = invoke("passes", add, "--recompile", "--json", store=store)
    assert table.exit_code == 0, table.output
    rows = json.loads(table.output[table.output.index("{"):])["passes"]
    changed = {(r["stage"], r["name"]) for r in rows if r["status"] == "changed"}
    assert ("ttgir", "tritongpu-coalesce") in changed
    assert any(stage == "ttir" for stage, _ in changed) == (kind == "cache"), changed
    # pass by pass irscope's own compile's dump (from the TTGIR on, for a trace's TTIR compiled again)
    from passes_fixtures import PassDumps

    from irscope.request.passdump import cached_pass_table

    own_dump = PassDumps(captures, captures.store)("vector_add", "sm90")  # one dump, shared with the pass tests
    ours = [(r.stage, r.name, r.status, r.added, r.removed) for r in cached_pass_table(own_dump).rows if not r.step]
    mine = [(r["stage"], r["name"], r["status"], r["added"], r["removed"]) for r in rows if not r["step"]]
    assert len(mine) > 60
    if kind == "cache":
        assert mine == ours
    else:
        assert [r for r in mine if r[0] != "ttir"] == [r for r in ours if r[0] != "ttir"]


@pytest.mark.parametrize("kind", ["cache", "trace"])
def test_the_tui_shows_an_opened_capture(artifacts: dict[str, Path], kind: str, tmp_path: Path) -> None:
    """``irscope tui KEY`` on an opened capture, driven with Textual's Pilot: its TTGIR and layouts on the screen."""
    import asyncio

    from irscope.tui.app import make_app
    from irscope.tui.screens.main import MainScreen
    from irscope.tui.widgets.layouts_panel import LayoutsPanel
    from tests.test_tui_app import SIZE, screen_text, until

    store = tmp_path / "store"
    key = _opened_keys(artifacts[kind], store)["matmul_kernel"]

    async def run() -> None:
        app = make_app(key, None, 0, str(store), record_passes=False)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.screen
            assert isinstance(screen, MainScreen)
            await until(pilot, lambda: screen.current is not None, what="the opened capture")
            await pilot.pause()
            assert screen.current is not None and screen.current.key == key and screen.current.stage == "ttgir"
            text = screen_text(app)
            assert "TritonGPU IR (ttgir)" in text and "#mma = #ttg.nvidia_mma<{versionMajor = 3" in text
            await pilot.press("L")  # the layouts panel reads the opened TTGIR as irscope's own
            await until(pilot, lambda: bool(screen.query(LayoutsPanel)) and
                        screen.query_one(LayoutsPanel).selected is not None, what="layouts")
            panel = screen.query_one(LayoutsPanel)
            assert panel.selected is not None and panel.selected.label == "#mma"
            await until(pilot, lambda: "T0:0" in panel.map_text, what="the map")
            assert "Hopper wgmma" in screen_text(app)

    asyncio.run(run())
