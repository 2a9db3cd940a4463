#!/usr/bin/env bash
# PyTorch training-step time (tests/gpu/torch_bench.py: an 8-layer MLP, the
# median step after warm-up) plain and under cudaleak with growth by site on
# (the default), with growth off (growth_interval_ms=0), and with growth by
# line: per-tensor stacks alone, then with PyTorch's view sampled every
# 500 ms and every 2 s (view_interval_ms). Three rounds, alternating, so that
# the GPU's clocks drift alike for every mode.
# Usage: scripts/gpu-bench-growth.sh STAGE [STEPS=3000]
set -uo pipefail
cd "$(dirname "$0")/.."
stage="$(realpath "${1:?usage: scripts/gpu-bench-growth.sh STAGE [STEPS]}")"
steps="${2:-3000}"
py="${PYTHON:-python3}"
[ -z "${PYTHON:-}" ] && [ -x /opt/torch/.venv/bin/python ] && py=/opt/torch/.venv/bin/python
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
tmp=$(mktemp -d)
cl() { "$stage/bin/cudaleak" run --print-summary false -o "$tmp/r.%p.%n.json" "$@"; }
step() { "$@" tests/gpu/torch_bench.py "$steps" 2>/dev/null | awk '/^torch_step_ms/ {print $2}'; }
declare -A all
modes=(plain growth_on growth_off stacks stacks_view_2s stacks_view_500ms)
for round in 1 2 3; do
  for mode in "${modes[@]}"; do
    case $mode in
      plain) ms=$(step "$py") ;;
      growth_on) ms=$(step cl -- "$py") ;;
      growth_off) ms=$(step cl --growth-interval-ms 0 -- "$py") ;;
      stacks) ms=$(step cl --pytorch-stacks true -- "$py") ;;
      stacks_view_2s) ms=$(step cl --pytorch-stacks true --view-interval-ms 2000 -- "$py") ;;
      stacks_view_500ms) ms=$(step cl --pytorch-stacks true --view-interval-ms 500 -- "$py") ;;
    esac
    echo "round $round $mode torch_step_ms ${ms:-FAILED}"
    all[$mode]+="${ms:-nan} "
  done
done
echo "--- median of the rounds (ms per step, and against plain)"
plain=$(tr ' ' '\n' <<<"${all[plain]}" | grep -v '^$' | sort -g | sed -n 2p)
for mode in "${modes[@]}"; do
  m=$(tr ' ' '\n' <<<"${all[$mode]}" | grep -v '^$' | sort -g | sed -n 2p)
  awk -v mode="$mode" -v m="$m" -v p="$plain" 'BEGIN { printf "%-18s %8.3f ms  %.3fx\n", mode, m, m / p }'
done
rm -rf "$tmp"
