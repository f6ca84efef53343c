"""irscope: see what the Triton compiler does to a GPU kernel."""

from __future__ import annotations

__version__ = "0.1.0"
