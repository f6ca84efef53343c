"""Autotuners with a ``run`` of their own (flag-gems' ``LibTuner``), offline: their configs recorded, none silent.

Triton's own ``Autotuner.run`` is replaced offline by ``autotune_policy.offline_run``. A subclass that
overrides ``run`` keeps its own: it prunes, benchmarks each config it considers through
``Autotuner._bench``, lets its policy choose and launches the choice. Offline, ``_bench`` compiles the
config instead of timing it (``offline_bench``: the timings keep the order the configs were benchmarked
in), and every launch of the tuned kernel during that ``run`` is matched to its config, so each compile
names its config and the tuning line says which configs were compiled, which were not, and why. A
subclass whose ``run`` benchmarks nothing through ``_bench`` gets a line saying that only the config it
launched was recorded.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from irscope.compile import offline_bench as bench
from irscope.compile.autotune_policy import (
    ConfigChoice,
    capture_mode,
    config_pre_hook,
    failure_cause,
    kernel_name,
    tuning_key,
)

WRAPPED = "_irscope_offline_run"  # marks a subclass's run that irscope has wrapped


@dataclass
class _Run:
    """What one call of a subclass's ``run`` did: the configs it benchmarked and launched, in order."""

    benched: list[int] = field(default_factory=list)
    launched: list[int] = field(default_factory=list)
    timed: bool = False  # it timed launches with triton.testing.do_bench (or the driver's benchmarker) itself
    mode: str = "pruned"


def config_index(tuner: Any, launch: dict[str, Any]) -> int | None:
    """Which of the tuner's configs a launch with these keyword arguments is (every value of it is there)."""
    for index, config in enumerate(tuner.configs):
        values = config.all_kwargs()
        if values and all(k in launch and launch[k] == v for k, v in values.items()):
            return index
    return None


def _provisional(tuner: Any, index: int, benched: bool) -> dict[str, Any]:
    """The autotune record a compile of this config carries (the whole choice is known only after ``run``)."""
    how = "benchmarked" if benched else "launched"
    text = f"config {index} of {len(tuner.configs)}, {how} by {type(tuner).__name__}.run offline"
    return {"kernel": kernel_name(tuner), "mode": capture_mode(), "configs": len(tuner.configs),
            "compiled": [index], "pruned": {}, "notes": [], "summary": text}


def _spy(tuner: Any, run: _Run, launch: Any) -> Any:
    """``tuner.fn.run`` that names the config of each launch (offline_run and _bench name theirs themselves)."""
    from irscope.compile import session

    def spied(*args: Any, **kwargs: Any) -> Any:
        index = config_index(tuner, kwargs)
        if index is not None and index not in run.launched:
            run.launched.append(index)
        if getattr(session._STATE, "config", None) is not None or index is None:
            return launch(*args, **kwargs)
        session.set_config((index, session.config_values(tuner.configs[index])),
                           _provisional(tuner, index, benched=False))
        try:
            return launch(*args, **kwargs)
        finally:
            session.set_config(None, None)

    return spied


def _compile(tuner: Any, index: int | None, config: Any, args: tuple[Any, ...], meta: dict[str, Any],
             benched: bool) -> bool:
    """Launch (compile) one config offline, naming it; False (and a failure record) when the launch raised."""
    from irscope.compile import session

    if index is not None:
        session.set_config((index, session.config_values(tuner.configs[index])),
                           _provisional(tuner, index, benched=benched))
    try:
        config_pre_hook(tuner, config, args, meta)  # as Triton's _bench: it may set what the compile depends on
        tuner.fn.run(*args, **meta, **config.all_kwargs())
    except Exception as exc:  # as Triton does for a config that fails: it cannot win, the others go on
        session.write_record("failures", {"name": kernel_name(tuner), **failure_cause(exc),
                                          "error": f"config {index} ({config}): {type(exc).__name__}: {exc}"})
        return False
    finally:
        if index is not None:
            session.set_config(None, None)
    return True


def offline_bench(tuner: Any, *args: Any, config: Any, **meta: Any) -> list[float]:
    """``Autotuner._bench`` offline: compile the config (launch it once), return a time that keeps config order."""
    conflicts = meta.keys() & config.kwargs.keys()
    if conflicts:  # as Triton's own _bench: a meta-parameter given twice is the program's error
        raise ValueError(f"Conflicting meta-parameters: {', '.join(conflicts)}. Make sure that you don't "
                         "re-define auto-tuned symbols.")
    run: _Run | None = tuner.__dict__.get("_irscope_run")
    index = config_index(tuner, config.all_kwargs())
    if run is not None and index is not None:
        if run.mode == "first" and run.benched and index not in run.benched:
            return [float("inf")] * 3  # --autotune first: only the first config benchmarked is compiled
        if index not in run.benched:
            run.benched.append(index)
    if not _compile(tuner, index, config, args, meta, benched=True):
        return [float("inf")] * 3
    return [bench.next_time_ms()] * 3  # the first config benchmarked is the "fastest"


