"""Regenerate the TTGIR corpus in this folder: `python tests/data/ttgir_corpus/regenerate.py`.

Compiles irscope's bundled kernels (and the test kernels named in EXTRA) for every launch config and
every offline target with MLIR's per-pass dumps on (`irscope passes`, one compile per case), keeps
each whole-module dump taken between convert-triton-to-tritongpu and the LLVM lowering (TTGIR), drops
duplicates (compared with their locations removed) and writes them, locations included, to
`corpus.jsonl.xz`: one JSON object per line, {"name": "<kernel>.<target>.c<config>.<pass>", "text": ...}.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import lzma
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
# At most this many modules are kept (the tests read each one several times; CI time stays small).
MAX_MODULES = 800
TARGETS = {"sm80": "cuda", "sm90": "cuda", "sm100": "cuda", "gfx942": "hip", "gfx950": "hip"}
EXTRA = [ROOT / "tests" / "data" / "kernels" / "loops_demo.py", HERE / "corpus_kernels.py"]

# Example: // -----// IR Dump Before TritonGPUCoalesce (tritongpu-coalesce) ('builtin.module' operation) //----- //
# Example: // -----// IR Dump Before TritonGPUPipeline: tritongpu-pipeline{num-stages=3} ('builtin.module' operation)
_HEADER = re.compile(
    r"^// -----// IR Dump Before [^\s:(]+(?:: (?P<arg>[\w.-]+)| \((?P<arg2>[\w.-]+)\)).*\('builtin\.module' operation\)"
)
# Example: // -----// IR Dump Before ...   (any section header, module-wide or not)
_ANY_HEADER = re.compile(r"^// -----//.*$", re.M)
# Example: %0 = tt.get_program_id x : i32 loc(#loc1)     /     #loc1 = loc("k.py":3:4)
_LOCS = re.compile(r"\s*loc\((?:[^()]|\([^()]*\))*\)|^#loc\d*\s*=.*$", re.M)


def _configs(kernel: str, backend: str) -> int:
    """How many launch configs a kernel declares for a backend."""
    sys.path.insert(0, str(ROOT))
    from irscope.model.kernels import get_kernel

    return len(get_kernel(kernel).configs_for(backend))


def _sections(dump: str) -> list[tuple[str, str]]:
    """(pass argument, module text) of each whole-module `Before` section of a raw dump."""
    heads = list(_ANY_HEADER.finditer(dump))
    out = []
    for i, head in enumerate(heads):
        match = _HEADER.match(head.group(0))
        if match is None:
            continue
        end = heads[i + 1].start() if i + 1 < len(heads) else len(dump)
        out.append((match.group("arg") or match.group("arg2"), dump[head.end():end].strip() + "\n"))
    return out


def _is_ttgir(text: str) -> bool:
    return '"ttg.num-warps"' in text and "llvm.func" not in text


# Example: %12 = tt.load %11 : ...   /   "tt.reduce"(%3) <{axis = 1 : i32}> ({   /   #mma = #ttg.nvidia_mma<{...}>
_FEATURE = re.compile(r"^\s*(?:%[^=]*=\s*)?\"?([a-z_]+\.[\w.]+)|= (#[a-z_]+\.\w+)", re.M)


def select(rows: list[dict[str, str]], limit: int = MAX_MODULES) -> list[dict[str, str]]:
    """At most `limit` rows: first each module showing an op or layout kind no earlier one shows, then
    the rest shared fairly among (kernel, target) groups, evenly spread within each."""
    seen: set[str] = set()
    keep: set[int] = set()
    for i, row in enumerate(rows):
        features = {a or b for a, b in _FEATURE.findall(row["text"])}
        if len(keep) < limit and features - seen:
            keep.add(i)
            seen |= features
    groups: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        if i not in keep:
            groups.setdefault(".".join(row["name"].split(".")[:2]), []).append(i)
    quota = dict.fromkeys(groups, 0)
    left = min(limit, len(rows)) - len(keep)
    while left > 0:
        for key, members in groups.items():
            if left > 0 and quota[key] < len(members):
                quota[key] += 1
                left -= 1
    keep |= {members[i * len(members) // quota[key]] for key, members in groups.items() for i in range(quota[key])}
    return [row for i, row in enumerate(rows) if i in keep]


def write(rows: list[dict[str, str]]) -> None:
    """Write the selected rows to corpus.jsonl.xz and the Triton version to VERSION."""
    import triton

    chosen = select(rows)
    data = "".join(json.dumps(row) + "\n" for row in chosen).encode()
    (HERE / "corpus.jsonl.xz").write_bytes(lzma.compress(data, preset=9 | lzma.PRESET_EXTREME))
    (HERE / "VERSION").write_text(f"triton {triton.__version__}\nmodules {len(chosen)} of {len(rows)} distinct\n")
    print(f"wrote corpus.jsonl.xz: {len(chosen)} of {len(rows)} distinct modules, {len(data)} bytes raw")


def main() -> None:
    """Compile every case, keep the distinct TTGIR modules, write corpus.jsonl.xz."""
    kernels = ["vector_add", "softmax", "matmul", "matmul_tma", *[str(p) for p in EXTRA]]
    seen: set[str] = set()
    rows: list[dict[str, str]] = []
    env = {**os.environ, "TRITON_DEFAULT_FP_FUSION": "1", "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory(prefix="irscope-corpus-") as tmp:
        for kernel in kernels:
            stem = Path(kernel).stem
            for target, backend in TARGETS.items():
                for config in range(_configs(kernel, backend)):
                    store = Path(tmp) / f"{stem}-{target}-{config}"
                    cmd = [sys.executable, "-m", "irscope", "passes", kernel, "--target", target,
                           "--config", str(config), "--store", str(store), "--json"]
                    done = subprocess.run(cmd, env=env, capture_output=True, text=True)
                    dumps = list(store.glob("captures/*/passes.mlir.*.gz"))
                    if done.returncode != 0 or not dumps:
                        print(f"skip {stem} {target} c{config}: {done.stderr.strip()[-200:]}", flush=True)
                        continue
                    with gzip.open(dumps[0], "rt") as f:
                        raw = f.read()
                    kept = 0
                    for arg, text in _sections(raw):
                        if not _is_ttgir(text):
                            continue
                        key = hashlib.sha256(_LOCS.sub("", text).encode()).hexdigest()
                        if key in seen:
                            continue
                        seen.add(key)
                        rows.append({"name": f"{stem}.{target}.c{config}.{len(rows):04d}.{arg}", "text": text})
                        kept += 1
                    print(f"{stem} {target} c{config}: {kept} new modules, {len(rows)} in all", flush=True)
    write(rows)


if __name__ == "__main__":
    if sys.argv[1:] == ["--reselect"]:  # apply `select` again to a corpus written with every module
        write([json.loads(line) for line in lzma.decompress((HERE / "corpus.jsonl.xz").read_bytes()).splitlines()])
    else:
        main()
