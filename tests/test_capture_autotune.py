"""`irscope capture --autotune pruned|first|all -j N`: the configs each autotuner would benchmark, compiled in
parallel."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from irscope.store.store import Store
from tests.conftest import DATA
from tests.test_program_capture import irscope

pytestmark = pytest.mark.compile
PRUNED = DATA / "programs" / "pruned_autotune.py"
AUTOTUNED = DATA / "programs" / "autotuned.py"


def _configs(store: Path) -> dict[str, list[int]]:
    """Kernel -> the config indexes stored for it."""
    out: dict[str, list[int]] = {}
    for capture in Store(store).captures():
        out.setdefault(capture.manifest.kernel, []).append(capture.manifest.config_index)
    return {k: sorted(v) for k, v in out.items()}


def _capture(store: Path, *options: str, program: Path = PRUNED) -> str:
    proc = irscope("capture", "--target", "sm90", *options, "--", sys.executable, str(program), store=store)
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


def test_pruned_compiles_only_what_the_autotuner_would_benchmark(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    pids = tmp_path / "pids.txt"
    monkeypatch.setenv("IRSCOPE_TEST_PIDS", str(pids))
    stderr = _capture(tmp_path / "store")
    # early_config_prune keeps config 2 only (BLOCK 512 for n = 512); perf_model + top_k=2 keeps 1 and 0;
    # a perf_model that needs a GPU fails offline and every config is kept.
    assert _configs(tmp_path / "store") == {"early_pruned_kernel": [2], "modelled_kernel": [0, 1],
                                            "measured_kernel": [0, 1]}
    assert "  autotune early_pruned_kernel: 4 configs, 3 pruned by early_config_prune, 1 compiled\n" in stderr
    assert stderr.count("autotune early_pruned_kernel:") == 1  # launched twice with one tuning key: chosen once
    assert "  autotune modelled_kernel: 4 configs, 2 pruned by perf_model, 2 compiled\n" in stderr
    assert ("  autotune measured_kernel: 2 configs, 2 compiled; perf_model failed offline: "
            "irscope.compile.standin_faults.StandInCannot: irscope's offline stand-in cannot answer "
            "torch.cuda.Event.ipc_handle: an event shared between processes "
            "needs a GPU; offline none runs; kept all configs\n") in stderr
    survivor = next(c for c in Store(tmp_path / "store").captures() if c.manifest.kernel == "early_pruned_kernel")
    assert survivor.manifest.config == {"BLOCK": 512, "num_warps": 4, "num_ctas": 1, "num_stages": 3}
    assert "tensor<512xf32" in survivor.read("ttgir")  # the IR is the survivor's
    assert survivor.manifest.autotune["pruned"] == {"0": "pruned by early_config_prune",
                                                    "1": "pruned by early_config_prune",
                                                    "3": "pruned by early_config_prune"}
    assert survivor.manifest.autotune["compiled"] == [2] and survivor.manifest.autotune["mode"] == "pruned"
    # The program set a compilation listener of its own (to log these pids): as on a GPU it must see every
    # compile, so while it listens the compiles run in the program's own process, not in forked ones.
    lines = pids.read_text().splitlines()
    program = lines[0].split()[1]
    compiles = [line.split()[1] for line in lines[1:]]
    assert len(compiles) == 5 and compiles.count(program) == 5


def test_first_compiles_the_first_survivor_and_all_compiles_every_config(tmp_path: Path) -> None:
    stderr = _capture(tmp_path / "first", "--autotune", "first")
    # modelled_kernel's perf_model ranks config 1 first; measured_kernel keeps both, so config 0 is first.
    assert _configs(tmp_path / "first") == {"early_pruned_kernel": [2], "modelled_kernel": [1],
                                            "measured_kernel": [0]}
    assert ("  autotune modelled_kernel: 4 configs, 2 pruned by perf_model, 1 skipped by --autotune first, "
            "1 compiled\n") in stderr
    stderr = _capture(tmp_path / "all", "--autotune", "all", "-j", "2")
    assert _configs(tmp_path / "all") == {"early_pruned_kernel": [0, 1, 2, 3], "modelled_kernel": [0, 1, 2, 3],
                                          "measured_kernel": [0, 1]}
    assert "  autotune early_pruned_kernel: 4 configs, 4 compiled\n" in stderr


def test_two_jobs_store_the_same_captures_as_one(tmp_path: Path) -> None:
    def stored(store: Path) -> set[tuple[str, int, str, str]]:
        return {(c.manifest.kernel, c.manifest.config_index, c.manifest.metadata["hash"], c.read("ptx"))
                for c in Store(store).captures()}

    _capture(tmp_path / "one", "-j", "1", program=AUTOTUNED)
    _capture(tmp_path / "two", "-j", "2", program=AUTOTUNED)
    one = stored(tmp_path / "one")
    assert len(one) == 4 and one == stored(tmp_path / "two")


def test_bad_autotune_mode_and_options_without_target_are_usage_errors(tmp_path: Path) -> None:
    bad = irscope("capture", "--target", "sm90", "--autotune", "best", "--", sys.executable, str(PRUNED),
                  store=tmp_path)
    assert bad.returncode == 2
    assert "'best' is not one of 'pruned', 'first', 'all'" in bad.stderr and "Traceback" not in bad.stderr
    zero = irscope("capture", "--target", "sm90", "-j", "0", "--", sys.executable, str(PRUNED), store=tmp_path)
    assert zero.returncode == 2 and "Traceback" not in zero.stderr



def test_options_of_offline_captures_are_refused_where_the_program_runs_on_a_gpu(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With a GPU here and no --target the program runs for real: --autotune cannot apply (without one: sm90)."""
    from click.testing import CliRunner

    from irscope.cli import cli
    from irscope.model import targets

    monkeypatch.setattr(targets, "native_target", lambda: targets.TARGETS["sm90"])
    online = CliRunner().invoke(cli, ["capture", "--autotune", "all", "--store", str(tmp_path), "--",
                                      sys.executable, str(PRUNED)])
    assert online.exit_code == 2
    assert online.stderr.strip() == ("irscope: error: --autotune applies to offline captures (--target); on the "
                                     "local GPU the autotuner itself chooses and benchmarks")


