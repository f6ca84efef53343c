"""On a GPU: does an offline capture (GPU hidden, the stand-in answering) compile what the GPU run compiles?

Captures each torch.compile model twice on the same machine, with the same torch and Triton: on the GPU
(``irscope capture -- python PROGRAM``) and with the GPU hidden (``CUDA_VISIBLE_DEVICES=`` and ``--target sm90
--gpu h200``, so the device stand-in answers every question), then compares them kernel for kernel: the kernel
names, each one's configs (constexprs, num_warps, num_stages) and the TTGIR of each config, with SSA names and
locations normalised. Prints one row per kernel and exits 0 when every program compiled the same kernels both
ways, 1 when not, 2 when there is no GPU (``--offline-only`` runs the offline half alone, anywhere).

    IRSCOPE_HOME=/tmp/irs python benchmarks/standin_parity.py    # needs a GPU (an H200 for --gpu h200)
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROGRAMS = ("inductor_no_grad", "inductor_causal_mask", "inductor_train_step")
# Example: %12 = arith.addi %arg3, %c1_i32 : i32 loc(#loc7)
_SSA = re.compile(r"%[A-Za-z0-9_.#]+")
_LOC_ALIAS = re.compile(r"^#loc\d*\s*=")
_LOC = re.compile(r"(?<![\w.])loc\(")  # not ttg.local_alloc(


def _strip_locs(line: str) -> str:
    """``line`` without its ``loc(...)`` annotations (which may nest: ``loc(callsite(#loc3 at #loc4))``)."""
    out, i = [], 0
    while True:
        found = _LOC.search(line, i)
        j = found.start() if found else -1
        if j < 0:
            out.append(line[i:])
            return "".join(out).rstrip()
        out.append(line[i:j])
        depth, k = 0, j + 3
        while k < len(line):
            depth += {"(": 1, ")": -1}.get(line[k], 0)
            k += 1
            if depth == 0:
                break
        i = k


def normalised_ttgir(text: str) -> str:
    """TTGIR with locations dropped and SSA values renamed in order of appearance."""
    names: dict[str, str] = {}

    def rename(match: re.Match[str]) -> str:
        return names.setdefault(match.group(0), f"%v{len(names)}")

    lines = [_strip_locs(line) for line in text.splitlines() if not _LOC_ALIAS.match(line)]
    return "\n".join(_SSA.sub(rename, line) for line in lines if line.strip())


def _run(side: str, program: str, work: Path, target: str, gpu: str) -> subprocess.Popen[str]:
    """Start one capture: ``gpu`` on the local GPU, ``offline`` with the GPU hidden and the stand-in answering."""
    env = dict(os.environ, IRSCOPE_HOME=str(work / f"{side}-{Path(program).stem}"),
               TORCHINDUCTOR_CACHE_DIR=str(work / f"inductor-{side}-{Path(program).stem}"),
               TORCHINDUCTOR_FX_GRAPH_CACHE="0",
               TORCHINDUCTOR_AUTOGRAD_CACHE="0", TORCHINDUCTOR_COMPILE_THREADS="1",
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])))
    command = [sys.executable, "-m", "irscope", "capture"]
    if side == "offline":
        env["CUDA_VISIBLE_DEVICES"] = ""
        command += ["--target", target, "--gpu", gpu]
    command += ["--", sys.executable, str(program_path(program))]
    log = open(work / f"{side}-{Path(program).stem}.log", "w", encoding="utf-8")  # noqa: SIM115 (closed with the process)
    return subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, text=True, cwd=str(work))


def program_path(program: str) -> Path:
    """A program named in tests/data/programs, or any ``.py`` file (a corpus driver, say)."""
    if program.endswith(".py"):
        return Path(program).resolve()
    return ROOT / "tests" / "data" / "programs" / f"{program}.py"


def _wait(proc: subprocess.Popen[str], deadline: float) -> int:
    """The capture's exit status; one still running at the deadline is killed (status -9)."""
    try:
        return proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        proc.kill()
        return proc.wait()


def kernels(home: Path) -> dict[str, Counter[tuple[str, str]]]:
    """Kernel name -> Counter of (config, normalised TTGIR) over the captures in the store at ``home``."""
    from irscope.store.store import Store

    out: dict[str, Counter[tuple[str, str]]] = {}
    for capture in Store(home).captures():
        m = capture.manifest
        config = json.dumps({"constexprs": m.constexprs, "num_warps": m.options.get("num_warps"),
                             "num_stages": m.options.get("num_stages")}, sort_keys=True, default=repr)
        ttgir = normalised_ttgir(capture.read("ttgir")) if "ttgir" in m.files else ""
        out.setdefault(m.kernel, Counter())[(config, ttgir)] += 1
    return out


