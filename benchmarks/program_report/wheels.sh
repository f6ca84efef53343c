# Sourced by device.sh and ncu.sh on the H200: installs the carried wheels of transformers 4.57.1 and its pure
# dependencies ($WHEELS; no network there) into /tmp/hf and puts them and the checkout on PYTHONPATH.
WHEELS=${WHEELS:-.corpus/wheels312}
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/hf \
  $WHEELS/transformers-*.whl $WHEELS/huggingface_hub-*.whl $WHEELS/safetensors-*.whl $WHEELS/tokenizers-*.whl \
  $WHEELS/tqdm-*.whl $WHEELS/regex-*.whl $WHEELS/pyyaml-*.whl || exit 3
export PYTHONPATH=/tmp/hf:$PWD PYTHONUNBUFFERED=1
