"""Inside an offline ``irscope capture``: the launches of Inductor's kernels, as the program would make them on a GPU.

Offline the program runs each torch.compile graph eagerly on the CPU, so Inductor's generated wrapper never runs
and its Triton kernels are never launched. After Inductor compiles a graph for the target, its wrapper is run once
here on the fake ``cuda`` inputs it was compiled with: its buffers are fake tensors, its extern kernels (an mm) run
on them, and each Triton kernel's ``CachingAutotuner.run`` records the launch instead of making it. For each config
Inductor compiled the kernel with: the grid Inductor's own grid expression gives for the launch's arguments and that
config (``_interpret_args_grid``, what its generated launcher computes), the integer arguments (``xnumel``, ...),
the tensors' sizes, and how many times one run of the graph launches the kernel (``per_run``: launches per step
of a program that runs the graph once a step). Each config's compile carries the same key in its record
(``launch_key``), so the parent stores each capture with its launches (``launches.json``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from irscope.compile.session import _STATE, config_values, write_record

__all__ = ["config_key", "install", "launching"]

_MAX_LAUNCHES = 16  # per kernel config and graph run, as for the JIT's launches (launch_notes)


def config_key(autotuner: Any, config: Any) -> str:
    """The key of one config of one Inductor kernel: its name, source and config values."""
    fn = autotuner.fn
    values = {**getattr(config, "kwargs", {}), "num_warps": getattr(config, "num_warps", None),
              "num_stages": getattr(config, "num_stages", None)}
    text = json.dumps(["inductor", getattr(fn, "__name__", "?"), getattr(fn, "src", ""), values], sort_keys=True,
                      default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def install(module: Any) -> None:
    """Name each config's compile by its key, and record (never make) each launch during the graph's recorded run."""
    tuner = module.CachingAutotuner
    real_precompile = tuner._precompile_config

    def precompile_config(self: Any, cfg: Any, *args: Any, **kwargs: Any) -> Any:
        outer, outer_config = getattr(_STATE, "compiling_spec", ""), getattr(_STATE, "config", None)
        _STATE.compiling_spec = config_key(self, cfg)
        # The config's place in Inductor's list is its number, in list, show --config and report alike.
        index = next((i for i, c in enumerate(getattr(self, "configs", ())) if c is cfg), None)
        _STATE.config = (index, config_values(cfg)) if index is not None else outer_config
        try:
            return real_precompile(self, cfg, *args, **kwargs)
        finally:
            _STATE.compiling_spec, _STATE.config = outer, outer_config

    def run(self: Any, *args: Any, stream: Any = None, **kwargs: Any) -> None:
        pending = getattr(_STATE, "inductor_launches", None)
        if pending is not None:  # else a launch outside a recorded run (a benchmark): nothing to record
            pending.append((self, args))

    tuner._precompile_config = precompile_config
    tuner.run = run


def _fake_buffers() -> None:
    """The generated wrapper's C++ helpers on fake ``cuda`` tensors: its buffers (``empty_strided_cuda``, which a torch
    built without CUDA cannot make) are fake ``cuda`` tensors, a view of one (``reinterpret_tensor``, which would
    make a plain ``meta`` tensor of it) a fake one, and a fake input is left as it is by ``copy_if_misaligned`` and
    ``assert_alignment`` (which read its data pointer: a training graph's wrapper aborted the process there).
    Made before the wrapper's module is loaded, which binds them. A torch built with CUDA gets the same: its own
    ``empty_strided_cuda`` would allocate on a GPU that is not there ("Found no NVIDIA driver": the H200's stack,
    torch 2.11+cu130, on a machine without its GPU recorded no launch)."""
    import torch
    from torch._subclasses.fake_tensor import FakeTensor

    guards: Any = torch._C._dynamo.guards
    if getattr(guards._reinterpret_tensor, "_irscope_offline", False):
        return
    reinterpret = guards._reinterpret_tensor

    def empty_strided_cuda(size: Any, stride: Any, dtype: Any) -> Any:
        return torch.empty_strided(size, stride, dtype=dtype, device="cuda")

    def reinterpret_tensor(base: Any, size: Any, stride: Any, offset: int = 0) -> Any:
        if not isinstance(base, FakeTensor):
            return reinterpret(base, size, stride, offset)
        return torch.as_strided(base, size, stride, base.storage_offset() + offset)

    def real_unless_fake(real: Callable[..., Any], fake: Callable[..., Any]) -> Callable[..., Any]:
        return lambda tensor, *args: fake(tensor) if isinstance(tensor, FakeTensor) else real(tensor, *args)

    reinterpret_tensor._irscope_offline = True  # type: ignore[attr-defined]
    guards._empty_strided_cuda, guards._reinterpret_tensor = empty_strided_cuda, reinterpret_tensor
    if hasattr(guards, "copy_if_misaligned"):  # torch 2.13; 2.11 checks alignment in Python
        guards.copy_if_misaligned = real_unless_fake(guards.copy_if_misaligned, lambda tensor: tensor)
    _real_inputs_aligned(FakeTensor)
    if hasattr(guards, "assert_alignment"):
        guards.assert_alignment = real_unless_fake(guards.assert_alignment, lambda tensor: True)


def _real_inputs_aligned(fake: type) -> None:
    """torch 2.11's Python ``copy_misaligned_inputs`` (which reads each input's data pointer: a training graph's
    forward wrapper raised on its fake inputs) checks the real inputs only."""
    import importlib

    for name in ("torch._inductor.utils", "torch._inductor.compile_fx"):
        module = importlib.import_module(name)
        real = getattr(module, "copy_misaligned_inputs", None)
        if real is None or getattr(real, "_irscope_offline", False):
            continue

        def checked(new_inputs: Any, check_inputs_idxs: Any, *args: Any, _real: Any = real, **kwargs: Any) -> Any:
            idxs = [i for i in check_inputs_idxs if not isinstance(new_inputs[i], fake)]
            return _real(new_inputs, idxs, *args, **kwargs)

        checked._irscope_offline = True  # type: ignore[attr-defined]
        setattr(module, "copy_misaligned_inputs", checked)  # noqa: B010


def launching(compile_inner: Callable[..., Any]) -> Callable[..., Any]:
    """Inductor's inner compile, then one run of the compiled graph on its fake inputs, recording its launches."""

    def inner(gm: Any, example_inputs: Any, *args: Any, **kwargs: Any) -> Any:
        from irscope.compile import inductor_graphs
        from irscope.compile.inductor_provenance import collecting

        _fake_buffers()
        with collecting() as collected:
            compiled = compile_inner(gm, example_inputs, *args, **kwargs)
        calls: list[dict[str, Any]] = []
        launched, failure = record_launches(compiled, list(example_inputs), calls)
        kernels = None if launched is None else [
            (str(getattr(tuner.fn, "__name__", "?")),
             [config_key(tuner, r.config) for r in getattr(tuner, "compile_results", [])]) for tuner, _ in launched]
        inductor_graphs.write_graph(inductor_graphs.graph_kind(kwargs), collected, kernels, calls, failure)
        return compiled

    return inner


