"""The corpus asks ``show`` for the stages a capture has: a Gluon kernel's first IR is its glir, not a ttir."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from irscope.store.store import Store
from tests.conftest import REPO, invoke
from tests.test_gluon import _capture_program

sys.path.insert(0, str(REPO / "benchmarks" / "corpus"))
from commands import stages


@pytest.mark.compile
def test_show_is_asked_only_for_stages_a_gluon_capture_has(tmp_path: Path) -> None:
    # A Gluon kernel in the style of Triton's Gluon tutorials (their captures have no ttir), captured for sm90.
    proc = _capture_program(tmp_path, "sm90")
    assert proc.returncode == 0, proc.stderr
    (capture,) = [c for c in Store(tmp_path).captures() if c.manifest.kernel == "transpose_kernel"]
    manifest = json.loads((capture.path / "manifest.json").read_text())
    assert stages(manifest) == ("source", "glir", "ttgir", "llir", "ptx", "sass")
    for stage in stages(manifest):
        shown = invoke("show", capture.manifest.key, "--stage", stage, store=tmp_path)
        assert shown.exit_code == 0, (stage, shown.output)
    assert stages({"backend": "hip", "files": {"ttir": "k.ttir"}}) == ("source", "ttir", "ttgir", "llir", "amdgcn")
