"""irscope: see what the Triton compiler does to a GPU kernel."""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"


def capture(kernel: Any, *args: Any, target: str = "sm90", config: int = 0, store: str | None = None,
            **kwargs: Any) -> Any:
    """Capture a kernel offline for ``target``; see :func:`irscope.api.capture`."""
    from irscope.api import capture as _capture

    return _capture(kernel, *args, target=target, config=config, store=store, **kwargs)


def read_stage(capture: Any, stage: str) -> str:
    """The text of one stage of a capture, SASS made from the cubin included; see :func:`irscope.api.read_stage`."""
    from irscope.api import read_stage as _read_stage

    return _read_stage(capture, stage)
