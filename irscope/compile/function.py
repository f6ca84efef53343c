"""Compile jobs for kernels named ``file.py:function`` / ``package.module:function``.

With ``--args`` the example arguments are turned into stand-in tensors and scalars and bound by
the JIT's own binder, so the specialization is the one a real launch with such arguments gets.
With ``--signature`` the specialization is built the way Triton's AOT compiler
(``triton/tools/compile.py``) builds it from the same text. Autotune configs become irscope
configs; ``@triton.heuristics`` values are computed from the arguments.
"""

from __future__ import annotations

import atexit
import importlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from irscope.compile.kernel_module import load_module
from irscope.compile.specialize import CompileJob, gpu_target, mock_tensor_class, specialize, stand_in_dtype
from irscope.errors import UsageError
from irscope.model.dtype_text import is_dtype_value
from irscope.model.kernel_params import OPTION_NAMES, check_arg_names
from irscope.model.kernelspec import ArgSpec, FunctionKernel, RecordedKernel
from irscope.model.targets import Target


@dataclass(frozen=True)
class Unwrapped:
    """A kernel object with its decorators taken apart.

    Attributes:
        fn: the JITFunction.
        configs: the autotune configs as keyword dicts (one empty dict when not autotuned).
        heuristics: name -> function of the argument dict, applied in decorator order.
    """

    fn: Any
    configs: list[dict[str, Any]]
    heuristics: list[tuple[str, Any]]


def ensure_driver(target: Target | None) -> None:
    """Make Triton's active driver report the target compiled for.

    Without a GPU, Triton has no active driver and module-level code that asks for one fails
    (``triton.runtime.driver.active.get_active_torch_device()`` in the tutorials). With a GPU of
    another kind (an NVIDIA GPU, compiling for gfx942), the kernel's own checks
    (``tl.target_info.is_hip()``, ``driver.active.get_current_target()``) would see that GPU and
    take its branch. In both cases a stand-in driver that reports the target is installed.
    """
    from triton.runtime import driver

    from irscope.compile.program_hook import OfflineDriver
    from irscope.model.targets import resolve_target

    wanted = gpu_target(target or resolve_target(None))

    def reports_wanted() -> bool:
        try:
            current = driver.active.get_current_target()
        except RuntimeError:
            return False
        return (current.backend, current.arch, current.warp_size) == (wanted.backend, wanted.arch, wanted.warp_size)

    if reports_wanted():
        return
    standing_in = getattr(stand_in_device, "installed", None) is not None  # no GPU here: nothing to go back to
    if isinstance(getattr(driver, "_active", None), OfflineDriver) and hasattr(driver, "reset_active") \
            and not standing_in:
        try:
            driver.reset_active()  # back to the real driver, when the machine's GPU is the target
        except RuntimeError:  # no GPU here: Triton finds no driver to go back to
            pass
        else:
            if reports_wanted():
                return
    driver.set_active(OfflineDriver(wanted))


def stand_in_device() -> None:
    """Offline, torch.cuda and the driver's device queries answer as the target's GPU, as under the capture.

    For replays of recorded kernels only (their modules may ask the device when imported); it stays for the
    process, as it does in a captured program.
    """
    from triton.runtime import driver

    from irscope.compile import device_standin, gpu_tools
    from irscope.compile.program_hook import OfflineDriver
    from irscope.compile.records import OfflineTarget
    from irscope.model.targets import native_target

    offline = getattr(driver, "_active", None)
    if not isinstance(offline, OfflineDriver):
        return
    target = offline.target
    if native_target() is not None:  # a GPU of another kind is here: torch keeps answering for it
        return
    if getattr(stand_in_device, "installed", None) == (target.backend, target.arch):
        return
    stand_in_device.installed = (target.backend, target.arch)  # type: ignore[attr-defined]
    gpu = device_standin.install(offline, OfflineTarget(backend=target.backend, arch=target.arch,
                                                        warp_size=target.warp_size))
    stand_in_device.gpu = gpu.product if gpu is not None else ""  # type: ignore[attr-defined]
    if gpu is not None:  # nvidia-smi / rocm-smi answering as the capture's did (FlagGems runs them at import)
        gpu_tools.install(gpu, _tools_folder())


