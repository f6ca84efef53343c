"""GPU targets irscope compiles for, by short name; resolving them never imports Triton."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from irscope.errors import UsageError, unknown


@dataclass(frozen=True)
class Target:
    """A compilation target, the offline stand-in for a GPU.

    Attributes:
        name: short name users type (``sm90``, ``gfx942``).
        backend: Triton backend, ``cuda`` or ``hip``.
        arch: what Triton's GPUTarget takes as arch (an int for CUDA, a gfx string for HIP).
        warp_size: threads per warp (32 on NVIDIA, 64 on CDNA).
        description: the GPUs this stands for.
    """

    name: str
    backend: str
    arch: int | str
    warp_size: int
    description: str

    @property
    def vendor(self) -> str:
        """NVIDIA or AMD."""
        return "NVIDIA" if self.backend == "cuda" else "AMD"


TARGETS: dict[str, Target] = {
    t.name: t
    for t in (
        Target(name="sm80", backend="cuda", arch=80, warp_size=32, description="Ampere: A100, A10, RTX 30xx"),
        Target(name="sm90", backend="cuda", arch=90, warp_size=32, description="Hopper: H100, H200, GH200"),
        Target(name="sm100", backend="cuda", arch=100, warp_size=32, description="Blackwell: B200, GB200"),
        Target(name="gfx942", backend="hip", arch="gfx942", warp_size=64, description="CDNA3: MI300X, MI300A"),
        Target(name="gfx950", backend="hip", arch="gfx950", warp_size=64, description="CDNA4: MI350X, MI355X"),
    )
}

TARGET_CHOICES: tuple[str, ...] = (*TARGETS, "native")


def target_for(backend: str, arch: int | str, warp_size: int) -> Target:
    """Our target for Triton's GPUTarget fields (``cuda``/90/32 -> sm90); one irscope does not list is named like
    them (``sm120``, ``gfx1100``)."""
    for t in TARGETS.values():
        if (t.backend, t.arch, t.warp_size) == (backend, arch, warp_size):
            return t
    name = f"sm{arch}" if backend == "cuda" else str(arch)
    return Target(name=name, backend=backend, arch=arch, warp_size=warp_size, description="")


def _nvidia_arch() -> int | None:
    """Compute capability of GPU 0 as an int (90 for an H100), from nvidia-smi; None if absent."""
    if not (Path("/proc/driver/nvidia/gpus").is_dir() or Path("/dev/nvidia0").exists()):
        return None
    import shutil
    import subprocess

    smi = shutil.which("nvidia-smi")
    if smi is None:
        return None
    try:
        out = subprocess.run(
            [smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=20, check=False,
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    # Example: "9.0"
    match = re.match(r"\s*(\d+)\.(\d+)", out)
    return int(match.group(1)) * 10 + int(match.group(2)) if match else None


def _amd_arch() -> str | None:
    """gfx name of the first AMD GPU from the KFD topology (gfx_target_version 90402 -> gfx942); None when hidden."""
    if any(os.environ.get(name) in ("", "-1") for name in ("HIP_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")):
        return None
    nodes = Path("/sys/class/kfd/kfd/topology/nodes")
    if not nodes.is_dir():
        return None
    for props in sorted(nodes.glob("*/properties")):
        # Example: "gfx_target_version 90402"
        match = re.search(r"^gfx_target_version (\d+)$", props.read_text(errors="replace"), re.M)
        if match and int(match.group(1)) > 0:
            v = int(match.group(1))
            return f"gfx{v // 10000}{(v // 100) % 100:x}{v % 100:x}"
    return None


def _boot_id() -> str:
    try:
        return Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return ""


def _cached_nvidia_arch() -> int | None:
    """``_nvidia_arch`` remembered per boot in the store, since nvidia-smi costs tens of milliseconds.

    None when the GPUs are hidden (``CUDA_VISIBLE_DEVICES=``): a program run here sees none.
    """
    import json

    if os.environ.get("CUDA_VISIBLE_DEVICES") in ("", "-1"):
        return None

    from irscope.model.paths import store_root

    if not (Path("/proc/driver/nvidia/gpus").is_dir() or Path("/dev/nvidia0").exists()):
        return None
    cache = store_root() / "native-gpu.json"
    boot = _boot_id()
    try:
        data = json.loads(cache.read_text())
        if boot and data.get("boot_id") == boot and data.get("visible") == os.environ.get("CUDA_VISIBLE_DEVICES"):
            return int(data["cc"]) if data.get("cc") is not None else None
    except (OSError, ValueError, KeyError, TypeError):
        pass
    cc = _nvidia_arch()
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        tmp = cache.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"boot_id": boot, "cc": cc, "visible": os.environ.get("CUDA_VISIBLE_DEVICES")}))
        os.replace(tmp, cache)
    except OSError:
        pass
    return cc


def native_target() -> Target | None:
    """The target of the local GPU, or None when this machine has none."""
    cc = _cached_nvidia_arch()
    if cc is not None:
        for t in TARGETS.values():
            if t.backend == "cuda" and t.arch == cc:
                return t
        return Target(name=f"sm{cc}", backend="cuda", arch=cc, warp_size=32, description="local NVIDIA GPU")
    gfx = _amd_arch()
    if gfx is not None:
        return TARGETS.get(gfx) or Target(name=gfx, backend="hip", arch=gfx, warp_size=64, description="local AMD GPU")
    return None


def default_target_name() -> str:
    """``native`` when a GPU is present, else ``sm90``; IRSCOPE_TARGET overrides."""
    env = os.environ.get("IRSCOPE_TARGET")
    if env:
        return env
    return "native" if native_target() is not None else "sm90"


def resolve_target(name: str | None) -> Target:
    """Turn a user's target name into a Target; ``None`` means the default."""
    if name is not None and not name.strip():
        raise UsageError(f"the target is empty; valid: {', '.join(TARGET_CHOICES)}")
    name = name or default_target_name()
    if name == "native":
        found = native_target()
        if found is None:
            raise UsageError(f"--target native: no GPU found on this machine; valid: {', '.join(TARGETS)}")
        return found
    if name in TARGETS:
        return TARGETS[name]
    raise unknown("target", name, TARGET_CHOICES)
