#!/usr/bin/env bash
# How long a user waits for cudaleak's out-of-memory text and exit report on a
# real GPU: tests/gpu/python/oom_delay_program.py fills the device with
# PyTorch, JAX or CuPy arrays until the framework's out-of-memory error; each
# is run plain and under cudaleak (ROUNDS times, alternating), and
# oom_delay_measure.py prints the wall time, the delay from the failing
# allocation's start to cudaleak's first out-of-memory line, and from the
# program's last statement to the end of the exit report. Numbers for
# docs/performance.md, not pass/fail (a run that never reaches its failure
# exits non-zero).
# Usage: scripts/gpu-bench-oom-delay.sh STAGE [FRAMEWORKS...] (default: torch jax cupy)
#   VARIANTS="default stacks-off ..." picks cudaleak's configurations (below).
#   CHUNK_MIB=N: the size of each array (default 512).
set -uo pipefail
cd "$(dirname "$0")/.."
stage="$(realpath "${1:?usage: gpu-bench-oom-delay.sh STAGE [FRAMEWORKS...]}")"
shift
frameworks=("$@")
[ ${#frameworks[@]} -eq 0 ] && frameworks=(torch jax cupy)
rounds="${ROUNDS:-2}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
measure() { python3 tests/gpu/python/oom_delay_measure.py "$@"; }
program=tests/gpu/python/oom_delay_program.py
status=0
echo "machine: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | head -1)"
for fw in "${frameworks[@]}"; do
  for ((round = 1; round <= rounds; ++round)); do
    measure "$fw plain" -- python3 "$program" "$fw" ${CHUNK_MIB:-} || status=1
    for variant in ${VARIANTS:-default}; do
      case "$variant" in
        default) extra=() ;;
        stacks-off) extra=(--pytorch-stacks-at 0) ;;
        nosym) extra=(--symbolize false) ;;
        both-off) extra=(--pytorch-stacks-at 0 --symbolize false) ;;
        *) echo "unknown variant $variant"; exit 2 ;;
      esac
      measure "$fw cudaleak $variant" ${VERBOSE:+-v} -- "$stage/bin/cudaleak" run -o "$tmp/r.%p.%n.json" \
        "${extra[@]}" -- python3 "$program" "$fw" ${CHUNK_MIB:-} || status=1
    done
  done
done
exit $status
