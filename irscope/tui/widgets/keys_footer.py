"""KeysFooter: Textual's footer, rebuilt only when the keys it shows change.

Textual's Footer recomposes itself whenever the active bindings are recomputed, which happens on every
focus change; here that cost three relayout frames (about 150 ms) for a footer that looked the same.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer

Shown = tuple[tuple[str, str, str, bool, str], ...]


def shown_keys(screen: Screen[object]) -> Shown:
    """What the footer draws: each shown binding's key, description, action, whether enabled, and tooltip."""
    return tuple((b.key, b.description, b.action, enabled, tooltip)
                 for _node, b, enabled, tooltip in screen.active_bindings.values() if b.show)


class KeysFooter(Footer):
    """A footer that skips rebuilding when a bindings update leaves its keys as they were."""

    def __init__(self, *, compact: bool = False, id: str | None = None) -> None:
        super().__init__(compact=compact, id=id)
        self._shown: Shown | None = None

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Rebuild only when the keys to show differ from those shown."""
        if screen is self.screen and self.is_attached:
            shown = shown_keys(screen)
            if shown == self._shown:
                return
            self._shown = shown
        super().bindings_changed(screen)
