"""One case of the foreign validation set (tests/data/perf_foreign/fit, the half the model may be fitted on; the
``foreign`` fixture in conftest): its capture, launch, perf. The held-out half is tests/data/perf_foreign/test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from irscope.analysis.perf.capture import capture_perf
from irscope.analysis.perf.device import device_model
from irscope.analysis.perf.predict import PerfReport
from irscope.model.gpus import resolve_gpu
from irscope.model.launch import LaunchShape, TensorBytes
from irscope.store.store import Capture, Store

FOREIGN = Path(__file__).resolve().parent / "data" / "perf_foreign"
DATA = FOREIGN / "fit"  # the fit half: the causes and misses tests read it
TEST = FOREIGN / "test"  # the held-out half: only test_perf_foreign scores it


def case_of(foreign: tuple[Store, list[dict[str, Any]]], case: str, kernel: str = ""
          ) -> tuple[Capture, LaunchShape, dict[str, Any]]:
    store, entries = foreign
    entry = next(e for e in entries if e["case"].startswith(case) and e["kernel"].startswith(kernel))
    tensors = tuple(TensorBytes(t["name"], int(t["nbytes"]), t.get("role", "inout")) for t in entry["tensors"])
    return store.get(entry["capture"]), LaunchShape(tuple(entry["grid"]), dict(entry["values"]), tensors), entry


def perf_of(foreign: tuple[Store, list[dict[str, Any]]], case: str, kernel: str = ""
          ) -> tuple[PerfReport, dict[str, Any]]:
    capture, shape, entry = case_of(foreign, case, kernel)
    gpu = resolve_gpu("h200", "sm90")
    assert gpu is not None
    return capture_perf(capture, device_model(gpu), shape), entry