def test_a_choice_already_in_the_autotuners_cache_is_the_only_config_compiled(tmp_path: Path) -> None:
    # As FLA's CachedAutotuner does with its per-GPU config files: Triton's run then neither prunes nor benchmarks.
    stderr = _capture(tmp_path / "cached", program=DATA / "programs" / "cached_autotune.py")
    assert _configs(tmp_path / "cached") == {"_table_tuned": [1]}
    assert "  autotune _table_tuned: 4 configs, 3 skipped for the autotuner's cached choice, 1 compiled\n" in stderr
    stderr = _capture(tmp_path / "all", "--autotune", "all", program=DATA / "programs" / "cached_autotune.py")
    assert _configs(tmp_path / "all") == {"_table_tuned": [0, 1, 2, 3]}


def test_a_generator_pruner_is_read_once_and_its_configs_compiled(tmp_path: Path) -> None:
    # gemlite's early_config_prune is a generator yielding configs with a NUM_STAGES constexpr the autotuner's
    # own configs lack: the configs it yields are compiled, not the unpruned ones (which miss that argument).
    stderr = _capture(tmp_path / "store", program=DATA / "programs" / "generator_prune.py")
    assert "NOT captured" not in stderr, stderr
    assert _configs(tmp_path / "store") == {"staged_sum_kernel": [3, 4]}  # BLOCK 128 and 256; 4096 > n is dropped
    assert ("autotune staged_sum_kernel: 3 configs, 3 pruned by early_config_prune, 2 compiled; "
            "configs 3-4 (the first: "
            "config 3 (BLOCK: 128, NUM_STAGES: 3, num_warps: 4, num_ctas: 1, num_stages: 3, maxnreg: None, "
            "ir_override: None)) are not among the autotuner's configs; they came from early_config_prune\n") in stderr


def test_a_configs_pre_hook_runs_before_its_compile_as_before_its_launch_on_a_gpu(tmp_path: Path) -> None:
    # FlagGems' Hopper mm makes its TMA descriptors with a dummy [1, 1] block and lets each config's pre_hook set
    # the real block shapes: without the hook Triton compiles another kernel ("accumulator shape is incompatible").
    said = _capture(tmp_path, "--autotune", "all", program=DATA / "programs" / "descriptor_hook.py")
    assert "NOT captured" not in said, said
    captures = {c.manifest.config_index: c for c in Store(tmp_path).captures()}
    assert sorted(captures) == [0, 1]
    for index, rows in ((0, 64), (1, 128)):
        manifest = captures[index].manifest
        assert manifest.signature["a_desc"] == f"tensordesc<fp16[{rows}, 32]>", manifest.signature
        assert manifest.signature["c_desc"] == f"tensordesc<fp16[{rows}, 64]>", manifest.signature
