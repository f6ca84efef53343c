"""A FILE:FUNCTION launch typed once: later commands by the kernel's name reuse the arguments its capture recorded
(issue #40: ``perf NAME`` lost the ``--args`` values, unknown loop trips and another time), and a name that
matches several such captures says which one it uses and how to name another."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import REPO, invoke

pytestmark = pytest.mark.compile
SOFTMAX = f"{REPO / 'kernels' / 'softmax.py'}:softmax_kernel"
CONSTEXPRS = ("--constexpr", "BLOCK_SIZE=1024", "--constexpr", "num_stages=2")


def _args(cols: int, dtype: str = "fp32") -> str:
    return (f"output_ptr={dtype}[64,{cols}], input_ptr={dtype}[64,{cols}], input_row_stride={cols}, "
            f"output_row_stride={cols}, n_rows=64, n_cols={cols}")


def test_perf_by_name_reuses_the_recorded_args_and_list_says_which_launch_a_name_uses(tmp_path: Path) -> None:
    store = tmp_path / "store"
    given = invoke("perf", SOFTMAX, "--args", _args(1000), *CONSTEXPRS, "--grid", "64", "--json", store=store)
    assert given.exit_code == 0, given.output
    typed = json.loads(given.stdout)
    (loop,) = typed["loops"]
    assert loop["trips"] == 1  # tl.range(pid, n_rows=64, 64 programs): the --args values bound the loop
    by_name = invoke("perf", "softmax_kernel", "--grid", "64", "--json", store=store)
    assert by_name.exit_code == 0, by_name.output
    named = json.loads(by_name.stdout)
    assert named["grid_origin"] == "--grid; the arguments recorded with its FILE:FUNCTION --args"
    for field in ("predicted_us", "loops", "dram_bytes", "compulsory_bytes", "bound"):
        assert named[field] == typed[field], field
    assert "names 2 captures" not in by_name.output  # one capture: nothing to choose between

    listed = invoke("list", "softmax_kernel", store=store)
    assert f"launch: --args {_args(1000, 'float32')} (commands by name reuse it; perf needs --grid)" in listed.output

    # a second launch of the same kernel, config and target: a name now matches two captures
    other = invoke("show", SOFTMAX, "--args", _args(512), *CONSTEXPRS, "--stage", "ttir", store=store)
    assert other.exit_code == 0, other.output
    captures = json.loads(invoke("list", "softmax_kernel", "--json", store=store).stdout)["captures"]
    assert [c["used_by_name"] for c in captures] == [False, True]  # the newest
    newest = captures[1]["key"]
    again = invoke("perf", "softmax_kernel", "--grid", "64", "--json", store=store)
    assert again.exit_code == 0, again.output
    assert (f"irscope: softmax_kernel names 2 captures of sm90 config 0; using the newest, {newest} "
            f"(--args {_args(512, 'float32')}); name another by its key (irscope list softmax_kernel shows them)"
            ) in again.stderr
    # the 512-column launch's tensors, not the 1000-column one's
    assert json.loads(again.stdout)["compulsory_bytes"] == typed["compulsory_bytes"] * 512 / 1000
    listed = invoke("list", "softmax_kernel", store=store)
    assert "used by commands that name softmax_kernel (the newest of its target and config)" in listed.output
    first = invoke("perf", captures[0]["key"], "--grid", "64", "--json", store=store)
    assert json.loads(first.stdout)["compulsory_bytes"] == typed["compulsory_bytes"]  # by key: that launch
    assert "names 2 captures" not in first.stderr
