#!/bin/bash
# On the device, when little device time is left: device.sh's two most-needed steps in one short run (no carry).
# The JIT's cache and irscope's own capture of the bundled kernels, then the training step under torch.profiler and
# Proton in one process (one inductor compile), then ncu with whatever time is left of BUDGET seconds (default 130).
# Packs $OUT/artifacts.tgz after each step.
set -o pipefail
export PYTHONUNBUFFERED=1 TRITON_DEFAULT_FP_FUSION=1 PYTHONPATH=$PWD IRSCOPE_HOME=/tmp/irs
BUDGET=${BUDGET:-130}
A=/tmp/art; rm -rf $A; mkdir -p $A
pack() { tar czf $OUT/artifacts.tgz -C /tmp art; }
left() { echo $((BUDGET - SECONDS)); }
nvidia-smi -L | tee $A/gpu.txt
B=benchmarks/artifacts
P=tests/data/programs/inductor_train_step.py
echo "== the JIT's cache and dump, and irscope's own capture ($SECONDS s)"
TRITON_KERNEL_DUMP=1 TRITON_DUMP_DIR=$A/dump timeout 50 python3 $B/jit_cache.py $A/cache --own $A/own.tar.gz; pack
python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)" | tee $A/versions.txt
echo "== torch.profiler and Proton of $P ($SECONDS s)"
timeout $(( $(left) - 25 )) python3 $B/profile_program.py $P --torch-trace $A/train_step.trace.json \
  --proton $A/train_step; pack
echo "== ncu of $P ($SECONDS s, $(left) s left)"
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
if [ "$(left)" -gt 15 ]; then
  timeout $(( $(left) - 5 )) $NCU --csv --clock-control none \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
    python3 $P > $A/train_step.ncu.csv 2> $A/ncu.err; echo "ncu rc=$?"; tail -2 $A/ncu.err
fi
echo "== done ($SECONDS s)"; du -sh $A/*; pack
