#!/usr/bin/env bash
# The main job: build cudaleak, then run the samples under it, on the real GPU
# when this machine has one (samples with nvcc's default static cudart), else
# under the simulated GPU. Reports land in build/demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh

out=build/demo
rm -rf "$out" && mkdir -p "$out"
if nvidia-smi -L >/dev/null 2>&1; then
  echo "== real GPU: $(nvidia-smi -L | head -1)"
  flags=()
  suffix=""
else
  echo "== no GPU here: using the simulated GPU (build/lib/simcuda)"
  flags=(--simulated-gpu)
  suffix="_shared"
fi
for name in exception_leak loop_leak stream_event_leak clean; do
  echo
  echo "== cudaleak run ${flags[*]} -- sample_${name}${suffix}"
  status=0
  build/bin/cudaleak run "${flags[@]}" -o "$out/$name.%p.json" -- "build/samples/sample_${name}${suffix}" || status=$?
  echo "(exit status $status)"
done
echo
echo "Reports: $(ls "$out"/*.json | tr '\n' ' ')"
