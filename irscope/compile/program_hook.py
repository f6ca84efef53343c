"""Inside a program run by ``irscope capture``: record every kernel Triton compiles.

Triton's compilation listener (``knobs.compilation.listener``) sees every ``triton.compile``,
from ``@triton.jit`` launches and from torch.compile/Inductor alike, with the source, the
specialization, the options and the paths of the artifacts in the (redirected) cache. Each one
becomes a JSON record in the session directory; the parent ``irscope capture`` turns records into
store captures.

Its settings come in one environment variable (``IRSCOPE_CAPTURE``, a ``records.HookSettings``), and each
record it writes is a ``records.LaunchRecord``. With a target in the settings (``--target``, no GPU needed),
Triton's driver is replaced by a stand-in that reports that target, launches compile but never run (the JIT
cache hook hands each launch's specialization to a pool of forked compilers, ``compile_pool``, and skips the
launch), and autotuners compile the configs ``autotune_policy`` chooses (``--autotune``).
"""

from __future__ import annotations

import dataclasses
import inspect
import shutil
import traceback
from pathlib import Path
from typing import Any

from irscope.compile.records import GpuTarget, LaunchRecord, SameCodeNote, hook_settings

# The session's records and this thread's autotune config live in a module of their own, which the
# autotuner policy and the device stand-in write to without importing this hook.
from irscope.compile.session import _STATE as _STATE
from irscope.compile.session import config_values, jsonable, session_folder, set_config, write_record

_POOL: list[Any] = []  # the offline CompilePool, once installed
_START_ENV: dict[str, str] = {}  # the environment before the program ran: what it set itself is the difference


def program_environ() -> dict[str, str]:
    """The environment variables the program set itself (flag-gems' ``GEMS_VENDOR``), for its kernels' replays."""
    import os

    from irscope.compile.offline_bench import TUNING_CACHES

    if not _START_ENV:
        return {}
    return {k: v for k, v in os.environ.items() if _START_ENV.get(k) != v and k not in TUNING_CACHES
            and not k.startswith(("TRITON_", "IRSCOPE_")) and len(v) <= 1000}


def encode_constant(value: Any) -> Any:
    """A constexpr value as typed JSON, so the compile can be replayed exactly later."""
    kind = type(value).__name__
    if isinstance(value, bool):
        return {"bool": value}
    if isinstance(value, int):
        return {"int": value}
    if isinstance(value, float):
        return {"float": value}
    if isinstance(value, str):
        return {"str": value}
    if value is None:
        return {"none": True}
    if kind == "constexpr":
        return {"constexpr": encode_constant(value.value)}
    if kind == "dtype" or (kind.endswith("_type") and hasattr(value, "name")):
        return {"dtype": str(value)}
    if isinstance(value, (tuple, list)):
        return {"tuple": [encode_constant(v) for v in value]}
    from irscope.compile.gluon_layouts import encode_layout, is_layout

    if is_layout(value):  # a @gluon.jit kernel's layout constexpr
        return {"layout": encode_layout(value)}
    return {"unsupported": repr(value)}


def _replay(src: Any, metadata: dict[str, Any]) -> dict[str, Any]:
    """What a later compile needs to rebuild this exact ASTSource: signature, constants, attrs, options."""
    py = getattr(getattr(src, "fn", None), "fn", None)
    return {
        "module": str(getattr(py, "__module__", "") or ""),  # resolves the source's relative imports on replay
        "file": getattr(getattr(py, "__code__", None), "co_filename", ""),  # the IR's locations name this file
        "signature": {k: str(v) for k, v in (getattr(src, "signature", {}) or {}).items()},
        "constants": [[list(k) if isinstance(k, tuple) else [k], encode_constant(v)]
                      for k, v in (getattr(src, "constants", {}) or {}).items()],
        "attrs": [[list(k) if isinstance(k, tuple) else [k], jsonable(v)]
                  for k, v in (getattr(src, "attrs", {}) or {}).items()],
        "options": {k: jsonable(v) for k, v in metadata.items() if k not in ("target", "hash", "name")},
        "environ": program_environ(),
    }


