"""What-if compiles without the TUI (irscope.request.what_if): the variant a change names, its compile in the
warm worker, the store hit the second time, and the diff of a stage against the base."""

from __future__ import annotations

import shutil
import sys
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


def _locations_file(capture: object) -> str:
    """The file the first ``loc("FILE":LINE:COL)`` of a capture's TTGIR names."""
    import re

    found = re.search(r'loc\("([^"]+)":\d+:\d+\)', capture.read("ttgir"))  # type: ignore[attr-defined]
    assert found is not None
    return found.group(1)


def _irscope(store: Path, *args: str) -> None:
    """``python -m irscope ARGS`` on ``store``, in a process of its own (as the TUI finds its base: in the store)."""
    import os
    import subprocess

    from tests.conftest import repo_path

    env = {**os.environ, "PYTHONPATH": repo_path(), "IRSCOPE_HOME": str(store)}
    subprocess.run([sys.executable, "-m", "irscope", *args], check=True, capture_output=True, env=env,
                   cwd=store.parent, timeout=600)


def test_a_variant_of_a_function_kernel_keeps_its_source_lines(tmp_path: Path) -> None:
    """The what-if of a FILE:FUNCTION capture names the file its locations name, so its loops keep their lines."""
    from irscope.analysis.facts import capture_facts
    from tests.conftest import DATA

    path = DATA / "kernels" / "loops_demo.py"
    store = str(tmp_path / "store")
    _irscope(tmp_path / "store", "show", f"{path}:loops_kernel", "--target", "sm90", "--stage", "ttgir", "--args",
             "fp16[6400], fp16[6400], fp32[4096], 100, 100, 64", "--constexpr", "BLOCK=64", "--constexpr", "BLOCK_K=32")
    base, = Store(Path(store)).captures()
    loop_line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if "for k in tl.range(0, K" in text)
    assert capture_facts(base, quick=True).values["loop1.line"] == loop_line

    made = what_if.compile_variant(what_if.variant_of(base, {"num_warps": 2}), store)
    assert made.error == ""
    variant = Store(Path(store)).get(made.key)
    assert variant is not None and variant.manifest.settings == {"num_warps": 2}
    assert variant.manifest.kernel_path == base.manifest.kernel_path == _locations_file(variant)
    assert (variant.path / "source.py").read_bytes() == path.read_bytes()
    facts = capture_facts(variant, quick=True).values
    assert facts["loop1.line"] == loop_line and facts["loop2.line"] is not None


def test_a_variant_of_a_recorded_kernel_keeps_its_source_lines(tmp_path: Path) -> None:
    """The what-if of a kernel ``irscope capture`` recorded names the program's file, as the recorded capture does."""
    from irscope.analysis.sourcemap import map_stage
    from tests.conftest import DATA

    store = tmp_path / "store"
    program = DATA / "programs" / "two_kernels.py"
    _irscope(store, "capture", "--target", "sm90", "--", sys.executable, str(program))
    base = next(c for c in Store(store).captures() if c.manifest.kernel == "add_kernel")
    assert base.manifest.kernel_path == str(program) == _locations_file(base)

    made = what_if.compile_variant(what_if.variant_of(base, {"num_warps": 2}), str(store))
    assert made.error == ""
    variant = Store(store).get(made.key)
    assert variant is not None
    assert variant.manifest.kernel_path == str(program) == _locations_file(variant)
    store_line = next(i for i, text in enumerate(program.read_text().splitlines(), 1) if "tl.store(out_ptr" in text)
    assert map_stage(variant, "ttgir").for_line(store_line)  # the store's ops map to its line
