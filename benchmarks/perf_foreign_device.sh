#!/bin/bash
# perf_foreign on the device (copy benchmarks/perf_foreign.py, this file, the wheels and tutorials/ into .foreign/,
# run with carry [".foreign"]): capture, ncu per source, export. $1: case regex, $2: sources (space-separated);
# HALF=test: the held-out half (perf_foreign_test.py too; the libraries' files under .foreign/src, FOREIGN_SRC, and
# packages importable as they are, such as GemLite from its sdist, under .foreign/site)
set -o pipefail
export PYTHONUNBUFFERED=1
HALF="${HALF:-fit}"; CASES="${1:-.}"
if [ "$HALF" = test ]; then DEFAULT="sglang vllm gemlite mamba"; else DEFAULT="liger tutorial fla flag_gems inductor"; fi
SOURCES="${2:-$DEFAULT}"
R=/tmp/res; rm -rf $R; mkdir -p $R
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .foreign/*.whl || exit 3
export PYTHONPATH=$PWD:/tmp/site:$PWD/.foreign/site IRSCOPE_HOME=/tmp/irs TORCHINDUCTOR_USE_STATIC_CUDA_LAUNCHER=0 \
  TORCHINDUCTOR_COMPILE_THREADS=1 FOREIGN_TUTORIALS=$PWD/.foreign/tutorials FOREIGN_SRC=$PWD/.foreign/src
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
pack() { tar czf $OUT/results.tgz -C /tmp res; }
nvidia-smi -L; python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)"
date -u
for s in $SOURCES; do
  echo "== capture $s"; date -u
  timeout ${CAP_T:-150} python3 -m irscope capture -- python3 .foreign/perf_foreign.py --half $HALF --driver-all \
     --launches $R/launches-capture-$s.jsonl --cases "^$s .*($CASES)" > $R/capture-$s.log 2>&1
  echo "capture $s rc=$?"; tail -n 4 $R/capture-$s.log
  echo "== ncu $s"; date -u
  python3 .foreign/perf_foreign.py --half $HALF --ncu $R --ncu-bin $NCU --cases "^$s .*($CASES)" --timeout ${NCU_T:-200}
  tail -n 3 $R/ncu-$s.err 2>/dev/null
  pack
done
date -u
python3 - <<'PY'
import json, pathlib, subprocess, sys
R = pathlib.Path("/tmp/res")
hashes = {json.loads(l)["hash"][:20] for f in R.glob("launches-*.jsonl") for l in f.read_text().splitlines() if l.strip()}
caps = pathlib.Path("/tmp/irs/captures")
keys = sorted(d.name for d in caps.iterdir() if any(d.name.endswith(h) for h in hashes if h)) if caps.is_dir() else []
print("captures in store:", len(list(caps.iterdir())) if caps.is_dir() else 0, "used:", len(keys))
if keys:
    r = subprocess.run([sys.executable, "-m", "irscope", "export", *keys, "-o", str(R / "captures.tar.gz")],
                       capture_output=True, text=True)
    print(r.stdout[-2000:], r.stderr[-2000:])
PY
ls -la $R; pack; ls -la $OUT