def _tools_folder() -> Path:
    """This process's folder of stand-in GPU tools (removed at exit); a later target rewrites the same tools."""
    folder = getattr(_tools_folder, "made", None)
    if folder is None:
        folder = Path(tempfile.mkdtemp(prefix="irscope-gpu-tools-"))
        atexit.register(shutil.rmtree, folder, True)
        _tools_folder.made = folder  # type: ignore[attr-defined]
    return folder


def load_object(kernel: FunctionKernel, target: Target | None = None) -> Any:
    """Import the kernel's module and fetch the named object."""
    if kernel.obj is not None:
        return kernel.obj
    ref = kernel.ref
    ensure_driver(target)
    stand_in_device()  # offline: a library that asks for the GPU at import (FlagGems) sees the target's, as capture's
    try:
        module = importlib.import_module(ref.module) if ref.module else load_module(ref.lookup_file)
    except SyntaxError as exc:
        raise UsageError(f"{exc.filename}:{exc.lineno}: not valid Python: {exc.msg}") from None
    except Exception as exc:  # the user's module failed at import time: one line, not a traceback
        raise UsageError(f"importing {ref.module or ref.lookup_file} failed: {type(exc).__name__}: {exc}"
                         + _standin_blame(exc)) from None
    obj: Any = module
    for part in ref.qualname.split("."):
        if not hasattr(obj, part):
            names = sorted(n for n in vars(module) if hasattr(getattr(module, n), "fn") or
                           type(getattr(module, n)).__name__ == "JITFunction")
            raise UsageError(f"{ref.lookup_file} has no {ref.qualname!r}; its Triton kernels: "
                             f"{', '.join(names) or 'none'}")
        obj = getattr(obj, part)
    return obj


def _standin_blame(exc: BaseException) -> str:
    """What an import failure says when irscope's offline device stand-in caused it (else nothing)."""
    installed = getattr(stand_in_device, "installed", None)
    if installed is None:
        return ""
    from irscope.compile.standin_faults import blame

    fault = blame(exc)
    if fault["cause"] != "irscope":
        return ""
    what = f" ({fault['missing']})" if fault["missing"] else f" (at {fault['where']})" if fault["where"] else ""
    gpu = getattr(stand_in_device, "gpu", "") or f"a {installed[0]} {installed[1]} GPU"
    return (f"; the module was imported under irscope's offline device stand-in (torch and the driver answering "
            f"as {gpu}), which caused this{what}")


def unwrap(obj: Any, where: str) -> Unwrapped:
    """Peel @triton.autotune / @triton.heuristics off a kernel object."""
    configs: list[dict[str, Any]] | None = None
    heuristics: list[tuple[str, Any]] = []
    seen = 0
    while not hasattr(obj, "params") and hasattr(obj, "fn") and seen < 16:
        kind = type(obj).__name__
        if kind == "Autotuner" and configs is None:
            configs = [dict(c.all_kwargs()) for c in obj.configs]
        elif kind == "Heuristics":
            heuristics.extend(obj.values.items())
        obj, seen = obj.fn, seen + 1
    if not hasattr(obj, "params") or not hasattr(obj, "signature"):
        raise UsageError(f"{where} is not a @triton.jit function")
    return Unwrapped(fn=obj, configs=configs or [{}], heuristics=heuristics)


def kernel_configs(kernel: FunctionKernel) -> list[dict[str, Any]]:
    """The kernel's autotune configs (one empty config when it is not autotuned)."""
    return unwrap(load_object(kernel), kernel.ref.spec).configs


def _mock(spec: ArgSpec) -> Any:
    cls = mock_tensor_class()
    tensor = cls(stand_in_dtype(spec.dtype), list(spec.shape) or [1])
    if not spec.aligned:
        tensor.address = 4
    return tensor