def _listener(*, src: Any, metadata: dict[str, Any], metadata_group: dict[str, str], times: Any = None,
              cache_hit: bool = False, **_: Any) -> None:
    """Record one compilation (never raises into Triton)."""
    try:
        _record(src, metadata, metadata_group, times, cache_hit)
    except Exception:  # a recording failure must not break the user's program; it is reported instead
        write_record("failures", {"name": metadata.get("name", "?"), "error": traceback.format_exc(limit=3)})


def _record(src: Any, metadata: dict[str, Any], metadata_group: dict[str, str], times: Any, cache_hit: bool) -> None:
    write_record("records", _launch_record(src, metadata, metadata_group, times, cache_hit))


def _launch_record(src: Any, metadata: dict[str, Any], metadata_group: dict[str, str], times: Any,
                   cache_hit: bool) -> LaunchRecord:
    """One compile's record: what it compiled (source, specialization, config), its metadata and files."""
    from triton import knobs

    fn = getattr(src, "fn", None)
    py = getattr(fn, "fn", None)
    source_file = ""
    if py is not None:
        try:
            source_file = inspect.getsourcefile(py) or ""
        except TypeError:
            source_file = ""
    digest = str(metadata.get("hash", ""))
    sources = session_folder() / "sources"
    sources.mkdir(parents=True, exist_ok=True)
    kept_source = ""
    if source_file and Path(source_file).is_file():
        kept = sources / f"{digest}.py"
        shutil.copyfile(source_file, kept)  # Inductor's generated files may vanish after the run
        kept_source = str(kept)
    dump = None
    if hasattr(src, "hash"):
        from triton.runtime import cache as triton_cache

        folder = getattr(triton_cache, "_base32", None)  # Triton 3.9 names dump folders by base32 of the hash
        dump = Path(knobs.cache.dump_dir) / (folder(src.hash()) if folder else src.hash())
    target = metadata.get("target")
    stage_seconds: dict[str, float] = {}
    if times is not None:
        stage_seconds["ir_init"] = times.ir_initialization / 1e6
        stage_seconds.update({name: micros / 1e6 for name, micros in times.lowering_stages})
    signature = getattr(src, "signature", {}) or {}
    names = list(signature)

    def label(path: Any) -> str:
        path = tuple(path) if isinstance(path, (list, tuple)) else (path,)
        head = names[path[0]] if path and isinstance(path[0], int) and path[0] < len(names) else str(path)
        return head + "".join(f"[{i}]" for i in path[1:])

    config_index, config = _current_config(src, metadata, label)
    settings = hook_settings()
    return LaunchRecord(
        name=str(metadata.get("name") or getattr(src, "name", "?")),
        hash=digest,
        target=GpuTarget(backend=target.backend, arch=target.arch, warp_size=target.warp_size)
        if target is not None else None,
        config_index=config_index,
        config=config,
        qualname=str(getattr(py, "__qualname__", "")),
        source_file=source_file,
        kept_source=kept_source,
        triton_version=str(metadata.get("triton_version", "")),
        signature={k: str(v) for k, v in signature.items()},
        constexprs={label(k): jsonable(v) for k, v in (getattr(src, "constants", {}) or {}).items()},
        attrs={label(k): jsonable(v) for k, v in (getattr(src, "attrs", {}) or {}).items() if v},
        metadata={k: jsonable(v) for k, v in metadata.items() if k != "target"},
        files=dict(metadata_group),
        dump_dir=str(dump) if dump else "",
        stage_seconds=stage_seconds,
        cache_hit=cache_hit,
        replay=_replay(src, metadata),
        offline=settings is not None and settings.target is not None,
        autotune=getattr(_STATE, "autotune", None) or {},
        launch_key=getattr(_STATE, "compiling_spec", "") or "",
    )


