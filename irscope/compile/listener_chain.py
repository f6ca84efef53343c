"""Keep irscope's compilation listener when the captured program sets its own (TritonParse's ``init()`` does).

Triton 3.5 to 3.9 keep one compilation listener, a plain attribute of ``triton.knobs.compilation``
that ``triton.compile`` reads once per compile. A program assigning it (``knobs.compilation.listener
= maybe_trace_triton``) would silently drop irscope's. So the knobs object's class is swapped for a
subclass whose ``listener`` is a property: reading it gives a chain that calls irscope's recorder and
then the program's listener; assigning it replaces only the program's part, and irscope notes where
it happened. A program that restores what it read gets the chain back; one whose listener calls
the listener it found does not record a compile twice.
"""

from __future__ import annotations

import atexit
import sys
import threading
from collections.abc import Callable
from typing import Any

Listener = Callable[..., Any]
_STATE = threading.local()


class ListenerChain:
    """What ``knobs.compilation.listener`` returns: irscope's recorder, then the program's listener."""

    def __init__(self, ours: Listener, theirs: Listener | None) -> None:
        self.ours = ours
        self.theirs = theirs

    def __call__(self, **kwargs: Any) -> None:
        outermost = not getattr(_STATE, "inside", False)
        if outermost:
            _STATE.inside = True
            try:
                self.ours(**kwargs)  # never raises: it records its own failures
            finally:
                _STATE.inside = False
        if self.theirs is not None:
            self.theirs(**kwargs)


def _where(depth: int) -> str:
    """``file:line`` of the code ``depth`` frames up."""
    frame = sys._getframe(depth)
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


def _describe(listener: Listener | None) -> str:
    if listener is None:
        return "None"
    return getattr(listener, "__qualname__", None) or type(listener).__name__


def install(ours: Listener, note: Callable[[dict[str, Any]], None]) -> bool:
    """Make ``ours`` survive the program setting its own listener; False when only plain chaining was possible."""
    from triton import knobs

    compilation = knobs.compilation
    base = type(compilation)
    theirs = compilation.__dict__.pop("listener", None)
    if theirs is None:
        theirs = getattr(base, "listener", None)
    compilation.__dict__["_irscope_listener"] = theirs if not isinstance(theirs, ListenerChain) else theirs.theirs

    def get(self: Any) -> ListenerChain:
        return ListenerChain(ours, self.__dict__.get("_irscope_listener"))

    def put(self: Any, value: Listener | None) -> None:
        if isinstance(value, ListenerChain):
            self.__dict__["_irscope_listener"] = value.theirs  # the program restoring what it read
            return
        self.__dict__["_irscope_listener"] = value
        note({"event": "listener-set", "where": _where(2), "listener": _describe(value)})

    kept = type(base.__name__, (base,), {"listener": property(get, put), "__module__": base.__module__})
    try:
        compilation.__class__ = kept
    except TypeError:  # a knobs class irscope cannot extend: chain once and check at exit instead
        compilation.__dict__.pop("_irscope_listener", None)
        chain = ListenerChain(ours, theirs)
        compilation.listener = chain
        atexit.register(_check_still_ours, chain, note)
        return False
    atexit.register(_check_still_ours, None, note)
    return True


def program_listens() -> bool:
    """Whether the program has a compilation listener of its own behind irscope's (it must see every compile)."""
    try:
        from triton import knobs
    except ImportError:
        return False
    compilation = knobs.compilation
    theirs = compilation.__dict__.get("_irscope_listener")
    if theirs is None:
        current = getattr(compilation, "listener", None)
        theirs = current.theirs if isinstance(current, ListenerChain) else None
    return theirs is not None


def _check_still_ours(chain: ListenerChain | None, note: Callable[[dict[str, Any]], None]) -> None:
    """At exit: note when the program took irscope's listener out after all."""
    try:
        from triton import knobs
    except ImportError:
        return
    current = getattr(knobs.compilation, "listener", None)
    if chain is not None and current is chain:
        return
    if chain is None and isinstance(current, ListenerChain):
        return
    note({"event": "listener-removed", "where": "", "listener": _describe(current)})
