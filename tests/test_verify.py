"""`irscope verify`: irscope's claims against the lower stages, on the bundled kernels, on kernels in the
style of popular libraries, and on captures altered so that a claim no longer holds."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from irscope.analysis.loops import capture_loops
from irscope.analysis.sourcemap import build_source_map
from irscope.analysis.verify import verify_capture
from irscope.cli import cli
from irscope.errors import CompileError
from irscope.model.kernels import bundled_kernels
from irscope.request.captures import LaunchSpec, get_capture, make_request
from irscope.store.store import MANIFEST, Capture, Store, file_checksum, triton_version
from tests.conftest import DATA

pytestmark = pytest.mark.compile
LIB = DATA / "kernels" / "libstyle.py"
sys.path.insert(0, str(LIB.parent))
from libstyle import LAUNCHES  # noqa: E402

TARGETS = ("sm80", "sm90", "sm100", "gfx942", "gfx950")


def _all_configs() -> list[tuple[str, str, int]]:
    cases = []
    for name, info in sorted(bundled_kernels().items()):
        for target in TARGETS:
            backend = "hip" if target.startswith("gfx") else "cuda"
            cases += [(name, target, i) for i in range(len(info.configs_for(backend)))]
    return cases


def _report(result) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(f"{f.topic}: {f.claim} <> {f.evidence}" for f in result.disagreements)


@pytest.mark.parametrize(("kernel", "target", "config"), _all_configs())
def test_every_bundled_kernel_target_and_config_verifies_clean(captures, kernel, target, config):
    capture = captures(kernel, target, config)
    result = verify_capture(capture)
    assert not result.disagreements, _report(result)
    topics = {f.topic for f in result.findings if f.status == "agree"}
    assert {"files", "lines"} <= topics
    loops, _ = capture_loops(capture)
    # The loops' claims were confirmed, not skipped.
    if any(loop.pipelined for loop in loops):
        assert "pipeline" in topics, topics
    if any(loop.mma_ops for loop in loops):
        assert "mma" in topics, topics


@pytest.mark.parametrize("target", ["sm90", "gfx942", "sm80"])
@pytest.mark.parametrize("function", sorted(LAUNCHES))
def test_library_style_kernels_verify_clean(shared_store, function, target):
    args, constexprs = LAUNCHES[function]
    request = make_request(f"{LIB}:{function}", target, launch=LaunchSpec(args=args, constexprs=constexprs))
    try:
        capture = get_capture(request, str(shared_store))
    except CompileError as exc:
        # Older Triton refuses some of these (3.5: fp64 dots for gfx942); CI's pinned 3.9 compiles them all.
        if tuple(int(p) for p in triton_version().split(".")[:2]) >= (3, 9):
            raise
        pytest.xfail(f"Triton {triton_version()} cannot compile {function} for {target}: {str(exc).splitlines()[-1]}")
    result = verify_capture(capture)
    assert not result.disagreements, _report(result)
    if function.startswith(("dot_", "gated_mlp")):
        assert any(f.topic == "mma" and f.status == "agree" for f in result.findings)


def _copy(capture: Capture, store: Path) -> Capture:
    """A private copy of a capture, so a test can alter it."""
    dest = store / "captures" / capture.manifest.key
    shutil.copytree(capture.path, dest)
    found = Store(store).get(capture.manifest.key)
    assert found is not None
    return found


def _record(capture: Capture, path: Path) -> None:
    """Record a changed file's checksum, as if the compiler had written it so."""
    data = json.loads((capture.path / MANIFEST).read_text())
    data["checksums"][path.name] = file_checksum(path)
    (capture.path / MANIFEST).write_text(json.dumps(data))


def _rewrite(capture: Capture, stage: str, old: str, new: str) -> None:
    """Change a stage's text and record the new checksum."""
    path = capture.stage_path(stage)
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    _record(capture, path)


def test_verify_catches_a_wait_count_the_ptx_does_not_have(captures, tmp_path):
    cap = _copy(captures("matmul", "sm80"), tmp_path)
    assert not verify_capture(cap).disagreements
    # The K-loop's wait lets 2 groups stay in flight; make the PTX wait for all of them.
    text = cap.read("ptx")
    loop = text.index("=>This Inner Loop Header")
    wait = text.index("cp.async.wait_group \t2;", loop)
    path = cap.stage_path("ptx")
    path.write_text(text[:wait] + "cp.async.wait_group \t0;" + text[wait + len("cp.async.wait_group \t2;"):])
    _record(cap, path)
    cap = Store(tmp_path).get(cap.manifest.key)
    assert cap is not None
    bad = verify_capture(cap).disagreements
    assert [f.topic for f in bad] == ["waits"], _report(verify_capture(cap))


