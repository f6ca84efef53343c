"""Counts written as people write them: ``1 graph``, ``2 graphs``."""

from __future__ import annotations

__all__ = ["counted"]


def counted(n: int, word: str, plural: str = "") -> str:
    """``n word``, the word in the plural unless ``n`` is 1 (``plural``: an irregular one, ``entries``)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"