def _config(unwrapped: Unwrapped, index: int, spec: str) -> dict[str, Any]:
    if not 0 <= index < len(unwrapped.configs):
        raise UsageError(f"unknown config {index} for {spec}; valid: 0..{len(unwrapped.configs) - 1}")
    return unwrapped.configs[index]


def _check_constexprs(kernel: FunctionKernel, fn: Any) -> None:
    """--constexpr names a ``tl.constexpr`` parameter or a launch option (num_stages=4), nothing else."""
    params = {p.name: p for p in fn.params}
    settable = [p.name for p in fn.params if p.is_constexpr]
    for name in kernel.constexprs:
        param = params.get(name)
        if param is None and name in OPTION_NAMES:
            continue
        if param is not None and param.is_constexpr:
            continue
        what = (f"{name!r} is an argument of {kernel.name} but not a tl.constexpr; give its value with --args"
                if param is not None else f"{kernel.name} has no parameter {name!r}")
        raise UsageError(f"--constexpr {name}: {what}; constexpr parameters: {', '.join(settable) or 'none'} "
                         f"(launch options: {', '.join(OPTION_NAMES[:4])}, ...)")


def _launch_keywords(kernel: FunctionKernel, config: dict[str, Any]) -> dict[str, Any]:
    """Every keyword of the launch, as Triton's JIT receives them: autotune config, then --args keywords,
    --constexpr and --num-warps/--num-stages; one name given two different values is refused."""
    sources = [("--args", {a.name: a for a in kernel.args if a.name is not None}),
               ("--constexpr", dict(kernel.constexprs)), ("launch option", dict(kernel.options))]
    launch = dict(config)
    given: dict[str, tuple[str, Any]] = {}
    for _, values in sources:
        if clash := sorted(set(values) & set(config)):
            raise UsageError(f"{kernel.name}: {clash[0]} is set by the autotune config ("
                             + ", ".join(f"{k}={v!r}" for k, v in config.items())
                             + "); Triton refuses a launch keyword that the autotuner sets (pick another --config)")
    for where, values in sources:
        for name, value in values.items():
            plain = value.value if isinstance(value, ArgSpec) and value.kind != "tensor" else value
            if name in given and given[name][1] != plain:
                raise UsageError(f"{kernel.name}: {name} is given twice ({given[name][0]} {name}={given[name][1]!r}, "
                                 f"{where} {name}={plain!r}); a launch keyword has one value")
            given[name] = (where, plain)
            launch[name] = (_mock(plain) if isinstance(plain, ArgSpec)
                            else constexpr_object(f"--constexpr {name}", plain))
    # --set: on top of everything
    launch.update({k: constexpr_object(f"--set {k}", v) for k, v in kernel.settings.items()})
    return launch


def constexpr_object(what: str, value: Any) -> Any:
    """A --constexpr / --set value as the kernel receives it: a Gluon layout's text (``{"layout": TEXT}``) built."""
    if isinstance(value, dict) and set(value) == {"layout"}:
        from irscope.compile.gluon_layouts import layout_from_text

        return layout_from_text(str(value["layout"]), what)
    if is_dtype_value(value):  # a dtype constexpr: the tl.dtype object the JIT receives
        import triton.language as tl

        return tl.dtype(value["dtype"])
    return value