def test_verify_catches_a_dot_lowered_to_another_instruction_shape(captures, tmp_path):
    cap = _copy(captures("matmul", "sm90"), tmp_path)
    text = cap.read("ptx")
    shape = next(w for w in text.split() if w.startswith("wgmma.mma_async"))
    _rewrite(cap, "ptx", shape, shape.replace("n256", "n128"))
    cap = Store(tmp_path).get(cap.manifest.key)
    assert cap is not None
    assert "mma" in {f.topic for f in verify_capture(cap).disagreements}


def test_verify_catches_a_machine_access_wider_than_the_layout_allows(captures, tmp_path):
    cap = _copy(captures("vector_add", "sm90"), tmp_path)
    widths = [f for f in verify_capture(cap).findings if f.topic == "widths"]
    assert len(widths) == 3 and all(f.status == "agree" for f in widths)  # x, y loads and the store
    # Claim 1 fp32 per thread: the 16-byte ld.global.v4.b32 in the PTX contradicts it.
    text = cap.read("ttgir")
    spt = next(w for w in text.split("sizePerThread = [")[1:])
    _rewrite(cap, "ttgir", "sizePerThread = [" + spt.split("]")[0] + "]", "sizePerThread = [1]")
    cap = Store(tmp_path).get(cap.manifest.key)
    assert cap is not None
    bad = [f for f in verify_capture(cap).disagreements if f.topic == "widths"]
    assert bad and "16 bytes" in bad[0].evidence, _report(verify_capture(cap))


def test_verify_catches_a_changed_byte_and_the_cli_exits_1(captures, tmp_path):
    cap = _copy(captures("vector_add", "sm90"), tmp_path)
    path = cap.stage_path("ttgir")
    data = bytearray(path.read_bytes())
    data[-2] ^= 0x20  # same size, other content: only the sha256 can tell
    path.write_bytes(bytes(data))
    result = CliRunner().invoke(cli, ["verify", "--store", str(tmp_path)])
    assert result.exit_code == 1
    assert "sha256 differs" in result.output and "disagree" in result.output


def test_cli_verify_names_kernels_targets_and_prints_json(shared_store):
    result = CliRunner().invoke(cli, ["verify", "vector_add", "-t", "sm90", "-t", "gfx942", "--json",
                                      "--store", str(shared_store)])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["target"] for r in rows] == ["sm90", "gfx942"] and all(r["disagreements"] == 0 for r in rows)


def test_inline_asm_loads_map_to_their_own_line_in_ptx_and_sass(captures):
    """LLVM numbers inline-asm lines as source lines: vector_add's first ld.global/LDG used to land on
    line 34 (the tl.store). The line of `x = tl.load(...)` must own the load in PTX and SASS."""
    cap = captures("vector_add", "sm90")
    source = cap.read("source").splitlines()
    line = next(i for i, text in enumerate(source, 1) if "x = tl.load" in text)
    store_line = next(i for i, text in enumerate(source, 1) if "tl.store(" in text)
    smap = build_source_map(cap, ("ptx", "sass"))
    for stage, opcode in (("ptx", "ld.global"), ("sass", "LDG")):
        mapped = smap.stage(stage)
        assert mapped is not None and not mapped.problems, mapped
        assert any(m.opcode.startswith(opcode) for m in mapped.for_line(line)), stage
        assert not any(m.opcode.startswith(opcode) for m in mapped.for_line(store_line)), stage


# -- damaged captures (issue: a truncated .ttgir was printed whole-looking with exit 0) -------------------


def _truncate(capture: Capture, stage: str) -> None:
    path = capture.stage_path(stage)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


