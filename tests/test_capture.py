"""Offline captures assert real compiler facts for sm90, sm80 and gfx942."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from irscope.request.captures import get_capture, make_request
from irscope.store.store import Store
from irscope.toolchain.stages import read_stage

pytestmark = pytest.mark.compile

# Example: %accumulator_77:9 = scf.for %accumulator_94 = %c0_i32 to %1 step %c1_i32 iter_args(...)
FOR_RE = re.compile(r"^\s*%\S+ = scf\.for\b", re.M)


def loop_body(ttgir: str) -> str:
    """The text of the first scf.for loop (up to its closing scf.yield)."""
    start = FOR_RE.search(ttgir)
    assert start, "no scf.for loop in the TTGIR"
    end = ttgir.index("scf.yield", start.end())
    return ttgir[start.start():end]


def test_matmul_sm90_is_pipelined_wgmma(captures):
    cap = captures("matmul", "sm90")
    ttgir = cap.read("ttgir")
    assert re.search(r"#ttg\.nvidia_mma<\{versionMajor = 3,.*instrShape = \[16, 256, 16\]", ttgir)
    assert "#ttg.nvmma_shared<{swizzlingByteWidth = 128" in ttgir
    body = loop_body(ttgir)
    assert "ttng.warp_group_dot " in body
    assert "ttg.async_copy_global_to_local" in body
    assert "ttg.async_wait" in body
    # Three stages: two K-tiles of A and B in flight in shared memory (3 buffers each).
    assert re.search(r"ttg\.local_alloc.*!ttg\.memdesc<3x128x64xf16", ttgir)
    assert re.search(r"ttg\.local_alloc.*!ttg\.memdesc<3x64x256xf16", ttgir)
    assert cap.manifest.metadata["num_stages"] == 3
    assert cap.manifest.metadata["num_warps"] == 8
    assert cap.manifest.metadata["shared"] >= 3 * (128 * 64 + 64 * 256) * 2
    ptx = cap.read("ptx")
    assert "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16" in ptx
    assert "cp.async.cg.shared.global" in ptx
    assert re.search(r"\bHGMMA\.64x256x16\.F32\b", read_stage(cap, "sass"))


def test_matmul_sm80_uses_mma_v2_and_async_copies(captures):
    ttgir = captures("matmul", "sm80").read("ttgir")
    assert re.search(r"#ttg\.nvidia_mma<\{versionMajor = 2,.*instrShape = \[16, 8\]", ttgir)
    assert "#ttg.swizzled_shared<{vec = 8" in ttgir
    body = loop_body(ttgir)
    assert "ttg.async_copy_global_to_local" in body
    assert re.search(r"tt\.dot .*#ttg\.dot_op<\{opIdx = 0, parent = #mma", body)
    ptx = captures("matmul", "sm80").read("ptx")
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in ptx
    assert "ldmatrix.sync.aligned" in ptx


def test_matmul_gfx942_uses_mfma(captures):
    cap = captures("matmul", "gfx942")
    ttgir = cap.read("ttgir")
    assert re.search(r"#ttg\.amd_mfma<\{version = 3,", ttgir)
    assert "tt.dot " in loop_body(ttgir)
    assert re.search(r"\bv_mfma_f32_\w+_f16\b", cap.read("amdgcn"))
    assert set(cap.manifest.files) >= {"source", "ttir", "ttgir", "llir", "amdgcn", "hsaco", "json"}
    assert "ptx" not in cap.manifest.files
    assert cap.manifest.warp_size == 64


def test_vector_add_uses_16_byte_loads(captures):
    cap = captures("vector_add", "sm90")
    ptx = cap.read("ptx")
    assert ptx.count("ld.global.v4.b32") >= 2
    assert "st.global.v4.b32" in ptx


def test_softmax_row_loop_is_pipelined(captures):
    ttgir = captures("softmax", "sm90").read("ttgir")
    body = loop_body(ttgir)
    assert "ttg.async_copy_global_to_local" in body
    assert "tt.reduce" in body
    assert "math.exp2" in body or "math.exp" in body


def test_specialization_matches_the_jit(captures):
    m = captures("matmul", "sm90").manifest
    # Pointers and 16-divisible integers get tt.divisibility = 16; unit strides become constexprs.
    for name in ("a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"):
        assert m.attrs[name] == [["tt.divisibility", 16]], name
    for name in ("stride_ak", "stride_bn", "stride_cn"):
        assert m.signature[name] == "constexpr" and m.constexprs[name] == 1
    assert m.signature["a_ptr"] == "*fp16"
    assert m.constexprs["BLOCK_SIZE_K"] == 64
    assert m.options["num_stages"] == 3 and m.options["num_warps"] == 8


def test_unspecialized_compile_is_not_pipelined(captures):
    """Why the specialization matters: the same kernel compiled from the bare signature loses it."""
    import triton

    from irscope.compile.capture import redirected_triton
    from irscope.compile.specialize import kernel_job

    req = make_request("matmul", "sm90")
    job = kernel_job(req.kernel, req.target, 0, req.sizes)
    bare = triton.compiler.ASTSource(job.fn, job.signature, job.constexprs, {})
    with redirected_triton(Path(captures.store) / "bare"):
        compiled = triton.compile(bare, target=job.gpu_target, options=job.options)
    assert "ttg.async_copy_global_to_local" not in compiled.asm["ttgir"]
    assert "ttg.async_copy_global_to_local" in captures("matmul", "sm90").read("ttgir")


def test_capture_is_a_cache_hit_the_second_time(tmp_path, monkeypatch):
    import irscope.compile.capture as cap_mod

    req = make_request("vector_add", "sm80")
    first = get_capture(req, str(tmp_path / "s"))
    calls = []
    monkeypatch.setattr(cap_mod, "compile_job", lambda job: calls.append(job))
    again = get_capture(make_request("vector_add", "sm80"), str(tmp_path / "s"))
    assert again.path == first.path and calls == []
    # Another config is another key.
    assert make_request("matmul", "sm80", 1).key() != make_request("matmul", "sm80", 0).key()


def test_capture_never_touches_the_users_triton_cache(tmp_path, isolated_env):
    get_capture(make_request("vector_add", "sm90"), str(tmp_path / "s"))
    user_cache = isolated_env / "user-triton-cache"
    assert not user_cache.exists() or not any(user_cache.iterdir())
    assert not (isolated_env / "home" / ".triton").exists()


def test_manifest_records_the_compilation(captures):
    cap = captures("matmul", "sm90")
    data = json.loads((cap.path / "manifest.json").read_text())
    assert data["triton_version"] == __import__("triton").__version__
    assert data["target"] == "sm90" and data["arch"] == 90
    assert data["compile_seconds"] > 0
    assert {"ttir", "ttgir", "llir", "ptx"} <= set(data["stage_seconds"])
    for name in data["files"].values():
        assert (cap.path / name).is_file()
    assert (cap.path / "source.py").read_text().count("def matmul_kernel") == 1


def test_half_written_capture_is_not_read(tmp_path):
    store = Store(tmp_path / "s")
    req = make_request("vector_add", "sm90")
    # A capture killed before its manifest was written, left in place.
    broken = store.captures_dir / req.key()
    broken.mkdir(parents=True)
    (broken / "add_kernel.ttgir").write_text("truncated")
    assert store.get(req.key()) is None
    cap = get_capture(req, str(tmp_path / "s"))
    assert "tt.load" in cap.read("ttgir")
    assert store.get(req.key()) is not None


def test_two_processes_capturing_at_once_leave_one_good_entry(tmp_path):
    code = ("import sys; from irscope.request.captures import make_request, get_capture; "
            "c = get_capture(make_request('softmax', 'sm80'), sys.argv[1]); print(c.path)")
    procs = [subprocess.Popen([sys.executable, "-c", code, str(tmp_path / "s")], stdout=subprocess.PIPE, text=True)
             for _ in range(2)]
    outs = [p.communicate(timeout=300)[0].strip() for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert outs[0] == outs[1]
    entries = list((tmp_path / "s" / "captures").iterdir())
    assert len(entries) == 1
    assert Store(tmp_path / "s").get(entries[0].name) is not None
    assert not list((tmp_path / "s" / "staging").iterdir())