def record_launches(compiled: Any, inputs: list[Any], calls: list[dict[str, Any]] | None = None,
                    ) -> tuple[list[tuple[Any, tuple[Any, ...]]] | None, str]:
    """Run ``compiled`` once on ``inputs`` (fake tensors) and write a ``launches`` record per kernel config launched.

    Returns the launches made (autotuner, arguments), in order, and "" ; or None and why the wrapper could not run.
    The wrapper's calls outside Triton are appended to ``calls`` (``inductor_graphs.extern_calls``). Never raises:
    a wrapper that cannot run on fake tensors records nothing (``perf`` then asks for ``--grid``).
    """
    from torch._guards import detect_fake_mode

    from irscope.compile.inductor_graphs import extern_calls

    mode = detect_fake_mode(inputs)
    if mode is None or not callable(compiled):
        return None, "no fake inputs" if mode is None else "Inductor returned no callable graph"
    outer = getattr(_STATE, "inductor_launches", None)
    pending: list[tuple[Any, tuple[Any, ...]]] = []
    _STATE.inductor_launches = pending
    recorder = extern_calls()
    try:
        with mode, recorder:
            compiled(list(inputs))  # the boxed calling convention: the wrapper may clear the list it is given
    except Exception as exc:  # the graph is captured all the same; only its launches are not known
        from irscope.compile.program_fault import raised_at

        text = str(exc).strip().splitlines()
        return None, f"{type(exc).__name__}: {text[0] if text else ''}{raised_at(exc)}"
    finally:
        _STATE.inductor_launches = outer
    if calls is not None:
        calls.extend(recorder.calls)
    _write(pending)
    return pending, ""


def _write(pending: list[tuple[Any, tuple[Any, ...]]]) -> None:
    """One record per launch (the first ``_MAX_LAUNCHES`` of each kernel config), each with the run's count."""
    from irscope.compile.launch_values import launch_note, launch_shape

    notes: dict[str, list[dict[str, Any]]] = {}
    for autotuner, args in pending:
        names = [p.name for p in getattr(autotuner.fn, "params", []) if not p.is_constexpr]
        for result in autotuner.compile_results:
            try:
                bound, grid = autotuner._interpret_args_grid(args, result.config)
                shape = launch_shape(names, list(bound), {}, grid, _roles(names), "the program's launch",
                                     record_data=True)
            except Exception:  # Inductor's grid expression failed on these arguments: not recorded
                continue
            notes.setdefault(config_key(autotuner, result.config), []).append(
                {"name": str(getattr(autotuner.fn, "__name__", "?")), **launch_note(shape)})
    for key, launches in notes.items():
        for note in launches[:_MAX_LAUNCHES]:
            write_record("launches", {"key": key, **note, "per_run": len(launches)})


def _roles(names: list[str]) -> dict[str, str]:
    """Each pointer's role as Inductor names it: ``in_ptr0`` is read, ``out_ptr0`` written, ``in_out_ptr0`` both."""
    return {n: "input" if n.startswith("in_ptr") else "output" if n.startswith("out_ptr") else "inout" for n in names}
