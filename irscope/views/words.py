"""Counts and times written as people write them: ``1 graph``, ``2 graphs``, ``3.20 ms``."""

from __future__ import annotations

__all__ = ["counted", "us_text"]


def counted(n: int, word: str, plural: str = "") -> str:
    """``n word``, the word in the plural unless ``n`` is 1 (``plural``: an irregular one, ``entries``)."""
    return f"{n} {word if n == 1 else plural or word + 's'}"


def us_text(value: float) -> str:
    """Microseconds in the unit that reads best (ns, us, ms, s)."""
    if value >= 1e6:
        return f"{value / 1e6:.2f} s"
    if value >= 1e3:
        return f"{value / 1e3:.2f} ms"
    if 0 < value < 0.01:
        return f"{value * 1e3:.1f} ns"
    return f"{value:.2f} us"