def _choice(tuner: Any, run: _Run, chosen: Any) -> ConfigChoice:
    """The tuning record of one subclass run: what it compiled, and why each other config was not."""
    owner = type(tuner).__name__
    total = len(tuner.configs)
    compiled = tuple(run.launched)
    timed = bool(run.benched) or run.timed
    skipped = "skipped by --autotune first" if run.mode == "first" and run.benched else None
    reasons = {i: skipped or f"not {'benchmarked' if timed else 'launched'} by {owner}.run"
               for i in range(total) if i not in compiled}
    notes: list[str] = []
    if timed:
        pick = config_index(tuner, chosen.all_kwargs()) if chosen is not None else None
        said = f", so it chose config {pick}" if pick is not None else ""
        notes.append(f"benchmarks do not run offline: {owner} saw made-up timings in the order it benchmarked "
                     f"({bench.FIRST_MS:g} ms first, 1 ms more each){said}")
    elif total > 1 and len(compiled) <= 1:
        which = f"config {compiled[0]}" if compiled else "no config"
        notes.append(f"only {which} of {total} recorded: {owner} overrides Autotuner.run and benchmarked none "
                     "of them through Autotuner._bench (a choice from its own cache, or a benchmark irscope "
                     "does not see)")
    return ConfigChoice(kernel_name(tuner), run.mode, total, compiled, reasons, tuple(notes))


def _compile_the_rest(tuner: Any, run: _Run, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """``--autotune all``: compile every config the subclass's run did not launch."""
    for index, config in enumerate(tuner.configs):
        if index not in run.launched:
            _compile(tuner, index, config, args, kwargs, benched=False)
            if index not in run.launched:
                run.launched.append(index)


def wrap_run(run_fn: Any) -> Any:
    """A subclass's own ``run``, recording offline which configs it benchmarked and launched."""
    if getattr(run_fn, WRAPPED, False):
        return run_fn

    @functools.wraps(run_fn)
    def run(self: Any, *args: Any, **kwargs: Any) -> Any:
        from irscope.compile import session

        if "_irscope_run" in self.__dict__:  # a run of a subclass's subclass calling super().run()
            return run_fn(self, *args, **kwargs)
        record = _Run(mode=capture_mode())
        outer = getattr(session._STATE, "autotuner", None)
        launch = self.fn.__dict__.get("run")
        self.__dict__["_irscope_run"] = record
        self.__dict__.pop("_irscope_offline_ran", None)
        self.fn.run = _spy(self, record, self.fn.run)
        session._STATE.autotuner = self
        benchmarks = bench.calls()
        try:
            result = run_fn(self, *args, **kwargs)
            record.timed = bench.calls() > benchmarks
            if record.mode == "all" and not self.__dict__.get("_irscope_offline_ran"):
                _compile_the_rest(self, record, args, kwargs)
        finally:
            session._STATE.autotuner = outer
            if launch is None:
                del self.fn.run
            else:
                self.fn.run = launch
            del self.__dict__["_irscope_run"]
        _write_choice(self, record, args, kwargs)
        return bench.NotLaunched(kernel_name(self)) if result is None else result

    setattr(run, WRAPPED, True)
    return run


def _write_choice(tuner: Any, record: _Run, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """The tuning record, once per tuning key (offline_run writes its own when the subclass called it)."""
    from irscope.compile import session

    if tuner.__dict__.pop("_irscope_offline_ran", False):
        return
    try:
        key: Any = tuning_key(tuner, args, kwargs)
        hash(key)
    except TypeError:
        key = None
    written = tuner.__dict__.setdefault("_irscope_subclass_keys", set())
    if key is not None and key in written:
        return
    if key is not None:
        written.add(key)
    session.write_record("tuning", _choice(tuner, record, getattr(tuner, "best_config", None)).as_record())


def install(autotuner: type) -> None:
    """Offline: ``_bench`` compiles instead of timing, and every subclass's own ``run`` is wrapped.

    Subclasses made before (none, normally: this runs first) and after, and a ``run`` assigned to a class
    after it was made (wrapped when an instance is made).
    """
    autotuner._bench = offline_bench  # type: ignore[attr-defined]

    def wrap(cls: type) -> None:
        if "run" in cls.__dict__ and not getattr(cls.__dict__["run"], WRAPPED, False):
            cls.run = wrap_run(cls.__dict__["run"])  # type: ignore[attr-defined]

    def subclasses(cls: type) -> list[type]:
        found: list[type] = []
        direct: type
        for direct in cls.__subclasses__():
            found += [direct, *subclasses(direct)]
        return found

    for existing in subclasses(autotuner):
        wrap(existing)
    previous = autotuner.__dict__.get("__init_subclass__")

    def init_subclass(cls: type, **kwargs: Any) -> None:
        if previous is not None:
            previous.__func__(cls, **kwargs)
        else:
            super(autotuner, cls).__init_subclass__(**kwargs)  # type: ignore[arg-type]
        wrap(cls)

    autotuner.__init_subclass__ = classmethod(init_subclass)  # type: ignore[assignment]
    made = autotuner.__dict__["__init__"]

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        made(self, *args, **kwargs)
        own = next((cls for cls in type(self).__mro__ if "run" in cls.__dict__), autotuner)
        if own is not autotuner:  # a run assigned to the class after it was made: wrapped now
            wrap(own)

    autotuner.__init__ = functools.wraps(made)(init)  # type: ignore[misc]