@pytest.mark.parametrize("command", [["show", "--stage", "ttgir"], ["layouts"], ["loops"], ["map", "--line", "31"]])
def test_a_truncated_stage_of_a_bundled_kernel_is_compiled_again(tmp_path, command):
    store = str(tmp_path / "store")
    cap = get_capture(make_request("vector_add", "sm90"), store)
    whole = cap.read("ttgir")
    _truncate(cap, "ttgir")
    result = CliRunner().invoke(cli, [command[0], "vector_add", "-t", "sm90", *command[1:], "--store", store])
    assert result.exit_code == 0, result.output
    assert "is damaged" in result.stderr and "compiling it again" in result.stderr
    again = Store(Path(store)).get(cap.manifest.key)
    assert again is not None and again.damage() is None and again.read("ttgir") == whole


def test_a_damaged_recorded_capture_is_one_line_naming_the_file_and_how_to_recapture(tmp_path):
    import os
    import subprocess

    script = DATA / "programs" / "two_kernels.py"
    env = {**os.environ, "IRSCOPE_HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "irscope", "capture", "--target", "sm90", "--", sys.executable,
                           str(script)], capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    cap = next(c for c in Store(tmp_path).captures() if c.manifest.kernel == "add_kernel")
    _truncate(cap, "ttgir")
    for command in (["show", "add_kernel", "--stage", "ttgir"], ["layouts", "add_kernel"], ["loops", "add_kernel"]):
        result = CliRunner().invoke(cli, [*command, "--store", str(tmp_path)])
        assert result.exit_code == 1, (command, result.output)
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and "is damaged" in lines[0] and ".ttgir" in lines[0], lines
        assert "irscope capture --" in lines[0]


def test_manifests_record_size_and_sha256_of_every_file(captures):
    cap = captures("softmax", "gfx942")
    assert set(cap.manifest.checksums) == set(cap.manifest.files.values())
    for name, entry in cap.manifest.checksums.items():
        assert entry == file_checksum(cap.path / name)


def test_an_archive_whose_file_differs_from_its_manifest_is_refused(captures, tmp_path):
    import tarfile

    from irscope.store.archive import build_member, export

    cap = captures("vector_add", "gfx942")
    out = tmp_path / "a.tar.gz"
    export([cap], out)
    with tarfile.open(out) as tar:
        members = {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}  # type: ignore[union-attr]
    name = next(n for n in members if n.endswith(".ttgir"))
    members[name] = members[name][:-10] + b"0123456789"
    bad = tmp_path / "bad.tar.gz"
    with tarfile.open(bad, "w:gz") as tar:
        for member, data in members.items():
            build_member(tar, member, data)
    result = CliRunner().invoke(cli, ["open", str(bad), "--store", str(tmp_path / "fresh")])
    assert result.exit_code == 1 and "differs from the size and sha256" in result.output
    assert not (tmp_path / "fresh" / "captures").exists() or not any((tmp_path / "fresh" / "captures").iterdir())


@pytest.mark.parametrize(("moved_to", "status"), [("0", "unchecked"), ("5", "disagree")])
def test_a_line_triton_left_at_line_0_is_unchecked_and_one_moved_elsewhere_disagrees(captures, tmp_path, moved_to,
                                                                                    status):
    # Triton 3.5 leaves sm100's warp-specialized TMA copies at `.loc 1 0 0`; here the PTX of sm80's matmul is
    # made to do the same with its async copies (or to file them under line 5, which verify must still catch).
    cap = _copy(captures("matmul", "sm80"), tmp_path)
    text = cap.read("ptx")
    copy = text.index("cp.async.cg.shared.global")
    loc = text.rindex(".loc\t1 ", 0, copy)
    line = text[loc:].split()[2]
    path = cap.stage_path("ptx")
    path.write_text(path.read_text().replace(f".loc\t1 {line} ", f".loc\t1 {moved_to} "))
    _record(cap, path)
    cap = Store(tmp_path).get(cap.manifest.key)
    assert cap is not None
    result = verify_capture(cap)
    ptx = [f for f in result.findings if f.topic == "lines" and f.claim.startswith(f"line {line}:")
           and f.evidence.startswith("ptx:")]
    assert ptx and {f.status for f in ptx} == {status}, _report(result)
    if status == "unchecked":
        assert not result.disagreements, _report(result)
        assert all("at line 0 (no source line in Triton's line info)" in f.evidence for f in ptx)


TILE_LOOP = str(DATA / "kernels" / "tile_loop.py")