def function_job(kernel: FunctionKernel, target: Target, config_index: int) -> tuple[CompileJob, dict[str, Any]]:
    """The compile job for a FunctionKernel and the config values it used.

    As in Triton's JIT, a launch keyword binds the parameter of that name and, when it names a launch
    option (``num_stages``), also sets the option: the fused-softmax tutorial's ``num_stages: tl.constexpr``.
    """
    unwrapped = unwrap(load_object(kernel, target), kernel.ref.spec)
    fn = unwrapped.fn
    config = _config(unwrapped, config_index, kernel.ref.spec)
    shown = {**config, **kernel.settings}  # the config values the compile used, --set included
    names = list(fn.arg_names)
    _check_constexprs(kernel, fn)
    if kernel.signature:
        return _signature_job(kernel, unwrapped, target, config), shown
    check_arg_names(kernel.name, names, kernel.args)
    positional = [a for a in kernel.args if a.name is None]
    values: dict[str, Any] = {}
    for name, spec in zip(names, positional, strict=False):
        values[name] = _mock(spec) if spec.kind == "tensor" else spec.value
    launch = _launch_keywords(kernel, config)
    twice = [n for n in launch if n in values]
    if twice:
        raise UsageError(f"{kernel.name}: {twice[0]!r} is given by position and again by name")
    values.update({k: v for k, v in launch.items() if k in names})
    missing = [p.name for p in fn.params if p.name not in values and not p.has_default
               and p.name not in dict(unwrapped.heuristics)]
    if missing:
        kind = "constexpr" if any(p.is_constexpr and p.name == missing[0] for p in fn.params) else "argument"
        raise UsageError(f"{kernel.name}: missing {kind} {missing[0]!r} (give it with "
                         f"{'--constexpr NAME=VALUE' if kind == 'constexpr' else '--args'}); "
                         f"arguments: {', '.join(names)}")
    given = {*kernel.constexprs, *(a.name for a in kernel.args if a.name is not None)}
    for name, heuristic in unwrapped.heuristics:
        if name not in values:
            values[name] = _apply_heuristic(kernel, name, heuristic, {**launch, **values})
        elif name in given:
            _check_overridden(kernel, name, heuristic, values)
    options = {k: v for k, v in launch.items() if k in OPTION_NAMES}
    kwargs = {p.name: values[p.name] for p in fn.params if p.name in values}
    return specialize(fn, target, [], {**options, **kwargs}), shown


def _check_overridden(kernel: FunctionKernel, name: str, heuristic: Any, values: dict[str, Any]) -> None:
    """Triton's @triton.heuristics overwrites a launch value of its own name: a value given for it that
    differs from what it computes is refused (one it cannot compute here is taken as given)."""
    try:
        computed = heuristic({k: v for k, v in values.items() if k != name})
    except (KeyError, TypeError, AttributeError):
        return
    if computed != values[name]:
        raise UsageError(f"{kernel.name}: {name}={values[name]!r} is given, but @triton.heuristics computes "
                         f"{name}={computed!r} from these arguments and Triton uses that; leave {name} out")


def _apply_heuristic(kernel: FunctionKernel, name: str, heuristic: Any, values: dict[str, Any]) -> Any:
    try:
        return heuristic(dict(values))
    except (KeyError, TypeError, AttributeError) as exc:
        raise UsageError(f"{kernel.name}: the @triton.heuristics value for {name!r} could not be computed from "
                         f"the given arguments ({type(exc).__name__}: {exc}); give {name} with --constexpr") from None


def _has_default(fn: Any, name: str) -> bool:
    return any(p.name == name and p.has_default for p in fn.params)


