"""Importing a kernel module: running its code, which imports Triton. model/ only reads kernel modules with ``ast``."""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from irscope.errors import UsageError
from irscope.model.kernels import KernelInfo


def load_module(path: Path) -> ModuleType:
    """Import a kernel module from its file under a private, path-unique module name."""
    digest = hashlib.sha256(str(path).encode()).hexdigest()[:12]
    mod_name = f"irscope_kernel_{path.stem}_{digest}"
    if mod_name in sys.modules:
        return sys.modules[mod_name]
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise UsageError(f"cannot import kernel module {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[mod_name]
        raise
    return module


def load_kernel(kernel: KernelInfo) -> ModuleType:
    """A registered kernel's module, imported (this imports Triton)."""
    return load_module(kernel.path)
