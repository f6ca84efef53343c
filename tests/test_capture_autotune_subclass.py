"""Autotuners with their own ``run`` (flag-gems' ``LibTuner`` / ``LibEntry``) captured offline (issue 26 item 3)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from irscope.store.store import Store
from tests.conftest import DATA
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile
STYLE = DATA / "programs" / "libtuner_style.py"
# flag-gems 5.0.2 and sqlalchemy (py3.11) installed with `pip install --no-deps --target DIR` (not shipped here).


def _configs(store: Path) -> dict[str, list[int]]:
    """Kernel -> the config indexes stored for it."""
    out: dict[str, list[int]] = {}
    for capture in Store(store).captures():
        out.setdefault(capture.manifest.kernel, []).append(capture.manifest.config_index)
    return {k: sorted(v) for k, v in out.items()}


def test_a_subclass_with_its_own_run_benchmarks_offline_and_says_what_it_compiled(tmp_path: Path) -> None:
    proc = irscope("capture", "--target", "sm90", "--", sys.executable, str(STYLE), store=tmp_path)
    # _bench reached the offline driver's benchmark answers; Entry read best_config and relaunched its kernel.
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    # early_config_prune drops BLOCK 1024: the policy benchmarks (so compiles) configs 0-2, as on a GPU.
    assert _configs(tmp_path) == {"_policy_scaled": [0, 1, 2], "_plain_scaled": [0, 1], "_fixed_scaled": [0],
                                  "_late_scaled": [1]}
    assert ("  autotune _policy_scaled: 4 configs, 1 not benchmarked by PolicyTuner.run, 3 compiled; benchmarks "
            "do not run offline: PolicyTuner saw made-up timings in the order it benchmarked (1 ms first, 1 ms "
            "more each), so it chose config 0\n") in proc.stderr
    assert proc.stderr.count("autotune _policy_scaled:") == 1  # the second launch did not tune again
    assert "  autotune _plain_scaled: 2 configs, 2 compiled\n" in proc.stderr
    assert ("  autotune _fixed_scaled: 4 configs, 3 not launched by FixedTuner.run, 1 compiled; only config 0 of 4 "
            "recorded: FixedTuner overrides Autotuner.run and benchmarked none of them through Autotuner._bench")\
        in proc.stderr
    assert "  autotune _late_scaled: 4 configs, 3 not launched by LateTuner.run, 1 compiled; only config 1 of 4 " \
        "recorded: LateTuner overrides Autotuner.run" in proc.stderr  # a run assigned after the class statement
    by_config = {c.manifest.config_index: c for c in Store(tmp_path).captures()
                 if c.manifest.kernel == "_policy_scaled"}
    assert by_config[2].manifest.config == {"BLOCK": 512, "num_warps": 4, "num_ctas": 1, "num_stages": 3}
    assert "tensor<512xf32" in by_config[2].read("ttgir")  # each benchmarked config's own IR
    assert "tensor<128xf32" in by_config[0].read("ttgir")


def test_autotune_first_compiles_only_the_first_config_a_subclass_benchmarks(tmp_path: Path) -> None:
    proc = irscope("capture", "--target", "sm90", "--autotune", "first", "--", sys.executable, str(STYLE),
                   store=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert _configs(tmp_path)["_policy_scaled"] == [0]
    assert "  autotune _policy_scaled: 4 configs, 3 skipped by --autotune first, 1 compiled;" in proc.stderr


def test_a_config_launch_that_raised_offline_names_its_cause() -> None:
    from triton.compiler.errors import CompilationError

    from irscope.compile.autotune_policy import failure_cause
    from irscope.compile.program_hook import OfflineDriver

    try:
        OfflineDriver(SimpleNamespace(backend="cuda")).get_device_properties(0)  # type: ignore[attr-defined]
    except AttributeError as exc:
        missing = exc
    assert failure_cause(missing) == {"cause": "irscope", "missing": "driver.active.get_device_properties"}
    assert failure_cause(CompilationError("k.py", None, "bad")) == {"cause": "triton"}
    assert failure_cause(ValueError("Conflicting meta-parameters: BLOCK")) == {"cause": "program"}