def _matches(config: Any, constants: dict[str, Any], metadata: dict[str, Any]) -> bool:
    """Whether a compile with these constexprs and metadata is this config's."""
    for name, value in config.kwargs.items():
        if name in constants and jsonable(constants[name]) != jsonable(value):
            return False
    for option in ("num_warps", "num_stages", "num_ctas", "maxnreg"):
        value = getattr(config, option, None)
        if value is not None and option in metadata and metadata[option] != value:
            return False
    return True


def _current_config(src: Any, metadata: dict[str, Any], label: Any) -> tuple[int | None, dict[str, Any]]:
    """Which autotune config this compile belongs to: the one being compiled (offline), else the one that matches."""
    explicit = getattr(_STATE, "config", None)
    if explicit is not None:
        return explicit
    tuner = getattr(_STATE, "autotuner", None)
    tuned = getattr(tuner, "fn", None)
    while tuned is not None and not hasattr(tuned, "params") and hasattr(tuned, "fn"):
        tuned = tuned.fn  # through @triton.heuristics to the JITFunction
    if tuner is None or tuned is not getattr(src, "fn", None):
        return None, {}  # not the autotuned kernel (one its hooks launch, say)
    constants = {label(k): v for k, v in (getattr(src, "constants", {}) or {}).items()}
    for index, config in enumerate(tuner.configs):
        if _matches(config, constants, metadata):
            return index, config_values(config)
    return None, {}


class OfflineDriver:
    """Stands in for Triton's GPU driver on a machine without the target GPU: compiles, never runs."""

    def __init__(self, target: Any) -> None:
        self.target = target
        self.backend = target.backend

    def is_active(self) -> bool:
        """Always: this is the driver irscope installed."""
        return True

    def get_current_target(self) -> Any:
        """The target irscope was asked to compile for."""
        return self.target

    def get_current_device(self) -> int:
        """Device 0."""
        return 0

    def set_current_device(self, device: int) -> None:
        """Nothing to select."""

    def get_current_stream(self, device: int | None = None) -> int:
        """A null stream."""
        return 0

    def get_active_torch_device(self) -> Any:
        """``cuda:0``, as on a GPU: the stand-in's torch-function mode keeps tensors made there on the CPU."""
        import torch

        return torch.device("cuda", 0)

    def get_device_interface(self) -> Any:
        """torch.cuda, for code that asks (it is not used to launch anything)."""
        import torch

        return torch.cuda

    def get_benchmarker(self) -> Any:
        """A benchmark that never runs: it launches (compiles) once and returns a time in call order."""
        from irscope.compile.offline_bench import OfflineBenchmarker

        return OfflineBenchmarker()

    def get_empty_cache_for_benchmark(self) -> Any:
        """The buffer ``do_bench`` flushes the L2 cache with: offline, one that holds nothing."""
        from irscope.compile.offline_bench import EmptyCache

        return EmptyCache()

    def clear_cache(self, cache: Any) -> None:
        """Nothing to flush: nothing runs."""

    def map_python_to_cpp_type(self, ty: str) -> str:
        """The C type of a Triton type, from the real driver's table."""
        import importlib

        from irscope.compile.standin_faults import cannot

        module = importlib.import_module("triton.backends.nvidia.driver" if self.backend == "cuda"
                                         else "triton.backends.amd.driver")
        table = getattr(module, "ty_to_cpp", None)
        if table is None:
            cannot("driver.active.map_python_to_cpp_type", "this Triton's driver has no ty_to_cpp table")
        return str(table(ty))

    def __getattr__(self, name: str) -> Any:
        from irscope.compile.standin_faults import cannot, has_no

        if name == "launcher_cls":
            cannot("driver.active.launcher_cls", "it launches on the GPU, and offline nothing runs")
        raise has_no("driver.active", name)


