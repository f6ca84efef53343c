"""Other ways of re-exporting: a star import and an attribute of an imported module."""

from . import impl as _impl
from .ops import *  # noqa: F403

fast = _impl.twice
