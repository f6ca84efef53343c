"""NVIDIA captures make Triton's ``.sass`` text from their cubin when first read, not in every compile."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DATA

from irscope.cli import cli
from irscope.store.store import Store
from irscope.toolchain.nvtools import tool_path
from irscope.toolchain.sass_lazy import control_field, format_cuobjdump
from irscope.toolchain.stages import has_stage, read_stage
from tests.conftest import repo_path

pytestmark = pytest.mark.compile


def triton_sass(cubin: Path) -> str:
    """What Triton's own dump writes for a cubin (``triton.tools.disasm.get_sass``)."""
    from triton.tools.disasm import get_sass

    return get_sass(cubin.read_bytes())


def test_a_capture_stores_no_sass_and_reads_triton_s_text_from_the_cubin(captures):
    cap = captures("matmul", "sm90")
    assert "sass" not in cap.manifest.files and has_stage(cap, "sass")  # no cuobjdump run in the compile
    text = read_stage(cap, "sass")
    assert text == triton_sass(cap.path / cap.manifest.files["cubin"])
    assert "LBB0:" in text and "HGMMA" in text  # branch labels and the tensor-core ops, as Triton lays them out
    assert (cap.path / "derived" / "nvdisasm-all.json").is_file()  # the shared disassembly, cached beside the capture
    assert not (cap.path / "derived" / "cuobjdump-sass.json").exists()  # cuobjdump never ran
    shown = CliRunner().invoke(cli, ["show", "matmul", "-t", "sm90", "-s", "sass", "--store", str(captures.store)])
    assert shown.exit_code == 0 and shown.output == text


def test_amd_captures_have_no_sass(captures):
    cap = captures("vector_add", "gfx942")
    assert not has_stage(cap, "sass") and "amdgcn" in cap.manifest.files


def test_the_layout_equals_triton_s_for_every_bundled_sm90_kernel(captures):
    """The text, byte for byte, for kernels with loops, branches, barriers and tensor-core ops."""
    for kernel in ("vector_add", "softmax", "matmul", "matmul_tma"):
        cap = captures(kernel, "sm90")
        cubin = cap.path / cap.manifest.files["cubin"]
        raw = subprocess.run([str(tool_path("cuobjdump")), "-sass", str(cubin)], capture_output=True,
                             check=True).stdout
        assert format_cuobjdump(raw).text == triton_sass(cubin), kernel


def test_control_fields_decode_as_triton_prints_them():
    # Real control words from cuobjdump -sass of fla's chunk_fwd_kernel_h for sm90, as Triton's get_sass printed them.
    assert control_field(0x000E6E0000002100) == "--:-:1:-:7"  # S2R R75, SR_TID.X: sets write barrier 1
    assert control_field(0x000FC4000FFFE03F) == "--:-:-:Y:2"  # UIADD3: yield bit clear
    assert control_field(0x004FE4000800063F) == "04:-:-:-:2"  # USHF.L.U32: waits on barrier 2 (mask 4)


def test_odd_cuobjdump_output_is_reported_not_raised():
    assert format_cuobjdump(b"").problem == "cuobjdump printed no 'Function :' line"
    cut = (b"\t\tFunction : k\n\t.headerflags @\"EF_CUDA_SM90\"\n"
           b"        /*0000*/                   LDC R1, c[0x0][0x28] ;            /* 0x00000a00ff017b82 */\n")
    assert "no control word" in format_cuobjdump(cut).problem


def test_each_num_warps_config_gets_the_sass_of_its_own_cubin(tmp_path):
    """Triton's dump folder leaves num_warps out of its name: the old copy gave 2 of 3 configs another's SASS."""
    env = {**os.environ, "PYTHONPATH": repo_path(), "IRSCOPE_HOME": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "irscope", "capture", "--target", "sm90", "--autotune", "all", "--",
                           sys.executable, str(DATA / "programs" / "warps_autotune.py")],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr
    caps = Store(tmp_path).captures()
    assert sorted(c.manifest.metadata["num_warps"] for c in caps) == [1, 2, 4]
    texts = {c.manifest.metadata["num_warps"]: read_stage(c, "sass") for c in caps}
    for cap in caps:
        assert texts[cap.manifest.metadata["num_warps"]] == triton_sass(cap.path / cap.manifest.files["cubin"])
    assert len(set(texts.values())) == 3


def test_a_read_only_store_derives_the_sass_in_memory(captures, tmp_path):
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"]).returncode != 0:
        pytest.skip("needs unshare -rm to mount the store read-only (root would write through chmod)")
    cap = captures("softmax", "sm90")
    store = tmp_path / "store"
    shutil.copytree(cap.path, store / "captures" / cap.path.name, ignore=shutil.ignore_patterns("derived"))
    inner = (f'mount --bind "{store}" "{store}" && mount -o remount,bind,ro "{store}" && '
             f'exec "{sys.executable}" -m irscope "$@"')
    env = {**os.environ, "PYTHONPATH": repo_path()}
    done = subprocess.run(["unshare", "-rm", "sh", "-c", inner, "sh", "show", cap.path.name, "-s", "sass",
                           "--store", str(store)], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == triton_sass(cap.path / cap.manifest.files["cubin"])
    assert not (store / "captures" / cap.path.name / "derived").exists()
