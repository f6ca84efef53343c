"""The pass table is the same in every process: nothing in it depends on Python's string hashing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from passes_fixtures import PassDumps, pass_dumps_fixture  # noqa: F401

from irscope.cli import cli
from tests.conftest import REPO

pytestmark = pytest.mark.compile

# Computes the table afresh (never from the effects cached beside the dump) and prints every summary.
_TABLE = """
import json, sys
from pathlib import Path
from irscope.analysis.passes import pass_effects
from irscope.store.passdump import load_dump
path = Path(sys.argv[1])
dump = load_dump(path.parent, "llvm" if ".llvm." in path.name else "mlir")
print(json.dumps([[e.index, e.step, e.summary] for e in pass_effects(dump)]))
"""


def _tables(dump: Path, seeds: tuple[str, ...]) -> list[list[list[object]]]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])}
    out = []
    for seed in seeds:
        done = subprocess.run([sys.executable, "-c", _TABLE, str(dump)], capture_output=True, text=True, check=True,
                              env={**env, "PYTHONHASHSEED": seed}, cwd=REPO)
        out.append(json.loads(done.stdout))
    return out


def test_mlir_pass_summaries_do_not_depend_on_the_hash_seed(pass_dumps: PassDumps) -> None:
    """``ops arith -1, tt -1, ub -1``: dialects with equal counts used to come in hash order."""
    dump = pass_dumps("matmul", "sm90")
    tables = _tables(dump.path, ("0", "1", "2", "3"))
    assert all(t == tables[0] for t in tables[1:])
    summaries = [s for _, _, s in tables[0]]
    assert any(s.startswith("ops ") or ", ops " in s or "; ops " in s for s in summaries)


def test_llvm_pass_summaries_do_not_depend_on_the_hash_seed(captures: object, shared_store: Path) -> None:
    """``or -2, add -2, xor -2``: LLVM instructions with equal moves used to come in hash order."""
    result = CliRunner().invoke(cli, ["passes", "vector_add", "--target", "sm80", "--llvm", "--json", "--all",
                                      "--store", str(shared_store)])
    assert result.exit_code == 0, result.output
    tables = _tables(Path(json.loads(result.stdout)["dump"]), ("0", "1", "2", "3"))
    assert all(t == tables[0] for t in tables[1:])
    assert any("instructions" in s for _, _, s in tables[0])
