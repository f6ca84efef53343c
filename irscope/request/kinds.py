"""The kernel protocol: what a command asks of a kernel, whatever its kind; one adapter per kind.

A kernel reaches a command as one of four kinds: a kernel module, bundled or given by path
(``irscope.model.kernels.KernelInfo``); a ``FILE:FUNCTION`` kernel with the launch the user described
(``irscope.model.kernelspec.FunctionKernel``); a kernel recorded from a program run, compiled again from its
stored source and specialization (``RecordedKernel``); or a capture known only through the store
(``StoredKernel``). The kind is decided once, where the kernel is made: ``irscope.request.captures`` resolving
what the user typed (``make_request``) or what a manifest says (``request_for``), and the compile job's registry
reading a job's JSON form (``irscope.compile.job.KINDS``). From then on a command asks ``kind_of(kernel)``, the
kernel's adapter, never which class it is. What the compile itself asks (the JSON form, the key payload, the
manifest's origin), each kernel class answers for itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar, Protocol

from irscope.compile.job import CaptureJob, CompilableKernel
from irscope.errors import UsageError
from irscope.model.gluon_layout_text import encoded_layout_text
from irscope.model.kernels import KernelInfo, bundled_kernels
from irscope.model.kernelspec import FunctionKernel, RecordedKernel
from irscope.model.launch import LaunchShape
from irscope.model.targets import TARGETS, Target
from irscope.store.store import Capture, capture_key

Grid = tuple[int, int, int]


@dataclass(frozen=True)
class StoredKernel:
    """A kernel known only through a stored capture (recorded from a program or opened from an archive).

    Attributes:
        capture: the capture.
    """

    kind: ClassVar[str] = "stored"

    capture: Capture

    @property
    def name(self) -> str:
        """The kernel's name."""
        return self.capture.manifest.kernel


KernelSource = KernelInfo | FunctionKernel | StoredKernel | RecordedKernel


