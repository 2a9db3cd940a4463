#!/usr/bin/env bash
# Real-GPU validation: every sample (static and shared cudart), a cuBLAS
# program that never calls cublasDestroy and a short PyTorch script, each run
# plainly, under cudaleak, and under compute-sanitizer --leak-check full.
# Output, exit status and reports are compared and summarised; the script
# exits non-zero when a program's output or exit status under cudaleak differs
# from its plain run (cudaleak must not change a program's behaviour).
# Usage: scripts/gpu-validate.sh [BUILD_DIR] [OUT_DIR]   (run scripts/setup.sh first,
# or carry a build made elsewhere: it is self-contained)
set -uo pipefail
cd "$(dirname "$0")/.."
build="$(realpath "${1:-build}")"
out="$(realpath -m "${2:-build/gpu-validation}")"
mkdir -p "$out"
cuda="${CUDA_ROOT:-/usr/local/cuda}"
export LD_LIBRARY_PATH="$cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
sanitizer="$cuda/bin/compute-sanitizer"
summary="$out/summary.txt"
: >"$summary"
failures=0

{
  echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
  echo "cuda: $("$cuda/bin/nvcc" --version | tail -1)"
  echo "glibc: $(ldd --version | head -1)"
} | tee -a "$summary"

# check NAME COMMAND...: plain vs cudaleak (output, status), cudaleak report, compute-sanitizer summary.
check() {
  local name="$1"
  shift
  local plain_status=0 leak_status=0
  "$@" >"$out/$name.plain.out" 2>"$out/$name.plain.err" || plain_status=$?
  "$build/bin/cudaleak" run -o "$out/$name.%p.json" -- "$@" >"$out/$name.leak.out" 2>"$out/$name.leak.err" || leak_status=$?
  local same="same output"
  cmp -s "$out/$name.plain.out" "$out/$name.leak.out" || same="OUTPUT DIFFERS"
  local summary_line
  summary_line=$(grep -h '^SUMMARY: cudaleak' "$out/$name.leak.err" | head -1)
  local sanitizer_line="(compute-sanitizer not run)"
  if [ -x "$sanitizer" ] && [ "${SKIP_SANITIZER:-0}" != 1 ]; then
    timeout 300 "$sanitizer" --leak-check full "$@" >"$out/$name.sanitizer.out" 2>&1
    sanitizer_line=$(grep -h 'LEAK SUMMARY\|ERROR SUMMARY' "$out/$name.sanitizer.out" | tr '\n' ' ')
  fi
  if [ "$plain_status" != "$leak_status" ] || [ "$same" != "same output" ]; then
    failures=$((failures + 1))
    echo "FAIL $name: plain status $plain_status, under cudaleak $leak_status, $same" | tee -a "$summary"
  fi
  printf '%-34s plain=%s cudaleak=%s %s\n    %s\n    compute-sanitizer: %s\n' "$name" "$plain_status" \
    "$leak_status" "$same" "${summary_line:-no summary}" "$sanitizer_line" | tee -a "$summary"
}

for name in exception_leak library_leak pinned_leak stream_event_leak driver_context_leak async_pool_leak \
            loop_leak clean; do
  check "${name}_static" "$build/samples/sample_${name}"
  check "${name}_shared" "$build/samples/sample_${name}_shared"
done
[ -x "$build/tests/gpu/gpu_cublas_no_destroy" ] && check cublas_no_destroy "$build/tests/gpu/gpu_cublas_no_destroy"
if python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  check torch_small python3 tests/gpu/torch_small.py
else
  echo "torch_small: skipped (no PyTorch with CUDA)" | tee -a "$summary"
fi
echo "programs whose behaviour changed under cudaleak: $failures" | tee -a "$summary"
exit $((failures > 0))
