#!/bin/bash
# On the H200 (device tool): the in-stream launch cost (launch_cost.py, torch.profiler), the same launches under
# Nsight Compute one at a time, and Nsight Compute's figures for each kernel of one step of each model in $MODELS
# (after --warmup steps; models.py --ncu brackets the step with cudaProfilerStart/Stop). Writes $OUT/launch_cost.json,
# $OUT/launch_cost_ncu.csv and $OUT/<model>_ncu.csv.
set -o pipefail
source benchmarks/program_report/wheels.sh
METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_red.sum,lts__t_sectors_op_atom.sum,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
NCU=${NCU:-$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)}
date -u
if [ -z "$SKIP_LAUNCH" ]; then
  timeout 120 python3 benchmarks/program_report/launch_cost.py --out $OUT/launch_cost.json || echo "launch_cost rc=$?"
  timeout 120 $NCU --clock-control none --metrics $METRICS --csv python3 benchmarks/program_report/launch_cost.py \
    --plain --repeat 2 --out /tmp/lc.json > $OUT/launch_cost_ncu.csv 2> $OUT/launch_cost_ncu.err || echo "ncu launch rc=$?"
  date -u
fi
for m in ${MODELS:-gpt2}; do
  timeout ${MODEL_T:-300} $NCU --clock-control none --profile-from-start off --metrics $METRICS --csv \
    python3 benchmarks/program_report/models.py --model $m --warmup 3 --steps 1 --ncu > $OUT/${m}_ncu.csv \
    2> $OUT/${m}_ncu.err || echo "ncu $m rc=$?"
  grep -c '"gpu__time_duration.sum"' $OUT/${m}_ncu.csv
  date -u
done
