"""A long-lived corpus worker: runs irscope commands in this process, one JSON line in, one JSON line out.

Each request is ``{"id": ..., "argv": [...]}``; the answer is ``{"id", "exit", "output", "traceback"}`` where
``output`` is what the command printed (stdout and stderr interleaved, as a terminal shows them) and
``traceback`` the text of an exception that escaped irscope's own error boundary (else null). Importing the
click app once and reusing it is what makes thousands of commands affordable.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import Any


def run_one(argv: list[str]) -> dict[str, Any]:
    """Run ``irscope ARGV`` in-process and report how it ended."""
    from click.testing import CliRunner

    from irscope.cli import cli

    result = CliRunner().invoke(cli, argv, catch_exceptions=True)
    tb = None
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        tb = "".join(traceback.format_exception(*result.exc_info)) if result.exc_info else repr(result.exception)
    return {"exit": result.exit_code, "output": result.output[-20000:], "traceback": tb}


def main() -> int:
    """Serve requests from stdin until it closes."""
    os.environ.setdefault("IRSCOPE_PRECOMPILE", "0")
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing but answers on the protocol stream
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            answer = run_one(request["argv"])
        except BaseException:
            answer = {"exit": -1, "output": "", "traceback": traceback.format_exc()}
        answer["id"] = request["id"]
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
