"""Which of an autotuner's configs ``irscope capture --target`` compiles, and why the others are not.

On a GPU, ``Autotuner.run`` looks the tuning key up in its cache (FLA's ``CachedAutotuner`` fills it
from config files named after the GPU), else prunes its configs with Triton's own
``Autotuner.prune_configs`` (``early_config_prune``, then ``perf_model`` keeping ``top_k``) and
benchmarks the survivors. Offline nothing can be benchmarked, so the modes are:

- ``pruned`` (default): the configs the autotuner would benchmark on the target, found by calling
  its own ``prune_configs`` (a pruning function that fails offline keeps every config, and says so);
- ``first``: only the first of those (for a ``perf_model``, the best estimate);
- ``all``: every config, no pruning function called.

A config's own ``pre_hook`` is called before its launch, as Triton calls it before each launch of that config: it
may set what the compile depends on (FlagGems' Hopper mm sets its TMA descriptors' block shapes there). The
autotuner's ``reset_to_zero`` / ``restore_value`` hooks only reset tensors between benchmark runs; nothing is
benchmarked offline, so they are not called.
"""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass, field
from typing import Any

MODES = ("pruned", "first", "all")


@dataclass(frozen=True)
class ConfigChoice:
    """The configs of one autotuner for one tuning key: which are compiled and why the rest are not.

    Attributes:
        kernel: the autotuned kernel's name.
        mode: ``pruned``, ``first`` or ``all``.
        total: how many configs the autotuner holds.
        compiled: indexes of the configs compiled, in the order the autotuner would try them.
        pruned: index -> why that config is not compiled (``early_config_prune``, ``perf_model``, ...).
        notes: what did not go as on a GPU (a pruning function that failed offline, say).
    """

    kernel: str
    mode: str
    total: int
    compiled: tuple[int, ...]
    pruned: dict[int, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def summary(self) -> str:
        """One line: ``4 configs, 3 pruned by early_config_prune, 1 compiled``."""
        counts: dict[str, int] = {}
        for reason in self.pruned.values():
            cause = reason.split(" (", 1)[0]
            counts[cause] = counts.get(cause, 0) + 1
        parts = [f"{self.total} config{'s' if self.total != 1 else ''}"]
        parts += [f"{n} {cause}" for cause, n in counts.items()]
        parts.append(f"{len(self.compiled)} compiled")
        text = ", ".join(parts)
        return text + "".join(f"; {note}" for note in self.notes)

    def as_record(self) -> dict[str, Any]:
        """Plain JSON for the session record and the capture's manifest."""
        return {"kernel": self.kernel, "mode": self.mode, "configs": self.total, "compiled": list(self.compiled),
                "pruned": {str(k): v for k, v in sorted(self.pruned.items())}, "notes": list(self.notes),
                "summary": self.summary()}


class _PruneFailed(Exception):
    """A user pruning function raised offline."""

    def __init__(self, which: str, error: BaseException) -> None:
        super().__init__(which)
        self.which = which
        self.error = error


def capture_mode() -> str:
    """The mode ``irscope capture`` asked for in the hook's settings (``pruned`` when unset)."""
    from irscope.compile.records import hook_settings

    settings = hook_settings()
    mode = settings.autotune if settings is not None else "pruned"
    return mode if mode in MODES else "pruned"


def kernel_name(tuner: Any) -> str:
    """The name of the JIT function under an autotuner (through ``@triton.heuristics``)."""
    fn = getattr(tuner, "fn", None)
    while fn is not None and not hasattr(fn, "params") and hasattr(fn, "fn"):
        fn = fn.fn
    return str(getattr(fn, "__name__", "?"))


def tuning_key(tuner: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, ...]:
    """The key Triton's autotuner caches a choice under: the ``key`` arguments, then every tensor's dtype."""
    named = {**dict(zip(tuner.arg_names, args, strict=False)), **kwargs}
    named = {k: v for k, v in named.items() if k in tuner.arg_names}
    values = [named[k] for k in tuner.keys if k in named]
    values += [str(v.dtype) for v in named.values() if hasattr(v, "dtype")]
    return tuple(values)


def _index_of(config: Any, configs: list[Any]) -> int | None:
    """Which of the autotuner's configs this is (pruning functions may hand back equal copies)."""
    for index, candidate in enumerate(configs):
        if candidate is config:
            return index
    values = config.all_kwargs()
    for index, candidate in enumerate(configs):
        if candidate.all_kwargs() == values:
            return index
    return None


# Example: 'OfflineDriver' object has no attribute 'get_empty_cache_for_benchmark'
_LACKED = re.compile(r"^'(\w+)' object has no attribute '(\w+)'")


def failure_cause(exc: BaseException) -> dict[str, str]:
    """The ``cause`` (and ``missing``) of a failure record for a launch that raised offline.

    ``irscope`` when the offline driver lacked what was asked of it, ``triton`` for Triton's own errors,
    else ``program``.
    """
    missing = getattr(exc, "irscope_missing", None)  # the stand-in's own errors name what it lacks
    if isinstance(missing, str):
        return {"cause": "irscope", "missing": missing}
    lacked = _LACKED.match(str(exc)) if isinstance(exc, AttributeError) else None
    if lacked is not None and lacked.group(1) == "OfflineDriver":
        return {"cause": "irscope", "missing": f"driver.active.{lacked.group(2)}"}
    if type(exc).__module__.split(".")[0] == "triton":
        return {"cause": "triton"}
    return {"cause": "program"}


def _error_line(exc: BaseException) -> str:
    return traceback.format_exception_only(type(exc), exc)[-1].strip()


def _triton_pruning(tuner: Any, kwargs: dict[str, Any], configs: list[Any]
                    ) -> tuple[list[Any], dict[int, str], list[str]]:
    """Run the autotuner's own ``prune_configs``; return the survivors, why each other config went, notes."""
    early, perf = tuner.early_config_prune, tuner.perf_model
    seen: dict[str, Any] = {}

    def early_prune(*a: Any, **kw: Any) -> Any:
        try:
            out = early(*a, **kw)
        except Exception as exc:  # reported: the configs are kept
            raise _PruneFailed("early_config_prune", exc) from exc
        seen["early"] = list(out or [])  # a generator (gemlite's pruners) is read once: hand Triton the list
        return seen["early"]

    def perf_model(**kw: Any) -> Any:
        try:
            return perf(**kw)
        except Exception as exc:  # reported: the configs are kept
            raise _PruneFailed("perf_model", exc) from exc

    tuner.early_config_prune = early_prune if early is not None else None
    tuner.perf_model = perf_model if perf is not None else None
    notes: list[str] = []
    try:
        survivors = list(tuner.prune_configs(kwargs))
    except _PruneFailed as failed:
        kept = seen.get("early", configs) if failed.which == "perf_model" else configs
        what = "all configs" if len(kept) == len(configs) else f"the {len(kept)} configs early_config_prune left"
        notes.append(f"{failed.which} failed offline: {_error_line(failed.error)}; kept {what}")
        survivors = list(kept)
    except Exception as exc:  # Triton's own checks (top_k's type, an empty pruning); the configs are kept
        notes.append(f"Triton's pruning failed offline: {_error_line(exc)}; kept all configs")
        survivors = list(configs)
    finally:
        tuner.early_config_prune, tuner.perf_model = early, perf
    if not survivors:
        notes.append("pruning left no config (Triton would fail choosing among none); kept all configs")
        survivors = list(configs)
    early_left = {i for c in seen["early"] if (i := _index_of(c, configs)) is not None} if "early" in seen else None
    final = {i for c in survivors if (i := _index_of(c, configs)) is not None}
    top_k = getattr(tuner, "configs_top_k", None)
    reasons: dict[int, str] = {}
    for index in range(len(configs)):
        if index in final:
            continue
        if early_left is not None and index not in early_left:
            reasons[index] = "pruned by early_config_prune"
        else:
            reasons[index] = f"pruned by perf_model (top_k={top_k})"
    return survivors, reasons, notes


def choose_configs(tuner: Any, args: tuple[Any, ...], kwargs: dict[str, Any], mode: str
                   ) -> tuple[ConfigChoice, list[tuple[int, Any]]]:
    """The configs to compile for this launch (index and Config), and the choice to record.

    ``tuner.nargs`` must hold the launch's positional arguments by name, as ``Autotuner.run`` sets it.
    """
    configs = list(tuner.configs)
    name = kernel_name(tuner)
    if mode == "all" or len(configs) <= 1:
        return ConfigChoice(name, mode, len(configs), tuple(range(len(configs)))), list(enumerate(configs))
    cache = getattr(tuner, "cache", None)
    try:
        cached = cache.get(tuning_key(tuner, args, kwargs)) if isinstance(cache, dict) else None
    except TypeError:  # an unhashable key argument: Triton would fail here too; prune as if uncached
        cached = None
    notes: list[str] = []
    if cached is not None:
        # The autotuner already holds its choice for this key (FLA's config files for this GPU): no benchmark.
        survivors = [cached]
        reasons = {i: "skipped for the autotuner's cached choice" for i in range(len(configs))
                   if configs[i] is not cached and configs[i].all_kwargs() != cached.all_kwargs()}
    else:
        survivors, reasons, notes = _triton_pruning(tuner, kwargs, configs)
    chosen: list[tuple[int, Any]] = []
    made: list[str] = []
    extra = len(configs)
    for config in survivors:
        index = _index_of(config, configs)
        if index is None:  # a config the pruning function (or cache) made itself
            index, extra = extra, extra + 1
            made.append(f"config {index} ({config})")
        if all(index != i for i, _ in chosen):
            chosen.append((index, config))
    if made:  # one note: a pruner that builds its configs (gemlite's) makes dozens
        which = made[0] if len(made) == 1 else f"configs {len(configs)}-{extra - 1} (the first: {made[0]})"
        notes.append(f"{which} {'is' if len(made) == 1 else 'are'} not among the autotuner's configs; "
                     f"{'it' if len(made) == 1 else 'they'} came from "
                     f"{'its cache' if cached is not None else 'early_config_prune'}")
    if mode == "first":
        for index, _ in chosen[1:]:
            reasons[index] = "skipped by --autotune first"
        chosen = chosen[:1]
    choice = ConfigChoice(name, mode, len(configs), tuple(i for i, _ in chosen), reasons, tuple(notes))
    return choice, chosen


def config_pre_hook(tuner: Any, config: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Call ``config.pre_hook`` (if any) with the launch's arguments by name, as Triton does before launching it."""
    hook = getattr(config, "pre_hook", None)
    if hook is not None:
        hook({**dict(zip(tuner.arg_names, args, strict=False)), **kwargs, **config.all_kwargs()})


def offline_run(tuner: Any, *args: Any, **kwargs: Any) -> Any:
    """``Autotuner.run`` without a GPU: choose the configs as ``--autotune`` says, launch (compile) each, bench none.

    As after Triton's own run, ``best_config`` (and the cache, for this tuning key) hold the first config
    compiled, so code that reads them after a launch (flag-gems' ``LibEntry``) goes on.
    """
    from irscope.compile import session as hook
    from irscope.compile.offline_bench import NotLaunched

    tuner.nargs = dict(zip(tuner.arg_names, args, strict=False))
    result: Any = None
    try:
        try:
            key: Any = tuning_key(tuner, args, kwargs)
            hash(key)
        except TypeError:
            key = None
        memo = tuner.__dict__.setdefault("_irscope_choices", {})
        if key is not None and key in memo:
            choice, chosen = memo[key]  # Triton chooses once per tuning key
        else:
            choice, chosen = choose_configs(tuner, args, kwargs, capture_mode())
            if key is not None:
                memo[key] = (choice, chosen)
            hook.write_record("tuning", choice.as_record())
        tuner.__dict__["_irscope_offline_ran"] = True  # a subclass's run that called this one writes no record
        for index, config in chosen:
            hook.set_config((index, hook.config_values(config)), choice.as_record())
            try:
                config_pre_hook(tuner, config, args, kwargs)
                result = tuner.fn.run(*args, **kwargs, **config.all_kwargs())
            except Exception as exc:  # one config that does not compile must not hide the others
                hook.write_record("failures", {"name": choice.kernel, "error": f"config {index} ({config}): {exc}",
                                               **failure_cause(exc)})
            finally:
                hook.set_config(None, None)
        if chosen:
            tuner.best_config = chosen[0][1]
            if key is not None and isinstance(getattr(tuner, "cache", None), dict):
                tuner.cache.setdefault(key, chosen[0][1])
    finally:
        tuner.nargs = None
    return NotLaunched(choice.kernel) if result is None else result
