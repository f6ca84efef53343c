"""The frames of a Python stack trace as Dynamo records it on an FX node (``node.meta["stack_trace"]``).

Dynamo writes the trace outermost frame first, each frame a ``File "...", line N, in fn`` line followed by the
line's code, indented. Any other text (a header, a caret line, text of a torch that writes it differently) is
skipped: reading never raises.
"""

from __future__ import annotations

import re

from irscope.model.program_record import SourceLine

_FRAME = re.compile(r'^\s*File "(?P<file>[^"\n]+)", line (?P<line>\d+)(?:, in (?P<fn>[^\n]*))?\s*$')
_MARKS = re.compile(r"^[\s~^]*$")  # Python 3.11's ``~~~^^^`` lines under a frame's code


def frames(text: object) -> list[SourceLine]:
    """The frames in ``text``, outermost first; none for text that holds none (or is not a string)."""
    if not isinstance(text, str):
        return []
    out: list[SourceLine] = []
    lines = text.splitlines()
    for i, raw in enumerate(lines):
        found = _FRAME.match(raw)
        if found is None:
            continue
        digits = found.group("line")
        if len(digits) > 9 or int(digits) < 1:  # no source file has a billion lines: not a frame
            continue
        number = int(digits)
        code = ""
        if i + 1 < len(lines) and _FRAME.match(lines[i + 1]) is None and not _MARKS.match(lines[i + 1]):
            code = lines[i + 1].strip()
        out.append(SourceLine(file=found.group("file"), line=number, function=(found.group("fn") or "").strip(),
                              code=code))
    return out


def is_library_file(path: str, skip: tuple[str, ...] = ()) -> bool:
    """Whether ``path`` lies in one of the package folders ``skip`` (none given: any ``.../site-packages/torch/``)."""
    norm = path.replace("\\", "/")
    if skip:
        return any(norm.startswith(root.replace("\\", "/").rstrip("/") + "/") for root in skip)
    return "/site-packages/torch/" in norm or "/dist-packages/torch/" in norm


def model_line(text: object, skip: tuple[str, ...] = ()) -> SourceLine | None:
    """The innermost frame of the trace outside the packages ``skip`` (torch's own): the model line of a node."""
    for frame in reversed(frames(text)):
        if not is_library_file(frame.file, skip):
            return frame
    return None
