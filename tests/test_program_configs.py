"""Autotune configs of a program captured with `irscope capture`: each recorded with its index and values."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from irscope.store.store import Store
from tests.conftest import DATA
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile
PROGRAM = DATA / "programs" / "autotuned.py"
# The four triton.Config of autotuned.py, in order.
CONFIGS = [(16, 32, 1, 1), (32, 64, 2, 2), (64, 32, 4, 3), (128, 64, 8, 4)]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("autotuned-store")
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(PROGRAM), store=root)
    assert proc.returncode == 0, proc.stderr
    assert "Error in sitecustomize" not in proc.stderr  # the shim hands over cleanly when no other one exists
    return root


def test_each_config_is_recorded_with_its_index_and_values(store: Path) -> None:
    captures = sorted(Store(store).captures(), key=lambda c: c.manifest.config_index)
    assert [c.manifest.config_index for c in captures] == [0, 1, 2, 3]
    for capture, (bm, bn, warps, stages) in zip(captures, CONFIGS, strict=True):
        m = capture.manifest
        assert m.config == {"BLOCK_M": bm, "BLOCK_N": bn, "num_warps": warps, "num_ctas": 1, "num_stages": stages}
        ttgir = capture.read("ttgir")  # the IR itself is that config's: its warps and its tile
        assert f'"ttg.num-warps" = {warps} : i32' in ttgir
        assert f"tensor<{bm}x{bn}xf32" in ttgir
        assert m.options["num_stages"] == stages


def test_config_selects_that_config_and_an_unrecorded_one_exits_2(store: Path) -> None:
    show = irscope("show", "tile_scale_kernel", "--config", "3", "--stage", "ttgir", store=store)
    assert show.returncode == 0, show.stderr
    assert '"ttg.num-warps" = 8 : i32' in show.stdout and "tensor<128x64xf32" in show.stdout
    bad = irscope("show", "tile_scale_kernel", "--config", "5", store=store)
    assert bad.returncode == 2
    assert bad.stderr.strip() == (
        "irscope: error: config 5 is not recorded for tile_scale_kernel for sm90; recorded: "
        "0 (BLOCK_M=16, BLOCK_N=32, num_warps=1, num_ctas=1, num_stages=1), "
        "1 (BLOCK_M=32, BLOCK_N=64, num_warps=2, num_ctas=1, num_stages=2), "
        "2 (BLOCK_M=64, BLOCK_N=32, num_warps=4, num_ctas=1, num_stages=3), "
        "3 (BLOCK_M=128, BLOCK_N=64, num_warps=8, num_ctas=1, num_stages=4)")
    resources = irscope("resources", "tile_scale_kernel", "--config", "0", store=store)
    assert resources.returncode == 0, resources.stderr
    assert resources.stdout.startswith("tile_scale_kernel on sm90, config 0 (num_warps 1, num_stages 1)")


def test_list_shows_a_recorded_kernel_and_what_tells_its_configs_apart(store: Path) -> None:
    listing = irscope("list", "tile_scale_kernel", store=store)
    assert listing.returncode == 0, listing.stderr
    for i, (bm, bn, warps, stages) in enumerate(CONFIGS):
        assert re.search(rf"sm90\s+config {i}\s+BLOCK_M={bm}, BLOCK_N={bn}, num_warps={warps}, num_ctas=1, "
                         rf"num_stages={stages}$", listing.stdout, re.M), listing.stdout
    hint = listing.stdout.splitlines()[-1]  # issue 43: the hint runs as printed (no TARGET / N placeholders)
    assert hint == "  select one with: irscope show tile_scale_kernel --target sm90 --config 3", hint
    shown = irscope(*hint.split("irscope ", 1)[1].split()[:1], *hint.split()[5:], store=store)
    assert shown.returncode == 0 and "tensor<128x64xf32" in shown.stdout, shown.stderr
    key = Store(store).captures()[0].manifest.key
    by_key = irscope("list", key, "--json", store=store)
    assert by_key.returncode == 0, by_key.stderr
    assert [c["key"] for c in json.loads(by_key.stdout)["captures"]] == [key]
    everything = irscope("list", store=store)
    assert "config 2 (BLOCK_M=64, BLOCK_N=32, num_warps=4, num_ctas=1, num_stages=3), from " in everything.stdout
    unknown = irscope("list", "no_such_kernel", store=store)
    assert unknown.returncode == 2 and "unknown kernel 'no_such_kernel'" in unknown.stderr
