#!/bin/bash
# On the H200 (device tool): profile the three models of models.py with torch.profiler, each kernel's calls and
# device time over --steps steps after --warmup steps. Wheels of transformers 4.57.1 and its pure dependencies are
# carried in $WHEELS (no network there). Writes $OUT/<model>.json.
set -o pipefail
source benchmarks/program_report/wheels.sh
nvidia-smi -L
for m in ${MODELS:-llama gpt2 bert}; do
  date -u
  timeout ${MODEL_T:-240} python3 benchmarks/program_report/models.py --model $m --warmup ${WARMUP:-3} \
    --steps ${STEPS:-10} --profile $OUT/$m.json 2>&1 | grep -v Warning | tail -n 5
done
date -u
