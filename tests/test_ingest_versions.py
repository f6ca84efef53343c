"""Caches written by older Tritons (3.5.1, 3.6.0; NVIDIA and AMD) opened as captures.

tests/data/artifacts/triton-<version>-cache.tar.gz are what those Tritons' ``triton.compile`` wrote to
``TRITON_CACHE_DIR`` for vector_add and matmul on sm90 and softmax on gfx942 with irscope's own specialization of
config 0 (tests/data/artifacts/make_caches.py, README.md there). Opened with Triton 3.9 installed, their stages
must parse in those Tritons' spellings and give the facts irscope's own 3.9 capture gives wherever the compile's
decisions (layouts, pipelining, tensor-core instruction, shared memory, occupancy) did not change between the
versions; the facts that do differ are the code generator's (registers, instruction counts), named here.
"""

from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Any

import pytest

from irscope.analysis.facts import capture_facts
from irscope.store.ingest import open_artifacts
from irscope.store.store import Capture, Store
from tests.conftest import invoke

pytestmark = pytest.mark.compile

DATA = Path(__file__).parent / "data" / "artifacts"
VERSIONS = ("3.5.1", "3.6.0")
KERNELS = {"add_kernel": ("vector_add", "sm90"), "matmul_kernel": ("matmul", "sm90"),
           "softmax_kernel": ("softmax", "gfx942")}
# What the code generator decides below the TTGIR: the facts allowed to differ between Tritons
CODEGEN = ("registers", "instructions.")


def opened(version: str, tmp: Path) -> dict[str, Capture]:
    """The version's cache unpacked into ``tmp`` and opened into a store there: kernel name -> capture."""
    cache = tmp / f"cache-{version}"
    with tarfile.open(DATA / f"triton-{version}-cache.tar.gz") as tar:
        tar.extractall(cache, filter="data")
    report = open_artifacts(cache, Store(tmp / "store"), 1 << 30, 100)
    assert report.kind == "cache" and not report.refused and len(report.added) == 3, report.refused
    return {c.manifest.kernel: c for c in report.added}


@pytest.mark.parametrize("version", VERSIONS)
def test_an_older_tritons_cache_gives_the_facts_of_irscopes_own(version: str, captures: Any, tmp_path: Path) -> None:
    found = opened(version, tmp_path)
    assert set(found) == set(KERNELS)
    differ: dict[str, set[str]] = {}
    for name, capture in found.items():
        kernel, target = KERNELS[name]
        mine, own = capture.manifest, captures(kernel, target).manifest
        assert (mine.triton_version, own.triton_version) == (version, "3.9.0")
        assert (mine.target, mine.backend, mine.arch, mine.warp_size) == (own.target, own.backend, own.arch,
                                                                          own.warp_size)
        assert {k: mine.config[k] for k in ("num_warps", "num_stages")} == \
            {k: own.metadata[k] for k in ("num_warps", "num_stages")}
        # the signature read from the older TTIR: the runtime arguments of irscope's own, with the same attributes
        assert mine.signature == {k: v for k, v in own.signature.items() if v != "constexpr"}
        assert mine.attrs == {k: v for k, v in own.attrs.items() if v and k in mine.signature}
        theirs, ours = capture_facts(capture), capture_facts(captures(kernel, target))
        assert not theirs.unread, theirs.unread
        ours.values.pop("compile_seconds")
        assert set(theirs.values) == set(ours.values), (name, set(theirs.values) ^ set(ours.values))
        agree = {k: v for k, v in ours.values.items() if not k.startswith(CODEGEN)}
        assert {k: theirs.values[k] for k in agree} == agree, name
        differ[name] = {k for k, v in ours.values.items() if theirs.values[k] != v}
        assert all(k.startswith(CODEGEN) for k in differ[name])
    # the compile's decisions read from the older spellings: layouts, pipelining and the tensor-core instruction
    matmul = capture_facts(found["matmul_kernel"]).values
    assert matmul["mma.shape"] == ["m64n256k16"] and matmul["loop1.stages"] == 3 and matmul["loop1.async_copies"] == 2
    assert any(lay.startswith("ttg.nvidia_mma<{versionMajor = 3") for lay in matmul["layouts"])
    softmax = capture_facts(found["softmax_kernel"]).values
    assert softmax["layouts"] == ["ttg.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [8], "
                                  "order = [0]}>"] and softmax["loop1.stages"] == 4
    # vector_add compiles to the same code in all three Tritons; matmul's and softmax's code generation moved
    assert differ["add_kernel"] == set()
    assert "registers" in differ["matmul_kernel"] and "instructions.sass.total" in differ["matmul_kernel"]
    assert "registers" in differ["softmax_kernel"] and "instructions.amdgcn.total" in differ["softmax_kernel"]
    # its recorded module is that Triton's IR: compiled again only by that Triton, which this store has not
    key = found["add_kernel"].manifest.key
    passes = invoke("passes", key, "--recompile", store=tmp_path / "store")
    assert passes.exit_code == 2 and f"Triton {version} is not installed for irscope" in passes.output, passes.output
    assert f"irscope triton install {version}" in passes.output