def _signature_job(kernel: FunctionKernel, unwrapped: Unwrapped, target: Target,
                   config: dict[str, Any]) -> CompileJob:
    """Specialize as triton/tools/compile.py does from its --signature text."""
    from triton.compiler import make_backend

    fn = unwrapped.fn
    names = list(fn.arg_names)
    entries = list(kernel.signature)
    launch = _launch_keywords(kernel, config)
    extra = {k: v for k, v in launch.items() if k in names}
    if len(entries) > len(names):
        raise UsageError(f"--signature has {len(entries)} entries but {kernel.name} takes {len(names)} "
                         f"arguments ({', '.join(names)})")
    doubled = [n for n in names[:len(entries)] if n in kernel.constexprs or n in kernel.options]
    if doubled:
        raise UsageError(f"{kernel.name}: {doubled[0]!r} is given twice, by its --signature entry "
                         f"{entries[names.index(doubled[0])].text!r} and by name; a launch keyword has one value")
    uncovered = [n for n in names[len(entries):] if n not in extra
                 and n not in dict(unwrapped.heuristics) and not _has_default(fn, n)]
    if uncovered:
        raise UsageError(f"--signature has {len(entries)} entries but {kernel.name} takes {len(names)} arguments; "
                         f"missing {', '.join(uncovered)} (give constexprs with --constexpr NAME=VALUE)")
    signature: dict[str, str] = {}
    constexprs: dict[tuple[int, ...], Any] = {}
    attrs: dict[tuple[int, ...], Any] = {}
    for i, name in enumerate(names):
        if i < len(entries):
            entry = entries[i]
            if entry.type == "constexpr" or entry.hint == 1:
                signature[name] = "constexpr"
                constexprs[(i,)] = entry.constant if entry.type == "constexpr" else 1
            else:
                signature[name] = entry.type
                if entry.hint == 16:
                    attrs[(i,)] = [["tt.divisibility", 16]]
        elif name in extra or _has_default(fn, name):
            signature[name] = "constexpr"
            constexprs[(i,)] = extra[name] if name in extra else next(p.default for p in fn.params if p.name == name)
    for name, heuristic in unwrapped.heuristics:
        if name in names and (names.index(name),) not in constexprs:
            known = {names[k[0]]: v for k, v in constexprs.items()}
            signature[name] = "constexpr"
            constexprs[(names.index(name),)] = _apply_heuristic(kernel, name, heuristic, known)
    tgt = gpu_target(target)
    backend = make_backend(tgt)
    options = backend.parse_options({k: v for k, v in launch.items() if k in OPTION_NAMES})
    return CompileJob(fn=fn, gpu_target=tgt, signature=signature, constexprs=constexprs, attrs=attrs,
                      options=dict(options.__dict__))


def _decode(value: Any) -> Any:
    """Inverse of program_hook.encode_constant."""
    import triton.language as tl

    (kind, payload), = value.items()
    if kind in ("bool", "int", "float", "str"):
        return payload
    if kind == "none":
        return None
    if kind == "constexpr":
        return tl.constexpr(_decode(payload))
    if kind == "dtype":
        return tl.dtype(payload)
    if kind == "tuple":
        return tuple(_decode(v) for v in payload)
    if kind == "layout":  # a @gluon.jit kernel's layout constexpr
        from irscope.compile.gluon_layouts import decode_layout

        return decode_layout(payload)
    raise UsageError(f"a recorded constexpr cannot be rebuilt ({payload}); this kernel cannot be compiled again")


def recorded_job(kernel: RecordedKernel, target: Target) -> CompileJob:
    """The compile a program run recorded, rebuilt from the stored source and specialization."""
    from irscope.compile.replay import load_replayed

    ensure_driver(target)
    stand_in_device()
    for name, value in (kernel.replay.get("environ") or {}).items():  # what the program set for its own modules
        if isinstance(name, str) and isinstance(value, str):
            os.environ.setdefault(name, value)
    obj = load_replayed(kernel.path, kernel.name, str(kernel.replay.get("module", "")),
                        str(kernel.replay.get("file", "")))
    fn = unwrap(obj, kernel.name).fn
    replay = kernel.replay
    tgt = gpu_target(target)
    return CompileJob(
        fn=fn, gpu_target=tgt, signature=dict(replay["signature"]),
        constexprs=recorded_constexprs(replay), attrs={tuple(path): value for path, value in replay.get("attrs", [])},
        options=recorded_options(replay, tgt),
    )


def recorded_constexprs(replay: dict[str, Any]) -> dict[tuple[int, ...], Any]:
    """The recorded constexpr values, rebuilt as Triton's objects."""
    return {tuple(path): _decode(value) for path, value in replay.get("constants", [])}


def recorded_options(replay: dict[str, Any], tgt: Any) -> dict[str, Any]:
    """The recorded compile options as this Triton's backend reads them."""
    import dataclasses

    from triton.compiler import make_backend

    backend = make_backend(tgt)
    fields = {f.name for f in dataclasses.fields(backend.parse_options({}))}
    # extern_libs holds the recording machine's paths; the local backend supplies its own.
    opts = {k: tuple(v) if isinstance(v, list) else v for k, v in replay.get("options", {}).items()
            if k in fields and k != "extern_libs"}
    return dict(backend.parse_options(opts).__dict__)
