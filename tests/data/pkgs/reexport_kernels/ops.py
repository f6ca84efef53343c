"""The public module: it only re-exports."""

from .impl import twice
from .impl import twice as doubled

__all__ = ["doubled", "twice"]
