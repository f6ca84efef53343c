"""The TUI's diff process: ``python -m irscope.tui.diff_job SPEC`` compares two big IR texts off the UI's interpreter.

A diff of matmul's lowered snapshots (2 x 4.5 MB) takes about a second of pure Python; in a thread
it would hold the interpreter the UI runs in. SPEC is JSON naming the store, the capture key, the
stage or pass and the diff options; the child writes the pickled TextDiff (or an error sentence)
on stdout. It imports neither Textual nor Triton.
"""

from __future__ import annotations

import json
import pickle
import sys
from dataclasses import asdict
from typing import Any

from irscope.analysis.diff import DiffOptions, TextDiff
from irscope.errors import IrscopeError
from irscope.tui.documents import DocRef, diff_elsewhere


def spec_json(store: str, ref: DocRef, options: DiffOptions) -> str:
    """The child's argument."""
    return json.dumps({"store": store, "ref": asdict(ref), "options": asdict(options)})


def run(spec: dict[str, Any]) -> TextDiff | str:
    """Compute the diff the spec names."""
    ref = DocRef(**spec["ref"])
    try:
        return diff_elsewhere(spec["store"], ref.key, ref, DiffOptions(**spec["options"]))
    except IrscopeError as exc:
        return str(exc)


def main() -> int:
    """Entry point: one pickled result on stdout."""
    result = run(json.loads(sys.argv[1]))
    sys.stdout.buffer.write(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
