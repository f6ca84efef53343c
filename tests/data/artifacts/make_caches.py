"""Make the Triton caches under tests/data/artifacts/ with other Tritons (3.5.1, 3.6.0), offline, no GPU.

Each cache is what ``triton.compile`` of that Triton writes to ``TRITON_CACHE_DIR`` for the bundled kernels with
irscope's specialization of config 0 (the signature, constexprs, ``tt.divisibility`` attributes and options
``irscope.compile.specialize.kernel_job`` gives, the same ones irscope's own captures compile with):
``vector_add`` and ``matmul`` for sm90, ``softmax`` for gfx942. Two steps, two interpreters:

1. this interpreter (irscope's, Triton 3.9) writes the specialization as JSON;
2. the other Triton's interpreter runs this file with ``--compile``: it imports only Triton and the kernel's
   file under kernels/ and calls ``triton.compile(ASTSource(...), target=GPUTarget(...), options=...)``.

The cache is then packed as ``triton-<version>-cache.tar.gz`` (the compile folders as Triton wrote them, less
``__grp__*.json``, Triton's own index of each folder, which names the machine's paths).

How the committed ones were made::

    python -m venv /tmp/t35 && /tmp/t35/bin/pip install triton==3.5.1
    python -m venv /tmp/t36 && /tmp/t36/bin/pip install triton==3.6.0
    TRITON_DEFAULT_FP_FUSION=1 PYTHONPATH=. python tests/data/artifacts/make_caches.py /tmp/t35/bin/python
    TRITON_DEFAULT_FP_FUSION=1 PYTHONPATH=. python tests/data/artifacts/make_caches.py /tmp/t36/bin/python
"""

from __future__ import annotations

import argparse
import importlib.util
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
PAIRS = (("vector_add", "sm90"), ("matmul", "sm90"), ("softmax", "gfx942"))
# the options passed on: what the JIT's launch sets; every other option is the backend's default of that Triton
_OPTIONS = ("num_warps", "num_stages", "num_ctas", "enable_fp_fusion")


def specs() -> list[dict[str, Any]]:
    """irscope's specialization of config 0 of each pair, as JSON (run by irscope's interpreter)."""
    from irscope.compile.specialize import kernel_job
    from irscope.model.kernels import get_kernel
    from irscope.model.targets import TARGETS

    out = []
    for name, target in PAIRS:
        info = get_kernel(name)
        job = kernel_job(info, TARGETS[target], 0, info.sizes)
        tgt = job.gpu_target
        out.append({"file": str(REPO / "kernels" / f"{name}.py"), "function": info.function,
                    "target": [tgt.backend, tgt.arch, tgt.warp_size], "signature": dict(job.signature),
                    "constexprs": [[list(k), v] for k, v in job.constexprs.items()],
                    "attrs": [[list(k), v] for k, v in job.attrs.items()],
                    "options": {k: job.options[k] for k in _OPTIONS if k in job.options}})
    return out


def compile_specs(spec_file: str) -> str:
    """Compile each spec with this interpreter's Triton (TRITON_CACHE_DIR set by the caller); its version."""
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    for spec in json.loads(Path(spec_file).read_text()):
        loaded = importlib.util.spec_from_file_location(f"k_{spec['function']}", spec["file"])
        assert loaded is not None and loaded.loader is not None
        module = importlib.util.module_from_spec(loaded)
        loaded.loader.exec_module(module)
        fn = getattr(module, spec["function"])
        src = ASTSource(fn, spec["signature"], {tuple(k): v for k, v in spec["constexprs"]},
                        {tuple(k): v for k, v in spec["attrs"]})
        triton.compile(src, target=GPUTarget(*spec["target"]), options=dict(spec["options"]))
    return str(triton.__version__)


def pack(cache: Path, out: Path) -> int:
    """The cache's compile folders as a tar.gz at ``out`` (no __grp__ index, no launcher builds); its size."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", compresslevel=9) as tar:
        for folder in sorted(p for p in cache.iterdir() if p.is_dir()):
            files = sorted(f for f in folder.iterdir() if f.is_file() and not f.name.startswith("__grp__"))
            if not any(f.suffix == ".json" for f in files):
                continue
            for f in files:
                info = tar.gettarinfo(str(f), arcname=f"{folder.name}/{f.name}")
                info.uid = info.gid = 0
                info.uname = info.gname = ""
                info.mtime = 0
                with open(f, "rb") as data:
                    tar.addfile(info, data)
    out.write_bytes(buf.getvalue())
    return len(buf.getvalue())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("python", nargs="?", help="the interpreter of the other Triton (e.g. /tmp/t35/bin/python)")
    parser.add_argument("--compile", metavar="SPECS", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.compile:
        print(compile_specs(args.compile))
        return 0
    if not args.python:
        parser.error("name the other Triton's interpreter")
    with tempfile.TemporaryDirectory() as tmp:
        spec_file = Path(tmp) / "specs.json"
        spec_file.write_text(json.dumps(specs()))
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TRITON_HOME")}
        env.update({"TRITON_CACHE_DIR": str(Path(tmp) / "cache"), "TRITON_HOME": tmp,
                    "TRITON_DEFAULT_FP_FUSION": "1", "TRITON_ALWAYS_COMPILE": "1"})
        done = subprocess.run([args.python, __file__, "--compile", str(spec_file)], env=env, capture_output=True,
                              text=True, cwd=tmp)
        if done.returncode != 0:
            sys.stderr.write(done.stderr)
            return 1
        version = done.stdout.strip().splitlines()[-1]
        out = HERE / f"triton-{version}-cache.tar.gz"
        print(f"{out}: {pack(Path(tmp) / 'cache', out)} bytes (Triton {version})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