class KernelKind(Protocol):
    """What a command asks of a kernel; ``kind_of`` gives any kernel's adapter."""

    @property
    def name(self) -> str:
        """The kernel's name."""
        ...

    @property
    def stored(self) -> Capture | None:
        """The capture this kernel is known only through (None: irscope compiles it from its source).

        Such a kernel is compiled again, varied with ``--set`` and its neighbours, and made into a reproducer
        through the request its capture names (``irscope.request.captures.request_for``).
        """
        ...

    @property
    def compiles_on_miss(self) -> bool:
        """Whether a miss in the store compiles it (a recorded kernel is compiled anew only as a --set variant)."""
        ...

    @property
    def compiles_when_damaged(self) -> bool:
        """Whether a damaged capture of it is compiled again (a recorded kernel's is not: its program made it)."""
        ...

    def key(self, target: Target, config_index: int, sizes: dict[str, int]) -> str:
        """The key of its capture for this target, config and sizes."""
        ...

    def job(self, target: Target, config_index: int, sizes: dict[str, int]) -> CaptureJob:
        """The compile that makes that capture, as plain data; UsageError when only the store knows it."""
        ...

    def config_count(self, backend: str) -> int | None:
        """How many launch configs compile from its source (None: its configs are the ones recorded)."""
        ...

    def declared_configs(self, backend: str) -> int | None:
        """How many launch configs it declares as data, in a module's CONFIGS (None: it declares none)."""
        ...

    def size_names(self) -> list[str] | None:
        """The problem sizes ``--size`` may set (None: its launch fixes its shapes)."""
        ...

    def settable(self, backend: str, config_index: int, base: Capture | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """What ``--set`` may change: constexpr values, and the launch options it knows itself (``base``: its
        capture)."""
        ...

    def with_settings(self, settings: dict[str, Any], target: Target, config_index: int,
                      options: tuple[str, ...]) -> KernelSource:
        """The kernel of the variant with ``settings`` (checked already; ``options``: the backend's launch options)."""
        ...

    def launch_shape(self, target: Target, config_index: int, sizes: dict[str, int], grid: Grid | None,
                     sm_count: int, capture_dir: Path) -> LaunchShape:
        """Its launch (grid, integer arguments, tensor sizes) for the performance model; ``grid``: ``--grid``."""
        ...


class _FromSource:
    """What the kinds irscope compiles from source answer alike."""

    kernel: CompilableKernel
    stored: Capture | None = None
    compiles_when_damaged = True

    @property
    def name(self) -> str:
        """The kernel's name."""
        return self.kernel.name

    @property
    def compiles_on_miss(self) -> bool:
        """Whether a miss compiles it: yes, from its source."""
        return True

    def key(self, target: Target, config_index: int, sizes: dict[str, int]) -> str:
        """The key of its capture."""
        return self.job(target, config_index, sizes).key()

    def job(self, target: Target, config_index: int, sizes: dict[str, int]) -> CaptureJob:
        """The compile that makes its capture."""
        return CaptureJob(self.kernel, target, config_index, sizes)

    def declared_configs(self, backend: str) -> int | None:
        """None: it declares no configs as data."""
        return None

    def size_names(self) -> list[str] | None:
        """None: its launch fixes its shapes."""
        return None


@dataclass(frozen=True)
class ModuleKind(_FromSource):
    """A kernel module: its configs, sizes and launcher are its own."""

    kernel: KernelInfo

    def config_count(self, backend: str) -> int | None:
        """The configs its CONFIGS declare for ``backend``."""
        return len(self.kernel.configs_for(backend))

    def declared_configs(self, backend: str) -> int | None:
        """The configs its CONFIGS declare for ``backend``."""
        return len(self.kernel.configs_for(backend))

    def size_names(self) -> list[str] | None:
        """The names in its SIZES."""
        return list(self.kernel.sizes)

    def settable(self, backend: str, config_index: int, base: Capture | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """The chosen config's values (over the constexprs its capture recorded)."""
        values = dict(self.kernel.config(backend, config_index))
        if base is not None:
            values = {**base.manifest.constexprs, **values}
        return values, {}

    def with_settings(self, settings: dict[str, Any], target: Target, config_index: int,
                      options: tuple[str, ...]) -> KernelSource:
        """The module with ``settings`` merged into the chosen config."""
        kernel, backend = self.kernel, target.backend
        configs = list(kernel.configs_for(backend))
        configs[config_index] = {**configs[config_index], **settings}
        return replace(kernel, configs={**kernel.configs, backend: configs}, settings={**kernel.settings, **settings})

    def launch_shape(self, target: Target, config_index: int, sizes: dict[str, int], grid: Grid | None,
                     sm_count: int, capture_dir: Path) -> LaunchShape:
        """What the module's launcher says (``--grid`` replaces its grid)."""
        return _module_launch(self.kernel, target, config_index, sizes, sm_count, capture_dir, grid)


@dataclass(frozen=True)
class FunctionKind(_FromSource):
    """A FILE:FUNCTION kernel: its configs are its @triton.autotune configs, its launch is its arguments."""

    kernel: FunctionKernel

    def config_count(self, backend: str) -> int | None:
        """Its autotune configs (one when it is not autotuned); imports the kernel."""
        from irscope.compile.function import kernel_configs

        return len(kernel_configs(self.kernel))

    def settable(self, backend: str, config_index: int, base: Capture | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Its constexpr parameters, with the values given and the config's; imports the kernel."""
        from irscope.compile.function import load_object, unwrap

        kernel = self.kernel
        unwrapped = unwrap(load_object(kernel), kernel.ref.spec)
        configs = unwrapped.configs
        config = configs[config_index] if config_index < len(configs) else {}
        values = {p.name: "?" for p in unwrapped.fn.params if p.is_constexpr}
        values.update({**dict(kernel.constexprs), **kernel.options, **config})
        if base is not None:
            values.update({k: v for k, v in base.manifest.constexprs.items() if k in values})
        return values, {}

    def with_settings(self, settings: dict[str, Any], target: Target, config_index: int,
                      options: tuple[str, ...]) -> KernelSource:
        """The kernel with ``settings`` applied on top of its config."""
        return replace(self.kernel, settings={**self.kernel.settings, **settings})

    def launch_shape(self, target: Target, config_index: int, sizes: dict[str, int], grid: Grid | None,
                     sm_count: int, capture_dir: Path) -> LaunchShape:
        """Its arguments with the grid ``--grid`` gives."""
        from irscope.compile.launch_values import function_launch

        return function_launch(self.kernel, _required(grid, self.name))


@dataclass(frozen=True)
class RecordedKind(_FromSource):
    """A kernel recorded from a program run: compiled again only as a --set variant of its recorded specialization."""

    kernel: RecordedKernel

    @property
    def compiles_on_miss(self) -> bool:
        """Only a --set variant is compiled anew; the recorded capture itself comes from its program."""
        return bool(self.kernel.settings_of)

    compiles_when_damaged = False

    def config_count(self, backend: str) -> int | None:
        """None: its config is the one recorded."""
        return None

    def settable(self, backend: str, config_index: int, base: Capture | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """The recorded constexprs and the recorded launch options."""
        replay = self.kernel.replay
        names = list(replay.get("signature", {}))
        values = {}
        for path, encoded in replay.get("constants", []):
            if len(path) == 1 and path[0] < len(names) and replay["signature"][names[path[0]]] == "constexpr":
                (kind, plain), = encoded.items()
                values[names[path[0]]] = (encoded_layout_text(plain) if kind == "layout"
                                          else plain if not isinstance(plain, dict) else "?")
        declared = _declared_constexprs(self.kernel.path, self.kernel.qualname)
        if declared is not None:  # the JIT's ==1 specialization makes `stride_ak=1` a constant too: not settable
            values = {k: v for k, v in values.items() if k in declared}
        return values, dict(replay.get("options", {}))

    def with_settings(self, settings: dict[str, Any], target: Target, config_index: int,
                      options: tuple[str, ...]) -> KernelSource:
        """The recorded specialization with ``settings`` in it, under a key of its own."""
        from irscope.compile.function import constexpr_object
        from irscope.compile.program_hook import encode_constant

        kernel = self.kernel
        replay = dict(kernel.replay)
        names = list(replay.get("signature", {}))
        constants = [[list(p), v] for p, v in replay.get("constants", [])]
        launch = dict(replay.get("options", {}))
        for name, value in settings.items():
            if name in options:
                launch[name] = value
                continue
            index = names.index(name)
            value = constexpr_object(f"--set {name}", value)  # a Gluon layout's text: the layout itself
            constants = [c for c in constants if c[0] != [index]] + [[[index], encode_constant(value)]]
        replay.update(constants=constants, options=launch)
        base_key = kernel.settings_of or kernel.key
        key = capture_key(kernel.name, {"variant_of": base_key, "set": {k: settings[k] for k in sorted(settings)}},
                          target, config_index)
        return replace(kernel, replay=replay, key=key, settings_of=base_key, settings={**kernel.settings, **settings})

    def launch_shape(self, target: Target, config_index: int, sizes: dict[str, int], grid: Grid | None,
                     sm_count: int, capture_dir: Path) -> LaunchShape:
        """The grid ``--grid`` gives (irscope cannot run a program's launcher)."""
        return LaunchShape(_required(grid, self.name), {}, (), "--grid")


@dataclass(frozen=True)
class StoredKind:
    """A capture known only through the store: what it recorded is all there is."""

    kernel: StoredKernel
    compiles_on_miss = False
    compiles_when_damaged = False

    @property
    def name(self) -> str:
        """The kernel's name."""
        return self.kernel.name

    @property
    def stored(self) -> Capture | None:
        """The capture."""
        return self.kernel.capture

    def key(self, target: Target, config_index: int, sizes: dict[str, int]) -> str:
        """The capture's own key."""
        return self.kernel.capture.manifest.key

    def job(self, target: Target, config_index: int, sizes: dict[str, int]) -> CaptureJob:
        """None from the store alone: ``request_for`` its capture names the compile that makes it again."""
        raise UsageError(f"{self.kernel.capture.manifest.key} cannot be compiled again from the store alone")

    def config_count(self, backend: str) -> int | None:
        """None: its configs are the ones recorded."""
        return None

    def declared_configs(self, backend: str) -> int | None:
        """None: it declares no configs."""
        return None

    def size_names(self) -> list[str] | None:
        """None: the recorded sizes are fixed."""
        return None

    def settable(self, backend: str, config_index: int, base: Capture | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Nothing: ``--set`` varies the request its capture names."""
        raise UsageError(f"--set does not apply to {self.name}")

    def with_settings(self, settings: dict[str, Any], target: Target, config_index: int,
                      options: tuple[str, ...]) -> KernelSource:
        """Nothing: ``--set`` varies the request its capture names."""
        raise UsageError(f"--set does not apply to {self.name}")

    def launch_shape(self, target: Target, config_index: int, sizes: dict[str, int], grid: Grid | None,
                     sm_count: int, capture_dir: Path) -> LaunchShape:
        """A bundled kernel's launcher (when this irscope still ships that kernel and config), else ``--grid``."""
        m = self.kernel.capture.manifest
        if m.origin == "bundled":
            info = bundled_kernels().get(m.kernel)
            if info is not None and m.config_index < len(info.configs_for(m.backend)):
                target = TARGETS.get(m.target) or Target(name=m.target, backend=m.backend, arch=m.arch,
                                                         warp_size=m.warp_size, description="recorded target")
                return _module_launch(info, target, m.config_index, dict(m.sizes), sm_count, capture_dir, grid)
        from irscope.request.launch_cache import recorded_launches

        launches = recorded_launches(capture_dir, m.files)
        if launches:
            return _recorded_launch(launches) if grid is None else _regridded_launch(launches, grid)
        if m.origin == "function":  # the launch its FILE:FUNCTION --args described, still without a grid
            from irscope.request.recorded_args import recorded_function_launch

            shape = recorded_function_launch(self.kernel.capture, _required(grid, self.name))
            if shape is not None:
                return shape
        return LaunchShape(_required(grid, self.name), dict(m.sizes), (), "--grid")


# The adapter of each kind, by the ``kind`` each kernel class declares (``irscope.compile.job.KINDS`` holds the
# same kinds, less the stored one, for what compile/ asks).
ADAPTERS: dict[str, Callable[[Any], KernelKind]] = {
    KernelInfo.kind: ModuleKind,
    FunctionKernel.kind: FunctionKind,
    RecordedKernel.kind: RecordedKind,
    StoredKernel.kind: StoredKind,
}


def kind_of(kernel: KernelSource) -> KernelKind:
    """The adapter that answers the kernel protocol for ``kernel``."""
    return ADAPTERS[kernel.kind](kernel)


def _required(grid: Grid | None, name: str) -> Grid:
    """``--grid``, which a kernel whose launcher irscope cannot run needs."""
    if grid is None:
        raise UsageError(f"--grid is required for {name}: irscope cannot run its launcher; e.g. --grid 512")
    return grid


def _recorded_launch(launches: list[LaunchShape]) -> LaunchShape:
    """The first launch the program made of this compile, saying which one it is when there were several."""
    first = launches[0]
    grid = "x".join(map(str, first.grid))
    grids = sorted({"x".join(map(str, s.grid)) for s in launches})
    if len(launches) == 1:
        which = "its one launch"
    elif len(grids) == 1:
        which = f"the same in all {len(launches)} launches"
    else:
        which = f"its first of {len(launches)} launches (grids {', '.join(grids)}; --grid for another)"
    return replace(first, origin=f"the program's grid {grid}, {which}")


def _regridded_launch(launches: list[LaunchShape], grid: Grid) -> LaunchShape:
    """A recorded launch at ``--grid``: its arguments and tensors kept, only the grid replaced.

    The launch the program made with that grid when there is one, else its first, saying that the grid differs.
    """
    text = "x".join(map(str, grid))
    same = next((s for s in launches if s.grid == grid), None)
    if same is not None:
        return replace(same, origin=f"--grid {text}, as the program launched it (its recorded arguments)")
    first = launches[0]
    recorded = "x".join(map(str, first.grid))
    which = "its launch" if len(launches) == 1 else f"its first of {len(launches)} launches"
    return replace(first, grid=grid, origin=f"--grid {text}, not the program's grid {recorded}: only the grid "
                                            f"replaced, the arguments and tensor sizes are {which}'s")


def _module_launch(info: KernelInfo, target: Target, index: int, sizes: dict[str, int], sm_count: int,
                   capture_dir: Path, grid: Grid | None) -> LaunchShape:
    """What the kernel module's launcher says, read from the store when this launch was evaluated before."""
    from irscope.compile.launch_values import bundled_launch
    from irscope.model.gpus import compiled_sm_count
    from irscope.request.launch_cache import cached_launch, launch_key

    backend, compiled = target.backend, compiled_sm_count(target.name)
    key = launch_key(info.path, info.function, backend, dict(info.config(backend, index)), sizes, sm_count,
                     compiled)
    shape = cached_launch(capture_dir, key, lambda: bundled_launch(info, backend, index, sizes, sm_count, compiled))
    return replace(shape, grid=grid, origin="--grid") if grid is not None else shape


def _declared_constexprs(path: Path, qualname: str) -> set[str] | None:
    """The parameters a kernel's ``def`` annotates ``tl.constexpr``, read with ``ast``; None when it is not found."""
    import ast

    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None
    leaf = qualname.rsplit(".", 1)[-1]
    node = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == leaf), None)
    if node is None:
        return None
    return {a.arg for a in node.args.args if a.annotation is not None and "constexpr" in ast.unparse(a.annotation)}
