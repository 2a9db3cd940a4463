#!/usr/bin/env bash
# Frameworks and libraries on a real GPU, each run plainly and under cudaleak:
# the output and exit status must be the same; the leak summary is shown.
# Skips cleanly without a GPU, and skips a framework that is not installed.
# Usage: tests/gpu/run_gpu_suite.sh [BUILD_DIR] [OUT_DIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
if ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no NVIDIA GPU here: GPU suite skipped"
  exit 0
fi
B="$(realpath "${1:-build}")"
O="$(realpath -m "${2:-build/gpu-suite}")"
mkdir -p "$O"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
failed=0 passed=0
F=tests/gpu/frameworks

case_run() {  # NAME COMMAND...
  local name="$1"
  shift
  local plain=0 traced=0
  "$@" >"$O/$name.plain" 2>"$O/$name.plain.err" || plain=$?
  "$B/bin/cudaleak" run -o "$O/$name.%p.json" -- "$@" >"$O/$name.leak" 2>"$O/$name.leak.err" || traced=$?
  if [ "$plain" = "$traced" ] && cmp -s "$O/$name.plain" "$O/$name.leak"; then
    passed=$((passed + 1))
    printf "ok   %-28s status %s  %s\n" "$name" "$plain" "$(head -c 80 "$O/$name.plain" | tr '\n' ' ')"
  else
    failed=$((failed + 1))
    printf "FAIL %-28s status %s vs %s\n" "$name" "$plain" "$traced"
    diff "$O/$name.plain" "$O/$name.leak" | head -5
  fi
  grep -h "SUMMARY" "$O/$name.leak.err" | sed 's/^/     /'
  grep -h -A4 "Held by caching" "$O/$name.leak.err" | grep "blocks:" | sed 's/^/     cached:/'
}

has() { python3 -c "import $1" 2>/dev/null; }
if has torch; then
  case_run torch_default python3 $F/torch_loop.py
  PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True case_run torch_expandable python3 $F/torch_loop.py
  PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync case_run torch_async python3 $F/torch_loop.py
  case_run torch_user_leak python3 $F/torch_loop.py leak
else
  echo "skip PyTorch (not installed)"
fi
has cupy && case_run cupy_pools python3 $F/cupy_pools.py || echo "skip CuPy (not installed)"
if has jax; then
  XLA_PYTHON_CLIENT_PREALLOCATE=false case_run jax_small python3 $F/jax_small.py
else
  echo "skip JAX (not installed)"
fi
[ -x "$B/tests/gpu/gpu_threads" ] && case_run threads "$B/tests/gpu/gpu_threads"
[ -x "$B/tests/gpu/gpu_cublas_no_destroy" ] && case_run cublas "$B/tests/gpu/gpu_cublas_no_destroy"
gpus=$(nvidia-smi -L | wc -l)
[ -x "$B/tests/gpu/gpu_multi_device" ] && case_run multi_device "$B/tests/gpu/gpu_multi_device"
if [ "$gpus" -ge 2 ] && has torch; then
  export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
  case_run nccl_2gpu python3 -m torch.distributed.run --nproc_per_node=2 $F/nccl_allreduce.py
  ls "$O"/nccl_2gpu.*.json 2>/dev/null | wc -l | sed 's/^/     reports (one per process of the tree): /'
else
  echo "skip NCCL (needs 2 GPUs and PyTorch)"
fi
case_run static_cudart "$B/samples/sample_loop_leak"
case_run shared_cudart "$B/samples/sample_loop_leak_shared"
case_run driver_api "$B/samples/sample_driver_context_leak"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
