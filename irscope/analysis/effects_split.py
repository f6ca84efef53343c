"""A dump's pass effects computed in two processes at once (``irscope passes --llvm`` on a fresh dump).

An LLVM dump holds about 300 passes over 210 MB of IR (matmul on sm90); their effects take 1.7 s of
one core, while the core that ran the per-pass compile sits idle. The pass list is cut in two at
half its IR bytes (most of the work is in the LLVM passes at its end); a forked child computes the
second part, this process the first, and the child's rows come back pickled through a pipe. The
rows are those ``pass_effects`` gives, in the same order (a test compares them). Where ``fork`` is
missing, the process has other threads (a fork would copy locks they may hold), or the dump is
small, everything is computed here.
"""

from __future__ import annotations

import os
import pickle
import threading

from irscope.analysis.passes import DumpSource, PassEffect, _Facts, pass_effect, pass_effects
from irscope.parse.passes import PassSnapshot

# Below this many raw bytes of IR, a fork costs more than it saves.
_MIN_BYTES = 32 << 20


def _effects(source: DumpSource, passes: list[PassSnapshot]) -> list[PassEffect]:
    """Effects of ``passes`` and their steps, in dump order (as pass_effects computes them)."""
    cache = _Facts(source)
    out: list[PassEffect] = []
    for p in passes:
        out.append(pass_effect(p, cache))
        out.extend(pass_effect(s, cache) for s in source.index.steps_of(p.index))
    return out


def _cut(source: DumpSource) -> int:
    """Where to cut the pass list so both parts hold about half of the IR the passes compare."""
    sections = source.index.sections
    sizes = [sum(sections[s].size for s in (p.input, p.output) if s is not None and 0 <= s < len(sections))
             for p in source.index.passes]
    total, running = sum(sizes), 0
    for number, size in enumerate(sizes):
        running += size
        if running * 2 >= total:
            return number + 1
    return len(sizes)


def split_pass_effects(source: DumpSource) -> list[PassEffect]:
    """``pass_effects(source)``, its second half computed by a forked child when that pays."""
    passes = list(source.index.passes)
    big = sum(s.size for s in source.index.sections) >= _MIN_BYTES
    if not big or len(passes) < 4 or not hasattr(os, "fork") or threading.active_count() > 1:
        return pass_effects(source)
    cut = _cut(source)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: the second part, pickled to the pipe, then gone without running the parent's code
        os.close(read_end)
        code = 1
        try:
            data = pickle.dumps(_effects(source, passes[cut:]), protocol=pickle.HIGHEST_PROTOCOL)
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(data)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    first = _effects(source, passes[:cut])
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    try:
        second = pickle.loads(data) if status == 0 else None
    except (pickle.UnpicklingError, EOFError, ValueError):
        second = None
    if not isinstance(second, list):  # the child failed: its part is computed here
        second = _effects(source, passes[cut:])
    return [*first, *second]
