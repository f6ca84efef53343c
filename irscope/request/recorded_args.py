"""The launch a FILE:FUNCTION capture was made with, read back from the store, for the commands that name it later.

``irscope show FILE:FUNCTION --args ...`` records the launch as it was described (the manifest's
``arguments``: the text ``FunctionKernel.describe_arguments`` writes, which ``--args`` reads back). A later
command that names the capture by the kernel's name or its key reuses that launch: ``irscope perf NAME --grid G``
binds the same arguments to the parameters of the capture's own source copy, so its integers and tensor sizes are
the ones given then, without typing ``--args`` again. When a name matches several captures of one target and
config (FILE:FUNCTION captures made with different ``--args``), the newest is used and a note says which and how
to name another. Nothing here imports Triton or torch.
"""

from __future__ import annotations

from pathlib import Path

from irscope.compile.launch_values import arguments_launch, param_names
from irscope.errors import UsageError
from irscope.model.kernelspec import parse_args
from irscope.model.launch import LaunchShape
from irscope.store.store import Capture, Manifest

__all__ = ["recorded_args_text", "recorded_function_launch", "resolution_note"]

_PREFIX = "args: "
# What ``describe_arguments`` writes after the arguments.
_AFTER = ("; constexprs: ", "; options: ", "; set: ")


def recorded_args_text(m: Manifest) -> str:
    """The ``--args`` a FILE:FUNCTION capture was made with (empty: it was not made from ``--args``)."""
    if m.origin != "function" or not m.arguments.startswith(_PREFIX):
        return ""
    text = m.arguments[len(_PREFIX):]
    return text[:min((text.find(label) for label in _AFTER if label in text), default=len(text))]


def recorded_function_launch(capture: Capture, grid: tuple[int, int, int]) -> LaunchShape | None:
    """The launch a FILE:FUNCTION capture's ``--args`` describe, at ``grid``; None when it recorded none.

    The arguments are bound to the parameters of the capture's stored source copy (the text that was compiled).
    """
    m = capture.manifest
    text = recorded_args_text(m)
    if not text:
        return None
    source = capture.path / m.files.get("source", "source.py")
    try:
        names = param_names(Path(source), m.function or m.kernel)
        specs = parse_args(text)
    except (UsageError, OSError, SyntaxError, ValueError):
        return None  # a source copy or an argument text this irscope cannot read: as if none were recorded
    return arguments_launch(names, specs, grid, "--grid; the arguments recorded with its FILE:FUNCTION --args")


def resolution_note(name: str, slot: list[Capture], chosen: Capture) -> str:
    """What a command by ``name`` says when the name matches several captures of one target and config ('' if not).

    ``slot``: the captures of the chosen one's target and config, oldest first.
    """
    if len(slot) < 2:
        return ""
    m = chosen.manifest
    launch = recorded_args_text(m)
    told = f" (--args {launch})" if launch else f" ({m.config_text()})" if m.config_text() else ""
    return (f"{name} names {len(slot)} captures of {m.target} config {m.config_index}; using the newest, "
            f"{m.key}{told}; name another by its key (irscope list {name} shows them)")
