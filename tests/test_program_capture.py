"""`irscope capture -- python script.py` records every kernel a program compiles (offline on this CPU)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from irscope.store.manifest import METADATA_KEYS
from irscope.store.store import Store
from irscope.toolchain.stages import has_stage
from tests.conftest import DATA, repo_path

pytestmark = pytest.mark.compile
SCRIPT = DATA / "programs" / "two_kernels.py"


def irscope(*args: str, store, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": repo_path(), "IRSCOPE_HOME": str(store), **(env or {})}
    return subprocess.run([sys.executable, "-m", "irscope", *args], capture_output=True, text=True, env=env,
                          timeout=600)


def test_offline_capture_records_both_kernels_and_every_autotune_config(tmp_path):
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(SCRIPT), store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "offline for sm90" in proc.stderr
    captures = Store(tmp_path).captures()
    names = sorted(c.manifest.kernel for c in captures)
    assert names == ["add_kernel", "scale_kernel", "scale_kernel"]  # two autotune configs compiled
    blocks = sorted(c.manifest.constexprs["BLOCK"] for c in captures if c.manifest.kernel == "scale_kernel")
    assert blocks == [256, 1024]
    add = next(c for c in captures if c.manifest.kernel == "add_kernel")
    assert add.manifest.origin == "program" and add.manifest.target == "sm90"
    assert add.manifest.attrs["x_ptr"] == [["tt.divisibility", 16]]  # the JIT's specialization of the real launch
    assert set(add.manifest.files) >= {"ttir", "ttgir", "llir", "ptx", "cubin", "source"}
    assert has_stage(add, "sass") and "sass" not in add.manifest.files  # made from the cubin when read
    # Keyed by Triton's own hash, as irscope always keyed program captures; the manifest keeps the metadata that a
    # kernel-module capture keeps (profile_scratch_size, and cluster_dims where Triton writes it).
    triton_meta = json.loads(add.path.joinpath("add_kernel.json").read_text(encoding="utf-8"))
    assert add.manifest.key == f"add_kernel-sm90-c0-p-{triton_meta['hash'][:20]}"
    assert add.manifest.metadata == {k: triton_meta[k] for k in METADATA_KEYS if k in triton_meta}
    assert "profile_scratch_size" in add.manifest.metadata
    assert ("cluster_dims" in add.manifest.metadata) == ("cluster_dims" in triton_meta)
    # The recorded kernels are now addressable by name.
    show = irscope("show", "add_kernel", "--stage", "ptx", store=tmp_path)
    assert show.returncode == 0 and ".visible .entry add_kernel" in show.stdout
    listing = irscope("list", store=tmp_path)
    assert "from " in listing.stdout and "two_kernels.py" in listing.stdout
    layouts = irscope("layouts", "add_kernel", store=tmp_path)
    assert layouts.returncode == 0 and "#blocked  [blocked]" in layouts.stdout
    # A recorded kernel is compiled again from its stored source and recorded specialization,
    # so its passes can be shown, and the replay reproduces the recorded TTGIR exactly.
    passes = irscope("passes", "add_kernel", "--json", store=tmp_path)
    assert passes.returncode == 0, passes.stderr
    assert "tritongpu-coalesce" in passes.stdout and "convert-triton-gpu-to-llvm" in passes.stdout
    rows = json.loads(passes.stdout)["passes"]
    last_ttgir = [r["index"] for r in rows if r["stage"] == "ttgir"][-1]
    diff = irscope("diff", "add_kernel", "--from", "ttgir", "--to", str(last_ttgir), "--keep-locs", store=tmp_path)
    assert diff.returncode == 0, diff.stderr
    assert "are identical after normalisation" in diff.stdout  # locations included: same file, lines, columns


def test_without_a_gpu_or_target_capture_compiles_for_sm90_and_says_so(tmp_path, monkeypatch):
    """Every command falls back to sm90 on a machine with no GPU; capture too, rather than run on a GPU not there."""
    from click.testing import CliRunner

    from irscope.cli import cli
    from irscope.model import targets

    monkeypatch.setattr(targets, "native_target", lambda: None)
    monkeypatch.delenv("IRSCOPE_TARGET", raising=False)
    result = CliRunner().invoke(cli, ["capture", "--store", str(tmp_path), "--", sys.executable, str(SCRIPT)])
    assert result.exit_code == 0, result.output
    report = result.stderr.splitlines()[0]
    assert report.startswith(f"irscope: ran {sys.executable} {SCRIPT} (offline for sm90")
    assert report.endswith(": no GPU on this machine, so launches compile and do not run; --target chooses another "
                           "target), exit status 0")
    assert {(c.manifest.kernel, c.manifest.target) for c in Store(tmp_path).captures()} == {
        ("add_kernel", "sm90"), ("scale_kernel", "sm90")}


def test_recorded_kernels_are_suggested_and_their_captures_told_apart(tmp_path):
    """`show add_kernl` suggested nothing and named only bundled kernels; `list add_kernel` printed two identical
    rows for two captures of one target and config, and advised --target/--config, which cannot choose one."""
    other = tmp_path / "other.py"
    other.write_text(SCRIPT.read_text().replace("n = 4096", "n = 4100"))  # n no longer divisible by 16
    store = tmp_path / "store"
    for program in (SCRIPT, other):
        assert irscope("capture", "--target", "sm90", "--", sys.executable, str(program), store=store).returncode == 0
    typo = irscope("show", "add_kernl", store=store)
    assert typo.returncode == 2
    assert typo.stderr.strip() == ("irscope: error: unknown kernel 'add_kernl' (did you mean 'add_kernel'?); valid: "
                                   "matmul, matmul_tma, softmax, vector_add; recorded: add_kernel, scale_kernel")
    keys = {c.manifest.program.split()[-1]: c.manifest for c in Store(store).captures()
            if c.manifest.kernel == "add_kernel"}
    listing = irscope("list", "add_kernel", store=store).stdout.splitlines()
    assert listing[0] == "add_kernel  (2 captures, program)"
    for program, specialized in ((SCRIPT, "x_ptr, y_ptr, out_ptr, n"), (other, "x_ptr, y_ptr, out_ptr")):
        m = keys[str(program)]
        at = listing.index(f"          {m.key}")
        assert listing[at - 1] == "  sm90    config 0   BLOCK=1024, num_warps=4, num_stages=3"
        assert listing[at + 1] == (f"          made {m.created}; from {sys.executable} {program}; "
                                   f"divisible by 16: {specialized}")
    newest = max(keys.values(), key=lambda m: m.created)
    assert listing[-1] == (f"  select one with: irscope show {newest.key} (its key; captures of one target and config "
                           "differ by key)")
    shown = irscope("show", newest.key, "--stage", "ttir", store=store)  # the hint runs as printed
    assert shown.returncode == 0 and "tt.func" in shown.stdout, shown.stderr


def test_a_crashing_program_keeps_the_kernels_compiled_before_the_crash(tmp_path):
    proc = irscope("capture", "--target", "gfx942", "--", sys.executable, str(SCRIPT), "--crash", store=tmp_path)
    assert proc.returncode == 1
    assert "the program failed (exit status 1); the 3 kernel(s) compiled before it stopped were kept" in proc.stderr
    assert {c.manifest.target for c in Store(tmp_path).captures()} == {"gfx942"}


def test_capture_of_a_missing_program_is_one_line(tmp_path):
    proc = irscope("capture", "--", "no-such-program-xyz", store=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip() == "irscope: error: cannot run 'no-such-program-xyz': no such program"
