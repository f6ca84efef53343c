"""Corpus driver: Triton's tutorials and Gluon tutorials, each file run as ``__main__`` from $CORPUS_TUTORIALS.

The folder is a ``python/tutorials`` of triton-lang/triton (files ``NN-*.py`` and ``gluon/NN-*.py``). Each file
is one case. Offline nothing runs on a GPU, so the timing parts are skipped: ``triton.testing.Mark.run``
(``@perf_report`` benchmarks) returns at once and ``do_bench`` calls the function once; what the tutorial
launches for its correctness check is what gets captured. No kernel computes anything offline, so the
tutorials' comparisons with torch (``torch.allclose``, ``torch.testing.assert_close``) are answered "equal":
a check that the offline capture cannot pass is not the tutorial's failure.
"""

from __future__ import annotations

import os
import re
import runpy
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _harness import case, main

FOLDER = Path(os.environ.get("CORPUS_TUTORIALS", "."))


def _offline_timing() -> None:
    import triton.testing

    def bench_once(fn: Any, *args: Any, **kwargs: Any) -> Any:
        fn()
        quantiles = kwargs.get("quantiles")
        return [1.0] * len(quantiles) if quantiles else 1.0

    triton.testing.Mark.run = lambda *args, **kwargs: None  # type: ignore[method-assign]
    triton.testing.do_bench = bench_once
    triton.testing.do_bench_cudagraph = bench_once  # type: ignore[assignment]


def _offline_checks() -> None:
    import torch

    torch.allclose = lambda *args, **kwargs: True
    torch.testing.assert_close = lambda *args, **kwargs: None


def _register(path: Path) -> None:
    def run() -> None:
        _offline_timing()
        _offline_checks()
        sys.argv = [str(path)]
        try:
            runpy.run_path(str(path), run_name="__main__")
        except SystemExit as exc:
            if exc.code not in (None, 0):
                raise RuntimeError(f"{path.name} exited with status {exc.code}") from exc
    case(f"{path.parent.name}/{path.name}")(run)


for _path in sorted(FOLDER.glob("*.py")) + sorted(FOLDER.glob("gluon/*.py")):
    if re.match(r"\d\d-", _path.name):
        _register(_path)


if __name__ == "__main__":
    sys.exit(main())
