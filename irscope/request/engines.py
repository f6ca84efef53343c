"""Where the plain-data jobs of ``facts``/``check`` run: local worker processes, or a Dask cluster.

``--engine local`` (the default) is a process pool on this machine. ``--engine dask`` starts a Dask
``LocalCluster`` of ``-j`` single-threaded worker processes; ``--engine dask=tcp://HOST:8786`` sends
the jobs to the scheduler of a running cluster. Either way each job is ``factsfile.run_job`` on plain
data (kernel, target, config, launch), so a worker needs only irscope, its Triton and the kernel's
files; what comes back is plain data too. Dask is imported only when it is asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from irscope.errors import UsageError

ENGINES = ("local", "dask")
# Dask settings for the LocalCluster made here. A job is one long compile on the worker's task thread; the
# worker's event loop and monitors wake every 10-100 ms by default (stack sampling, loop health ticks, memory
# polls), each time taking the GIL from Triton's Python front end, so they run seldom here. glibc keeps its own
# malloc trimming (Dask's 64 KiB threshold makes an allocation-heavy LLVM/ptxas compile return memory constantly).
_QUIET = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s",
          "distributed.admin.system-monitor.interval": "2s", "distributed.admin.system-monitor.disk": False,
          "distributed.admin.system-monitor.gil.enabled": False, "distributed.worker.memory.monitor-interval": "1s",
          "distributed.nanny.pre-spawn-environ": {"MALLOC_TRIM_THRESHOLD_": None}}


@dataclass(frozen=True)
class Engine:
    """Which engine runs the jobs.

    Attributes:
        kind: ``local`` (a process pool here) or ``dask``.
        address: a Dask scheduler's address (``tcp://10.0.0.5:8786``); empty: a LocalCluster made here.
    """

    kind: str = "local"
    address: str = ""

    def describe(self, workers: int) -> str:
        """``dask (a local cluster of 2 workers)``."""
        if self.kind == "local":
            return f"local ({workers} worker processes)"
        return f"dask ({self.address})" if self.address else f"dask (a local cluster of {workers} workers)"


def parse_engine(text: str) -> Engine:
    """``local``, ``dask`` or ``dask=ADDRESS``; UsageError naming the valid forms otherwise."""
    kind, sep, address = text.strip().partition("=")
    kind = kind.strip().lower()
    if kind not in ENGINES or (kind == "local" and sep) or (sep and not address.strip()):
        raise UsageError(f"--engine {text!r} is not an engine; give local, dask (a local cluster) or "
                         "dask=ADDRESS (a running scheduler, e.g. dask=tcp://10.0.0.5:8786)")
    return Engine(kind=kind, address=address.strip())


def _distributed() -> Any:
    """The ``distributed`` module, or one line saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise UsageError("--engine dask needs Dask's distributed scheduler; install it with "
                         "pip install 'irscope[dask]' (or pip install 'dask[distributed]')") from None
    return distributed


def run_on_dask(run: Callable[..., dict[str, Any]], jobs: Sequence[dict[str, Any]], store: str, triton: str | None,
                workers: int, address: str, progress: Callable[[int], None] | None = None,
                facts: bool = True) -> list[dict[str, Any]]:
    """``run(job, store=, triton=, facts=)`` for each plain-data job on a Dask cluster (a LocalCluster of
    ``workers`` processes when no address); the results in job order.

    ``run`` is a module-level function (``factsfile.run_job``), sent to the workers by reference. The
    ``store`` is the path each worker writes its captures to: on a cluster of several machines, a shared
    folder, or a local one whose captures stay there.
    """
    distributed = _distributed()

    import dask

    cluster = None
    try:
        if address:
            client = distributed.Client(address, timeout="10s")
        else:
            # The Nanny hands this config to the worker processes it starts.
            with dask.config.set(_QUIET):
                cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                                   dashboard_address=None, silence_logs=40)
            client = distributed.Client(cluster)
    except OSError as exc:
        raise UsageError(f"--engine dask={address}: no Dask scheduler answers there ({exc})") from None
    try:
        futures = client.map(run, list(jobs), store=store, triton=triton, facts=facts, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        results: dict[int, dict[str, Any]] = {}
        for future in distributed.as_completed(futures):
            i = index[future.key]
            try:
                results[i] = future.result()
            except Exception as exc:  # a worker that died or a job the worker could not unpickle
                results[i] = {"error": f"the Dask worker failed: {type(exc).__name__}: {exc}"}
            if progress:
                progress(i)
        return [results[i] for i in range(len(jobs))]
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
