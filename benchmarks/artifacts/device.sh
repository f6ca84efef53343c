#!/bin/bash
# On the device (run with carry [".foreign/artifacts"]; it holds the TritonParse wheel and its dependencies): the
# real artifacts of tests/data/artifacts, most needed first, packed into $OUT/artifacts.tgz after each step (a run
# cut short still returns what it made).
set -o pipefail
export PYTHONUNBUFFERED=1 TRITON_DEFAULT_FP_FUSION=1
A=/tmp/art; rm -rf $A; mkdir -p $A
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .foreign/artifacts/*.whl || exit 3
export PYTHONPATH=$PWD:/tmp/site IRSCOPE_HOME=/tmp/irs
pack() { tar czf $OUT/artifacts.tgz -C /tmp art; }
nvidia-smi -L | tee $A/gpu.txt; python3 -c "import triton, torch; print('triton', triton.__version__, 'torch', torch.__version__)" \
  | tee $A/versions.txt
B=benchmarks/artifacts
P=tests/data/programs/inductor_train_step.py
echo "== the JIT's cache and dump, and irscope's own capture"; date -u
TRITON_KERNEL_DUMP=1 TRITON_DUMP_DIR=$A/dump timeout 150 python3 $B/jit_cache.py $A/cache --own $A/own.tar.gz; pack
echo "== torch.profiler of $P"; date -u
timeout 120 python3 $B/profile_program.py $P --torch-trace $A/train_step.trace.json; pack
echo "== irscope capture of $P"; date -u
timeout 150 python3 -m irscope capture -- python3 $P > $A/capture.log 2>&1; echo "capture rc=$?"; tail -3 $A/capture.log
python3 -m irscope export --all -o $A/train_step_captures.tar.gz 2>&1 | tail -2; pack
echo "== TritonParse"; date -u
timeout 100 python3 $B/jit_cache.py $A/tp-cache --tritonparse $A/tritonparse; rm -rf $A/tp-cache; pack
echo "== Proton of $P"; date -u
timeout 100 python3 $B/profile_program.py $P --proton $A/train_step; pack
echo "== ncu of $P"; date -u
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
timeout 120 $NCU --csv --clock-control none --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
  python3 $P > $A/train_step.ncu.csv 2> $A/ncu.err; echo "ncu rc=$?"; tail -2 $A/ncu.err
date -u; du -sh $A/*; pack; ls -la $OUT
