"""`facts`/`check --engine dask`: the same plain-data jobs on a Dask LocalCluster give the local workers' facts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from irscope.errors import UsageError
from irscope.request.engines import Engine, parse_engine
from tests.conftest import invoke, repo_path


def _entries(path: Path) -> list[dict[str, object]]:
    data = json.loads(path.read_text())
    for entry in data["entries"]:
        entry["facts"].pop("compile_seconds")  # noisy: the only fact two compiles may differ in
    return list(data["entries"])


def _cli(*args: object) -> subprocess.CompletedProcess[str]:
    """``irscope ARGS`` in a process of its own, as a user runs it: Dask's client leaves a thread behind in the
    process that used it (``Dask-Offload``), which would keep later tests in this one from forking."""
    env = {**os.environ, "PYTHONPATH": repo_path()}
    return subprocess.run([sys.executable, "-m", "irscope", *map(str, args)], env=env, capture_output=True, text=True,
                          timeout=600)


@pytest.mark.compile
def test_a_dask_local_cluster_gives_the_facts_local_workers_give(tmp_path):
    import distributed  # noqa: F401  (the dev extra's; a missing engine fails here, never skips)

    local, dask = tmp_path / "local.json", tmp_path / "dask.json"
    args = ("facts", "vector_add", "softmax", "--target", "sm80", "--target", "gfx942", "-j", "2")
    made = invoke(*args, "-o", local, "--store", tmp_path / "local-store")
    assert made.exit_code == 0, made.output
    spread = _cli(*args, "--engine", "dask", "-o", dask, "--store", tmp_path / "dask-store")
    assert spread.returncode == 0, spread.stderr
    a, b = _entries(local), _entries(dask)
    assert len(a) == 4 and a == b
    assert {e["facts"]["registers"] > 0 for e in b} == {True}  # real compiles: ptxas / the AMD backend counted them
    # The Dask workers wrote their captures into the store they were given (a shared folder on a real cluster).
    assert len(list((tmp_path / "dask-store" / "captures").iterdir())) == 4

    # check on the cluster: as recorded, then one moved fact fails with the local engine's report.
    ok = _cli("check", dask, "--engine", "dask", "-j", "2", "--store", tmp_path / "dask-store")
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip().endswith("4 entries: 4 as recorded, 0 changed")
    data = json.loads(dask.read_text())
    data["entries"][1]["facts"]["registers"] += 4
    dask.write_text(json.dumps(data))
    moved = _cli("check", dask, "--engine", "dask", "-j", "2", "--store", tmp_path / "dask-store")
    assert moved.returncode == 1 and f"CHANGED  {data['entries'][1]['kernel']} " in moved.stdout, moved.stderr
    assert "registers" in moved.stdout


def test_engine_values():
    assert parse_engine("local") == Engine()
    assert parse_engine("dask") == Engine(kind="dask")
    assert parse_engine(" Dask=tcp://10.0.0.5:8786 ") == Engine(kind="dask", address="tcp://10.0.0.5:8786")
    for bad in ("ray", "dask=", "local=x", ""):
        with pytest.raises(UsageError, match="give local, dask"):
            parse_engine(bad)


def test_a_bad_engine_gets_one_line():
    result = invoke("facts", "vector_add", "--engine", "ray")
    assert result.exit_code == 2 and "'ray' is not an engine; give local, dask" in result.output
    assert "Traceback" not in result.output


def test_reading_the_store_imports_no_engine(tmp_path):
    """The CLI's read-only paths (and the facts/check modules themselves) import neither Dask nor Triton."""
    code = ("import sys; from click.testing import CliRunner; from irscope.cli import cli; "
            "import irscope.cli.facts_cmd, irscope.request.factsfile, irscope.request.engines; "
            "r = CliRunner().invoke(cli, ['list']); assert r.exit_code == 0, r.output; "
            "print(sorted(m for m in ('dask', 'distributed', 'torch', 'triton') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": repo_path(), "IRSCOPE_HOME": str(tmp_path / "home")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stderr


def test_dask_missing_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if dask[distributed] were not installed
    result = invoke("facts", "vector_add", "--target", "sm80", "--engine", "dask", "--store", tmp_path / "s")
    assert result.exit_code != 0 and "pip install 'irscope[dask]'" in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
