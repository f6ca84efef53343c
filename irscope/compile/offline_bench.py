"""Benchmarks that never run: what the offline driver answers when a library times its configs.

Offline nothing runs, so nothing can be timed. A library's own autotuner (flag-gems' ``LibTuner``, a
subclass of Triton's ``Autotuner`` with its own ``run`` and ``policy``) still benchmarks each config it
considers and picks the fastest; for its control flow to go on, each benchmark calls the kernel once (a
launch compiles, never runs) and returns timings that keep the order of the calls: the first config timed
is the "fastest". The capture's tuning line says so. These values are not measurements: a tuning
database that would keep them is pointed into the capture session (``TUNING_CACHES``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

# Environment variables naming a library's persistent tuning cache -> what it is. Offline they point into the
# capture session, so timings made up here never reach a database that a later run on a GPU would trust.
TUNING_CACHES = {"FLAGGEMS_CACHE_DIR": "flag-gems' tuned-config database"}

_CALLS = [0]
_LOCK = threading.Lock()
FIRST_MS = 1.0  # the made-up time of the first config timed; each later one takes 1 ms more


def next_time_ms() -> float:
    """The made-up time of the next benchmark: 1 ms, 2 ms, ... in the order the benchmarks are asked for."""
    with _LOCK:
        _CALLS[0] += 1
        return FIRST_MS + _CALLS[0] - 1


def calls() -> int:
    """How many benchmarks were asked for so far in this process."""
    with _LOCK:
        return _CALLS[0]


def timings(ms: float, quantiles: Sequence[float] | None = None, return_mode: str = "mean") -> Any:
    """``ms`` in the shape ``triton.testing.do_bench`` returns: one per quantile, a list for ``all``, else a float."""
    if quantiles is not None:
        return [ms for _ in quantiles]
    return [ms] if return_mode == "all" else ms


def do_bench(fn: Callable[[], Any], warmup: Any = None, rep: Any = None, grad_to_none: Any = None,
             quantiles: Sequence[float] | None = None, return_mode: str = "mean", **_: Any) -> Any:
    """``triton.testing.do_bench`` offline: call ``fn`` once (its launches compile) and return an ordered time."""
    fn()
    return timings(next_time_ms(), quantiles, return_mode)


class OfflineBenchmarker:
    """``driver.active.get_benchmarker()`` offline: the same as :func:`do_bench`."""

    def __call__(self, kernel_call: Callable[[], Any], *, quantiles: Sequence[float] | None = None,
                 **kwargs: Any) -> Any:
        """Call the kernel once (it compiles) and return an ordered time."""
        return do_bench(kernel_call, quantiles=quantiles, **kwargs)


class EmptyCache:
    """The buffer a benchmark flushes the L2 cache with: offline there is no cache, so it holds nothing."""

    def zero_(self) -> EmptyCache:
        """Nothing to clear."""
        return self


class NotLaunched:
    """What a launch returns offline in place of Triton's ``CompiledKernel``: launching it again runs nothing.

    flag-gems' ``LibEntry`` keeps the kernel its first launch returned and launches it directly
    (``kernel[grid](*args)``) on later calls; offline that launch, like every other, runs nothing.
    """

    def __init__(self, name: str) -> None:
        self.name = name

    def __getitem__(self, grid: Any) -> Callable[..., None]:
        """A launch over ``grid`` that runs nothing."""
        return lambda *args, **kwargs: None

    def run(self, *args: Any, **kwargs: Any) -> None:
        """A launch that runs nothing."""

    def __getattr__(self, attr: str) -> Any:
        raise AttributeError(f"{self.name} was compiled offline by irscope capture --target in a compile worker; "
                             f"its {attr!r} is not in this process (read the capture with irscope show)")

    def __repr__(self) -> str:
        return f"NotLaunched({self.name!r})"