def _offline_cache_hook(*, key: Any, fn: Any, compile: dict[str, Any], is_manual_warmup: bool = False,
                        **_: Any) -> bool:
    """Hand the launch's specialization to the compile pool, then tell the JIT to skip the launch.

    A ``warmup()`` wants the compiled kernel back (its registers, its metadata): it compiles here, in full.
    """
    if getattr(_STATE, "inside", False):
        return False  # the preload in _preload: let the JIT compile
    from irscope.compile.compile_pool import PreloadJob
    from irscope.compile.launch_notes import spec_key

    jit = fn.jit_function
    _STATE.launch_spec = spec_key(compile["specialization_data"])
    job = PreloadJob(kernel=f"{fn.module}:{fn.name}", specialization=compile["specialization_data"],
                     config=getattr(_STATE, "config", None), autotune=getattr(_STATE, "autotune", None) or {})
    if is_manual_warmup:
        _STATE.warm = _preload(jit, job, full=True)
        _STATE.warm_launch = (jit, _STATE.launch_spec)
        return True
    _POOL[0].submit(jit, job)
    return True


def _preload(jit: Any, job: Any, full: bool = False) -> Any:
    """Compile one job through the JIT's own preload path (its record is written by the listener).

    Returns the compiled kernel, or None when the compile failed or stopped early; ``full``: never stop after
    TTGIR when another compile makes the same code (the caller needs the binary).
    """
    from triton.runtime import driver

    from irscope.compile import gluon_layouts, same_code
    from irscope.compile.launch_notes import spec_key

    outer = (getattr(_STATE, "config", None), getattr(_STATE, "autotune", None))
    _STATE.inside = True
    _STATE.compiling_spec = spec_key(job.specialization)
    set_config(job.config, job.autotune)
    compile_fn = None
    try:
        jit.device_caches[driver.active.get_current_device()]  # builds the binder (it sets jit.compile) if not yet
        compile_fn = jit.__dict__.get("compile")
        if compile_fn is not None:  # else no ASTSource would reach an alias record: every compile runs in full
            jit.compile = _naming_source(compile_fn)
        _STATE.may_stop = compile_fn is not None and not full
        same_code.mark_compile_start()
        with gluon_layouts.decoding_preload(jit):  # a Gluon kernel's layout constexprs, as objects again
            return jit.preload(job.specialization)
    except same_code.SameCode as same:  # stopped after TTGIR: another compile makes the same code
        _write_alias(same)
    except Exception as exc:  # reported as not captured; the program goes on
        write_record("failures", {"name": getattr(jit, "__name__", "?"), "error": f"{type(exc).__name__}: {exc}"})
    finally:
        if compile_fn is not None:
            jit.compile = compile_fn
        _STATE.inside = _STATE.may_stop = False
        _STATE.compiling_spec = ""
        set_config(*outer)  # in the program's own process (the first job), its autotuner loop goes on
        for caches in jit.device_caches.values():
            caches[0].clear()  # keep the compiled kernel out of the JIT cache: a later launch must not run it
    return None


