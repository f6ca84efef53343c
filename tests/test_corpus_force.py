"""``run.py capture --force`` captures a run again from an empty store: nothing of the run before survives."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks" / "corpus"))
from capture import Layout, capture
from sources import Source


def test_a_run_captured_again_keeps_no_capture_of_the_run_before(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # The key of a capture is its content's: made again, an old capture of the same key would keep its old
    # launches (the fused-softmax tutorial's grid, noted only since), so perf would still ask for --grid.
    driver = tmp_path / "driver.py"
    driver.write_text("print('no kernel')\n")
    monkeypatch.setattr(Source, "driver_path", property(lambda self: driver))
    layout = Layout(tmp_path / "corpus")
    stale = layout.run_dir("empty", "sm90") / "store" / "captures" / "k-sm90-c0-p-0123"
    stale.mkdir(parents=True)
    (stale / "manifest.json").write_text("{}")
    capture(Source("empty", (), "driver.py"), "sm90", layout, 1, 300, None, None)
    log = (layout.run_dir("empty", "sm90") / "capture.log").read_text()
    assert "the program compiled no Triton kernel" in log, log  # the old one is not counted as this run's
    assert not stale.exists()
    assert json.loads((layout.run_dir("empty", "sm90") / "capture.json").read_text())["captured"] == 0
