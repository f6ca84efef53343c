"""What the navigator lists: kernels, targets and configs, and which of them the store already holds.

Pure data, no Textual: the app builds one Catalog and asks it for requests and captures.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from irscope.errors import IrscopeError
from irscope.model.kernels import KernelInfo, bundled_kernels, get_kernel, read_kernel
from irscope.model.paths import store_root
from irscope.model.targets import TARGETS, Target, native_target, resolve_target
from irscope.request.captures import Request
from irscope.store.manifest import Manifest
from irscope.store.store import Capture, Store, triton_version


@dataclass(frozen=True)
class CaptureId:
    """One kernel, target and config: a capture that exists or could be made.

    Attributes:
        kernel: kernel name as the catalog knows it.
        target: target name (``sm90``).
        config: launch config index.
        variant: "" for the config itself; for a what-if variant or a capture made with another Triton,
            what differs (``num_stages=2``, ``Triton 3.6.0``).
    """

    kernel: str
    target: str
    config: int = 0
    variant: str = ""

    def __str__(self) -> str:
        text = f"{self.kernel}@{self.target} config {self.config}"
        return f"{text} ({self.variant})" if self.variant else text

    @property
    def base(self) -> CaptureId:
        """The config a variant was made from (itself for a config)."""
        return CaptureId(self.kernel, self.target, self.config)


def config_label(config: Mapping[str, Any]) -> str:
    """A short name for a launch config: tile sizes, warps, stages (``128x256x64 w8 s3``)."""
    blocks = [str(v) for k, v in config.items() if k.upper().startswith("BLOCK")]
    parts = ["x".join(blocks)] if blocks else []
    if "num_warps" in config:
        parts.append(f"w{config['num_warps']}")
    if "num_stages" in config:
        parts.append(f"s{config['num_stages']}")
    return " ".join(parts) or ", ".join(f"{k}={v}" for k, v in config.items())


@dataclass
class Catalog:
    """The kernels and targets on offer, and the captures of the store.

    Attributes:
        store: the capture store.
        kernels: kernel modules irscope can compile, by name: the bundled ones, the one named on the
            command line, and those of earlier captures whose file still exists.
        stored: captures irscope cannot compile again (FILE:FUNCTION kernels, recorded programs,
            opened archives), by the id the navigator shows them under.
        variants: what-if variants (``--set``) and captures made with another Triton, by their id (whose
            ``variant`` says what differs); the navigator lists them under their config.
        targets: the targets to offer, in registry order (the local GPU's first when it is another).
        problems: kernels that could not be read, one line each.
    """

    store: Store
    kernels: dict[str, KernelInfo] = field(default_factory=dict)
    stored: dict[CaptureId, Capture] = field(default_factory=dict)
    variants: dict[CaptureId, Capture] = field(default_factory=dict)
    targets: dict[str, Target] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    _keys: dict[CaptureId, str] = field(default_factory=dict, repr=False)
    _names: dict[tuple[str, str, str], str] = field(default_factory=dict, repr=False)

    @classmethod
    def load(cls, store_dir: str | None = None, extra_kernel: str | None = None) -> Catalog:
        """The bundled kernels, ``extra_kernel`` (a name or path), and what the store holds."""
        store = Store(store_root(store_dir))
        catalog = cls(store=store)
        catalog.kernels.update(bundled_kernels())
        if extra_kernel is not None and extra_kernel not in catalog.kernels:
            try:
                info = get_kernel(extra_kernel)
            except IrscopeError:
                info = None  # perhaps the name of a stored capture; the store scan below finds it
            if info is not None:
                catalog.kernels.setdefault(info.name, info)
        native = native_target()
        if native is not None and native.name not in TARGETS:
            catalog.targets[native.name] = native
        catalog.targets.update(TARGETS)
        for capture in store.captures():
            catalog._add_stored(capture)
        return catalog

    def _add_stored(self, capture: Capture) -> None:
        """File a capture: under its kernel module when irscope can compile that, else as stored only."""
        m = capture.manifest
        if m.settings or m.triton_version != self.triton_version:
            self.add_variant(capture)
            return
        path = Path(m.kernel_path)
        known = self.kernels.get(m.kernel)
        if known is not None and known.path == path:
            return
        trusted = Store(capture.path.parent.parent).is_trusted(m.key)  # an archive's kernel_path is not adopted
        if (known is None and m.kernel not in self._names.values() and trusted
                and m.origin in ("bundled", "module") and path.is_file()):
            try:
                info = read_kernel(path)
            except IrscopeError as exc:
                self.problems.append(str(exc))
            else:
                if info.name == m.kernel:
                    self.kernels[info.name] = info
                    return
        if m.target not in self.targets:
            self.targets[m.target] = Target(name=m.target, backend=m.backend, arch=m.arch, warp_size=m.warp_size,
                                            description="recorded target")
        self.stored[CaptureId(self._name(m), m.target, m.config_index)] = capture

    def _name(self, m: Manifest) -> str:
        """The name a stored capture's kernel is listed under: its own, or with its file's name (then its key)
        when another kernel of that name (another file, or a recorded program's) is listed already."""
        source = (m.kernel, m.kernel_path, m.program)
        if source in self._names:
            return self._names[source]
        taken = {*self.kernels, *self._names.values()}
        name = m.kernel
        if name in taken:
            name = f"{m.kernel} ({Path(m.kernel_path).name})"
        if name in taken:
            name = f"{m.kernel} ({m.key})"
        self._names[source] = name
        return name

    def add_variant(self, capture: Capture) -> CaptureId:
        """File a what-if variant or another Triton's capture under its config; its id."""
        m = capture.manifest
        what = [f"{k}={v}" for k, v in m.settings.items()]
        if m.triton_version != self.triton_version:
            what.append(f"Triton {m.triton_version}")
        kernel = m.kernel if self.compilable(m.kernel) and self.kernels[m.kernel].path == Path(m.kernel_path) \
            else self._name(m)
        cid = CaptureId(kernel, m.target, m.config_index, ", ".join(what) or m.key)
        if m.target not in self.targets and m.target not in TARGETS:
            self.targets[m.target] = Target(name=m.target, backend=m.backend, arch=m.arch, warp_size=m.warp_size,
                                            description="recorded target")
        self.variants[cid] = capture
        return cid

    def variants_of(self, cid: CaptureId) -> list[CaptureId]:
        """The variants filed under a config, in the order they were made."""
        return sorted((v for v in self.variants if v.base == cid),
                      key=lambda v: (self.variants[v].manifest.created, v.variant))

    def captures_of(self, kernel: str) -> list[CaptureId]:
        """Every capture of a kernel the store holds: each target's configs in order, each config's variants
        after it (no capture is made or read; a kernel module's configs are looked up by their keys)."""
        captured = self.captured()
        out = []
        for target in self.target_names(kernel):
            for index, _ in enumerate(self.configs(kernel, target)):
                cid = CaptureId(kernel, target, index)
                if cid in self.stored or (self.compilable(kernel) and self.key(cid) in captured):
                    out.append(cid)
                out.extend(self.variants_of(cid))
        return out

    def label(self, cid: CaptureId) -> str:
        """A config's short label, or what a variant changes."""
        if cid.variant:
            return cid.variant
        labels = self.configs(cid.kernel, cid.target)
        return labels[cid.config] if cid.config < len(labels) else ""

    @cached_property
    def triton_version(self) -> str:
        """The installed Triton's version (read from its files, without importing it)."""
        return triton_version()

    def names(self) -> list[str]:
        """Every kernel name, compilable ones first."""
        others = (c.kernel for c in [*self.stored, *self.variants] if c.kernel not in self.kernels)
        return [*self.kernels, *dict.fromkeys(others)]

    def target(self, name: str | None) -> Target:
        """A target by name; None means the default (the local GPU, else sm90)."""
        if name is not None and name in self.targets:
            return self.targets[name]
        return resolve_target(name)

    def compilable(self, kernel: str) -> bool:
        """Whether irscope can compile this kernel itself (it is a kernel module)."""
        return kernel in self.kernels

    def can_record_passes(self, cid: CaptureId) -> bool:
        """Whether the TUI can record a capture's passes: a kernel module's config, or a variant of one made
        with this Triton (another Triton's capture records them with ``irscope passes --triton``)."""
        if cid.variant:
            found = self.variants.get(cid)
            return found is not None and self.compilable(cid.kernel) and \
                found.manifest.triton_version == self.triton_version
        return self.compilable(cid.kernel)

    def kernel(self, name: str) -> KernelInfo:
        """A kernel module the catalog lists, or one named by path."""
        return self.kernels[name] if name in self.kernels else get_kernel(name)

    def configs(self, kernel: str, target: str) -> list[str]:
        """Short labels of a kernel's launch configs for a target (for stored kernels: the captured ones)."""
        if kernel in self.kernels:
            return [config_label(c) for c in self.kernels[kernel].configs_for(self.target(target).backend)]
        count = 1 + max((c.config for c in [*self.stored, *self.variants] if c.kernel == kernel and c.target == target),
                        default=-1)
        return [config_label(self.stored[CaptureId(kernel, target, i)].manifest.config)
                if CaptureId(kernel, target, i) in self.stored else "" for i in range(count)]

    def target_names(self, kernel: str) -> list[str]:
        """Targets a kernel can be shown for."""
        if kernel in self.kernels:
            return [t.name for t in self.targets.values() if self.kernels[kernel].configs_for(t.backend)]
        return list(dict.fromkeys(c.target for c in [*self.stored, *self.variants] if c.kernel == kernel))

    def request(self, cid: CaptureId) -> Request:
        """The validated request for a capture id of a kernel module."""
        info = self.kernel(cid.kernel)
        target = self.target(cid.target)
        info.config(target.backend, cid.config)
        return Request(kernel=info, target=target, config_index=cid.config, sizes=dict(info.sizes))

    def key(self, cid: CaptureId) -> str:
        """The store key of a capture id."""
        if cid.variant:
            return self.variants[cid].manifest.key
        if cid in self.stored:
            return self.stored[cid].manifest.key
        if cid not in self._keys:
            self._keys[cid] = self.request(cid).key()
        return self._keys[cid]

    def find(self, key: str) -> CaptureId | None:
        """The id a stored capture is listed under, by its store key (None: the catalog does not list it)."""
        for cid, capture in [*self.stored.items(), *self.variants.items()]:
            if capture.manifest.key == key:
                return cid
        return None

    def capture(self, cid: CaptureId) -> Capture | None:
        """The stored capture, or None when it has not been made."""
        if cid.variant:
            return self.variants.get(cid)
        if cid in self.stored:
            return self.stored[cid]
        return self.store.get(self.key(cid))

    def captured(self) -> set[str]:
        """Keys of every capture directory in the store (a cheap listing, no manifests read)."""
        if not self.store.captures_dir.is_dir():
            return set()
        return {p.name for p in self.store.captures_dir.iterdir()}

    def kernel_arg(self, kernel: str) -> str:
        """How to name a kernel module to a child process: bundled by name, others by path."""
        info = self.kernels[kernel]
        return info.name if info.bundled else str(info.path)