def _naming_source(compile_fn: Any) -> Any:
    """JITFunction.compile, handing its ASTSource to a SameCode that stops it (the alias record needs it)."""
    from irscope.compile.same_code import SameCode

    def compile(src: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return compile_fn(src, *args, **kwargs)
        except SameCode as same:
            same.src = src
            raise

    return compile


def _write_alias(same: Any) -> None:
    """The ``aliases`` record of a compile stopped after TTGIR: its own record so far, and whose code it shares."""
    from irscope.compile.same_code import own_early_files

    text = session_folder() / "same-code" / f"{same.digest}.ttgir"
    text.write_text(same.ttgir, encoding="utf-8")
    record = _launch_record(same.src, same.metadata, own_early_files(same.digest), None, False)
    write_record("aliases", dataclasses.replace(record, stage_seconds=same.stage_seconds,
                                                same_code=SameCodeNote(owner=same.owner, key=same.key,
                                                                       ttgir=str(text))))


def _tracking_run(run: Any) -> Any:
    """Autotuner.run on a GPU, remembering which autotuner is running so compiles can name their config."""

    def tracked(self: Any, *args: Any, **kwargs: Any) -> Any:
        outer = getattr(_STATE, "autotuner", None)
        _STATE.autotuner = self
        try:
            return run(self, *args, **kwargs)
        finally:
            _STATE.autotuner = outer

    return tracked


def install() -> None:
    """Install the listener (and, offline, the stand-in driver); called from the sitecustomize shim.

    Raises RecordRefused (nothing installed) when the capture settings are of another version or unreadable.
    """
    settings = hook_settings()
    if settings is None:
        return
    import os

    _START_ENV.update(os.environ)
    from triton import knobs

    from irscope.compile.listener_chain import install as install_listener

    install_listener(_listener, lambda note: write_record("notes", note))  # chained with any listener the program sets
    from irscope.compile import standin_faults

    standin_faults.install()  # a program that dies says whose fault it was (program.py reports it)
    target = settings.target
    if target is None:
        from triton.runtime.autotuner import Autotuner

        Autotuner.run = _tracking_run(Autotuner.run)
    else:
        from triton.backends.compiler import GPUTarget
        from triton.runtime import driver
        from triton.runtime.autotuner import Autotuner

        from irscope.compile import cpu_refusal, device_standin, gpu_tools

        offline = OfflineDriver(GPUTarget(target.backend, target.arch, target.warp_size))
        driver.set_active(offline)
        from triton.backends import backends

        from irscope.compile import same_code

        for backend in backends.values():  # the one whose compiler supports the target compiles
            same_code.install(backend.compiler)
        from irscope.compile import gluon_layouts

        gluon_layouts.install()  # a launch's layout constexprs reach the cache hook as JSON
        gpu = device_standin.install(offline, target)  # device queries answered as the target's GPU would
        if gpu is not None:  # nvidia-smi / rocm-smi, which libraries run to find their vendor
            gpu_tools.install(gpu, Path(settings.session) / "gpu-tools")
        cpu_refusal.install()  # a library that refuses the stand-in's CPU tensors: the failure says so
        import atexit

        from irscope.compile import compile_pool, triton_warm
        from irscope.compile.autotune_policy import offline_run

        triton_warm.import_compile_modules()
        locks = session_folder() / compile_pool.WORKERS_FOLDER
        locks.mkdir(parents=True, exist_ok=True)
        _POOL.append(compile_pool.CompilePool(settings.jobs, _preload,
                                              warm_up=lambda: triton_warm.warm_triton(offline.target), locks=locks))
        atexit.register(_POOL[0].release)
        knobs.runtime.jit_cache_hook = _offline_cache_hook
        Autotuner.run = offline_run
        _install_offline_benchmarks(Autotuner, settings.session)
        _START_ENV.update(os.environ)  # what the hook itself set (the stand-in tools on PATH) is not the program's


def _install_offline_benchmarks(autotuner: type, session: str) -> None:
    """Offline: benchmarks compile and return ordered times, launches return a stand-in, tuning caches stay here."""
    import os

    import triton.testing
    from triton.runtime.jit import JITFunction

    from irscope.compile import autotune_subclass, launch_notes, offline_bench, offline_warmup

    autotune_subclass.install(autotuner)
    triton.testing.do_bench = offline_bench.do_bench
    for name in offline_bench.TUNING_CACHES:  # made-up timings must not reach a database a GPU run trusts
        os.environ[name] = str(Path(session) / "tuning-caches" / name.lower())
    launch = JITFunction.run

    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        _STATE.launch_spec = _STATE.warm = None
        kernel = launch(self, *args, **kwargs)
        if kernel is None and _STATE.warm is not None:  # warmup(): the kernel compiled here, never loaded
            return offline_warmup.WarmKernel(_STATE.warm, *_STATE.warm_launch)
        if kernel is None:
            launch_notes.note_launch(self, args, kwargs)  # the grid the skipped launch would have run
        return offline_bench.NotLaunched(getattr(self, "__name__", "?")) if kernel is None else kernel

    JITFunction.run = run