def test_a_tile_loops_waits_are_its_own_not_those_of_the_k_loop_inside_it(shared_store, tmp_path):
    """The grouped-GEMM shape (Triton's tutorial 08 on sm90 disagreed twice): the K-loop's waits keep groups in
    flight and the tile loop around it drains them. The tile loop's claim is checked against its own waits only,
    so a drain the PTX lacks is still caught."""
    launch = LaunchSpec(args="fp16[1024,1024], fp16[1024,1024], fp16[1024,1024], 1024, 1024, 1024, 1024, 1024, 1024",
                        constexprs=("BLOCK_M=128", "BLOCK_N=128", "BLOCK_K=32", "NUM_SM=132"))
    capture = get_capture(make_request(f"{TILE_LOOP}:tile_loop_gemm", "sm90", launch=launch), str(shared_store))
    result = verify_capture(capture)
    assert not result.disagreements, _report(result)
    waits = {f.claim for f in result.findings if f.topic == "waits" and f.status == "agree"}
    assert "loop at line 16: ttg.async_wait waits with 0 group(s) left in flight" in waits
    assert "loop at line 21: ttg.async_wait waits with 2 group(s) left in flight" in waits
    cap = _copy(capture, tmp_path)
    text = cap.read("ptx")
    drain = text.index("cp.async.wait_group \t0;")  # the tile loop's own (LLVM placed that block before its header)
    path = cap.stage_path("ptx")
    path.write_text(text[:drain] + "cp.async.wait_group \t1;" + text[drain + len("cp.async.wait_group \t0;"):])
    _record(cap, path)
    cap = Store(tmp_path).get(cap.manifest.key)
    assert cap is not None
    bad = [f.claim for f in verify_capture(cap).disagreements]
    assert bad == ["loop at line 16: ttg.async_wait waits with 0 group(s) left in flight"], bad


def test_a_tile_loops_mma_count_leaves_out_the_k_loops(shared_store):
    """On gfx942 the pipeliner leaves the K-loop's last dot in the tile loop (the tutorial grouped GEMM: 2 dots,
    32 MFMAs, against 48 counted with the K-loop's 16 inside): the tile loop's count is its own MFMAs."""
    launch = LaunchSpec(args="fp16[1024,1024], fp16[1024,1024], fp16[1024,1024], 1024, 1024, 1024, 1024, 1024, 1024",
                        constexprs=("BLOCK_M=128", "BLOCK_N=128", "BLOCK_K=32", "NUM_SM=132"))
    capture = get_capture(make_request(f"{TILE_LOOP}:tile_loop_gemm", "gfx942", launch=launch), str(shared_store))
    result = verify_capture(capture)
    assert not result.disagreements, _report(result)
    mma = {f.claim for f in result.findings if f.topic == "mma" and f.status == "agree"}
    assert "loop at line 16: 16 mfma instruction(s) per iteration for the tile(s) of 1 dot(s)" in mma
    assert "loop at line 21: 16 mfma instruction(s) per iteration for the tile(s) of 1 dot(s)" in mma


def test_a_tile_loops_mma_count_leaves_out_its_k_loops_unroll_remainder(shared_store):
    """With 4 stages and 32-wide K steps LLVM unrolls the K-loop on gfx942 and leaves its left-over iteration in
    `.epil` blocks inside the tile loop (Triton's grouped-GEMM tutorial, configs 2 and 3): those MFMAs are the
    K-loop's, not the tile loop's three peeled dots."""
    launch = LaunchSpec(args="fp16[1024,1024], fp16[1024,1024], fp16[1024,1024], 1024, 1024, 1024, 1024, 1024, 1024",
                        constexprs=("BLOCK_M=64", "BLOCK_N=64", "BLOCK_K=32", "NUM_SM=304"), settings=("num_stages=4",))
    capture = get_capture(make_request(f"{TILE_LOOP}:tile_loop_gemm", "gfx942", launch=launch), str(shared_store))
    assert re.search(r"; %[\w.]*\.epil\.preheader", capture.read("amdgcn"))  # LLVM's remainder blocks
    result = verify_capture(capture)
    assert not result.disagreements, _report(result)
    assert "loop at line 16: 12 mfma instruction(s) per iteration for the tile(s) of 3 dot(s)" in {
        f.claim for f in result.findings if f.topic == "mma" and f.status == "agree"}
