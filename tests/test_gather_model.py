"""Gathers through loaded indices: the address of a load holds values loaded from memory (an embedding's token ids,
an index tensor). Each distinct index costs its own 32-byte sectors, the L2 keeps what the gathered tensor's size
lets it, and since the indices' locality is data the time is a range. Inductor's own embedding kernel (a
torch.compile'd ``F.embedding``) captured from a program."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from irscope.analysis.perf.coalescing import gather_dram_sectors
from irscope.store.store import Store
from tests.conftest import DATA, invoke
from tests.test_program_capture import irscope

PROGRAM = DATA / "programs" / "inductor_embedding.py"


def test_random_sectors_hit_the_l2_as_far_as_it_holds_the_gathered_tensor() -> None:
    l2 = 50 << 20
    # a table that fits the L2: each of its sectors comes from DRAM at most once, however often it is gathered
    small = 8 << 20
    assert gather_dram_sectors(1e9, small, l2) == pytest.approx(small / 32)
    # few requests into a large table: nearly all distinct, all misses
    assert gather_dram_sectors(1000, 1 << 40, l2) == pytest.approx(1000, rel=1e-3)
    # many requests into a table twice the L2: the distinct sectors once, half of the repeats again
    table = 2 * l2
    sectors = table / 32
    requested = 10 * sectors
    distinct = sectors * (1 - math.exp(-10))
    assert gather_dram_sectors(requested, table, l2) == pytest.approx(distinct + (requested - distinct) * 0.5)
    assert gather_dram_sectors(500, 0, l2) == 500  # the table's size not known: every request a miss


@pytest.mark.compile
def test_inductors_embedding_kernel_is_modelled_as_a_gather_with_a_range(tmp_path: Path) -> None:
    store = tmp_path / "store"
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(PROGRAM), store=store)
    assert proc.returncode == 0, proc.stderr
    keys = [c.manifest.key for c in Store(store).captures() if "embedding" in c.manifest.kernel]
    assert keys
    for key in keys:
        report = json.loads(invoke("perf", key, "--gpu", "h200", "--json", store=store).stdout)
        gathers = [u for u in report["facts"]["unknowns"] if u["kind"] == "gather"]
        assert gathers and gathers[0]["decided_by"] == "loaded:in_ptr1", report["facts"]["unknowns"]
        (said,) = [u for u in report["uncertain"] if u.startswith("gather at TTGIR line")]
        assert "in_ptr1" in said
        low, high = report["time_range_us"]
        assert low <= report["predicted_us"] <= high
        assert "from in_ptr1 (256.0 MiB)" in said  # the table: 2^20 rows of 64 fp32
        # each of the 65,536 ids moves a whole 64-wide row (256 B, 8 full sectors: x % 64 within the row): at most
        # 16 MiB from DRAM, not a sector per element (the miss this test caught: 128 MiB)
        assert "at most 16.0 MiB (every sector a miss)" in said, said
        text = invoke("perf", key, "--gpu", "h200", store=store).stdout
        assert "it could not model gather at TTGIR line" in text  # the one screen says what it did not know
