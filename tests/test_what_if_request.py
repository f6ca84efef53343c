"""What-if compiles without the TUI (irscope.request.what_if): the variant a change names, its compile in the
warm worker, the store hit the second time, and the diff of a stage against the base."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from irscope.compile import remote
from irscope.request import what_if
from irscope.store.store import Store

pytestmark = pytest.mark.compile


@pytest.fixture(autouse=True)
def _fresh_workers():
    remote.close_all()
    yield
    remote.close_all()


def test_a_variant_names_what_to_compile(captures: object) -> None:
    base = captures("vector_add", "sm80")  # type: ignore[operator]
    same = what_if.variant_of(base, {"num_warps": 8})
    assert (same.kernel, same.target, same.config) == (base.manifest.key, "sm80", 0)  # the stored capture, again
    assert same.settings == ("num_warps=8",) and same.label == "num_warps=8" and same.triton is None
    moved = what_if.variant_of(base, {"num_warps": 8}, target="sm90")
    assert (moved.kernel, moved.target) == ("vector_add", "sm90")  # another target: the bundled module
    assert moved.label == "num_warps=8, target sm90"


def test_a_variant_compiles_once_then_is_a_store_hit_and_diffs_against_its_base(captures: object,
                                                                                tmp_path: Path) -> None:
    base = captures("vector_add", "sm80")  # type: ignore[operator]
    store = tmp_path / "store"
    shutil.copytree(base.path, store / "captures" / base.path.name)
    base = Store(store).get(base.manifest.key)
    assert base is not None
    variant = what_if.variant_of(base, {"num_warps": 8})
    assert what_if.stored_variant(variant, str(store)) is None  # not made yet
    made = what_if.compile_variant(variant, str(store))
    assert made.error == "" and made.key != base.manifest.key
    assert what_if.stored_variant(variant, str(store)) == made  # the second time: found, not compiled
    capture = Store(store).get(made.key)
    assert capture is not None and capture.manifest.settings == {"num_warps": 8}
    diff = what_if.variant_diff(base, capture, "ttgir")
    added = [line.text for hunk in diff.hunks for line in hunk.lines if line.tag == "+"]
    assert any('"ttg.num-warps" = 8' in line for line in added), added


def test_a_variant_triton_refuses_is_one_line(captures: object) -> None:
    base = captures("vector_add", "sm80")  # type: ignore[operator]
    made = what_if.compile_variant(what_if.variant_of(base, {"num_warps": 3}), str(base.path.parent.parent))
    assert made.key == "" and "num_warps" in made.error and "\n" not in made.error