def compare(gpu_side: dict[str, Counter[tuple[str, str]]], offline: dict[str, Counter[tuple[str, str]]]
            ) -> list[list[str]]:
    """One row per kernel: name, configs on the GPU, configs offline, configs whose TTGIR agrees, verdict."""
    rows = []
    for name in sorted(set(gpu_side) | set(offline)):
        ours, theirs = offline.get(name, Counter()), gpu_side.get(name, Counter())
        configs_gpu = {c for c, _ in theirs}
        configs_off = {c for c, _ in ours}
        same = sum((ours & theirs).values())
        if ours == theirs:
            verdict = "same"
        elif not ours or not theirs:
            verdict = "only on the GPU" if theirs else "only offline"
        elif configs_gpu != configs_off:
            verdict = "configs differ"
        else:
            verdict = "TTGIR differs"
        rows.append([name, str(sum(theirs.values())), str(sum(ours.values())), str(same), verdict])
    return rows


def _table(rows: list[list[str]]) -> str:
    head = ["kernel", "GPU", "offline", "same TTGIR", "verdict"]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)) for r in [head, *rows])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--programs", nargs="*", default=list(PROGRAMS),
                        help="programs in tests/data/programs, or .py files")
    parser.add_argument("--target", default="sm90")
    parser.add_argument("--gpu", default="h200", help="the GPU the stand-in answers as (the local one)")
    parser.add_argument("--offline-only", action="store_true", help="run only the offline captures (no GPU needed)")
    parser.add_argument("--work", default=None, help="folder for the stores and logs (default: a new temporary one)")
    parser.add_argument("--diff", action="store_true", help="print the first differing TTGIR of each kernel")
    parser.add_argument("--timeout", type=float, default=200, help="seconds all the captures may take together")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))  # irscope from this checkout, as the captures use it
    sides = ["offline"] if args.offline_only else ["gpu", "offline"]
    if not args.offline_only:
        import torch

        if not torch.cuda.is_available():
            print("standin_parity: no GPU visible to torch; this check needs one (or --offline-only)", file=sys.stderr)
            return 2
        import triton

        print(f"GPU {torch.cuda.get_device_name(0)}, torch {torch.__version__}, Triton {triton.__version__}")
    work = Path(args.work or tempfile.mkdtemp(prefix="standin-parity-"))
    work.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    procs = {(side, p): _run(side, p, work, args.target, args.gpu) for p in args.programs for side in sides}
    codes = {key: _wait(proc, start + args.timeout) for key, proc in procs.items()}
    print(f"captured {len(procs)} runs in {time.monotonic() - start:.0f} s (logs in {work})")
    failed = 0
    for program in args.programs:
        name = Path(program).stem
        found = {side: kernels(work / f"{side}-{name}") for side in sides}
        status = ", ".join(f"{side} exit {codes[(side, program)]}" for side in sides)
        print(f"\n== {program}: {status}; " + ", ".join(f"{side} {sum(sum(c.values()) for c in found[side].values())} "
                                                       f"captures" for side in sides))
        for side in sides:
            if codes[(side, program)] != 0 or not found[side]:
                failed += 1
                tail = (work / f"{side}-{name}.log").read_text(encoding="utf-8", errors="replace").splitlines()
                print(f"   {side} failed:", *tail[-6:], sep="\n     ")
        if args.offline_only:
            for name, configs in sorted(found["offline"].items()):
                print(f"   {name}: {sum(configs.values())} config(s)")
            continue
        rows = compare(found["gpu"], found["offline"])
        print(_table(rows))
        failed += sum(row[-1] != "same" for row in rows)
        if args.diff:
            _print_diffs(found["gpu"], found["offline"])
    print(f"\nstandin_parity: {'all the same' if not failed else f'{failed} difference(s) or failed run(s)'} "
          f"({time.monotonic() - start:.0f} s)")
    return 1 if failed else 0


def _print_diffs(gpu_side: dict[str, Counter[tuple[str, str]]], offline: dict[str, Counter[tuple[str, str]]]) -> None:
    """For each kernel whose captures differ, a unified diff of one GPU TTGIR against the offline one."""
    import difflib

    for name in sorted(set(gpu_side) & set(offline)):
        if gpu_side[name] == offline[name]:
            continue
        a, b = sorted(gpu_side[name])[0], sorted(offline[name])[0]
        print(f"--- {name}: {a[0]}\n+++ offline: {b[0]}")
        print("\n".join(list(difflib.unified_diff(a[1].splitlines(), b[1].splitlines(), lineterm="", n=1))[:40]))


if __name__ == "__main__":
    sys.exit(main())
