#!/usr/bin/env bash
# The current context cudaleak learns from the context calls it intercepts
# (interpose/track/bound_context.h) against the driver's own answer, on a real
# GPU: every tracked creation of NVIDIA's cuda-samples (static cudart, the
# runtime binding contexts itself), a driver-API program that switches
# contexts by create, push, pop, set and destroy on two threads, PyTorch
# (threads, cuBLAS, a DataLoader with workers and pinned memory), CuPy and
# JAX, each under `cudaleak run --check-context`. Fails when any creation was
# placed on another context or device than the driver's, when a program's
# status under cudaleak differs from its plain run, or when the control case
# (a context bound through the driver's ELF symbol table) goes unnoticed.
# Usage: scripts/gpu-validate-context.sh STAGE_DIR OUT_DIR CUDA_SAMPLES_DIR
set -uo pipefail
cd "$(dirname "$0")/.."
S="$(realpath "$1")"
O="$(realpath -m "$2")"
CS="$(realpath "$3")"
CUDA=${CUDA_ROOT:-/usr/local/cuda}
ARCH=${CUDA_ARCH:-sm_90}
export PATH="$CUDA/bin:$PATH"
mkdir -p "$O/bin"
failures=0
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

# check NAME COMMAND...: plain and under check_context; statuses must agree
# and no creation may be placed differently from the driver's answer.
check() {
  local name="$1"
  shift
  local plain=0 traced=0
  timeout 300 "$@" >"$O/$name.plain.out" 2>&1 || plain=$?
  timeout 300 "$S/bin/cudaleak" run --check-context --print-summary=true -o "$O/$name.%p.json" -- "$@" \
    >"$O/$name.out" 2>"$O/$name.err" || traced=$?
  # One line per process that wrote an exit report.
  local line placed=0 wrong=0 unseen=0
  while read -r line; do
    set -- $line
    placed=$((placed + $1)) wrong=$((wrong + $4)) unseen=$((unseen + $9))
  done < <(grep -h "check_context:" "$O/$name.err" | sed 's/.*check_context: //')
  printf '%-34s plain=%-3s cudaleak=%-3s placed=%-6s differ=%-3s unseen=%s\n' "$name" "$plain" "$traced" "$placed" \
    "$wrong" "$unseen"
  [ "$plain" = "$traced" ] || fail "$name: status $plain plain, $traced under cudaleak"
  [ "$wrong" = 0 ] || fail "$name: $wrong creations placed on another context or device than the driver's"
  grep -q "check_context:" "$O/$name.err" || fail "$name: no check_context line (no exit report?)"
  TOTAL_PLACED=$((TOTAL_PLACED + placed))
  TOTAL_UNSEEN=$((TOTAL_UNSEEN + unseen))
}
TOTAL_PLACED=0
TOTAL_UNSEEN=0

echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"

# The driver-API program of the CI test, against the real driver.
g++ -std=c++20 -O2 -I"$CUDA/include" -o "$O/bin/context_calls" tests/e2e/programs/context_calls.cpp \
  -L"$CUDA/lib64/stubs" -lcuda -ldl -pthread || fail "context_calls does not build"
check context_calls "$O/bin/context_calls"
# Control: a context bound where cudaleak cannot see is noticed (1 differs,
# 1 is asked of the driver on an empty learned stack).
"$S/bin/cudaleak" run --check-context -o "$O/context_unseen.json" -- "$O/bin/context_calls" unseen \
  >"$O/context_unseen.out" 2>"$O/context_unseen.err"
grep -q "1 differ from the driver, 1 on a context bound unseen" "$O/context_unseen.err" ||
  fail "control: the unseen binding was not noticed: $(grep check_context "$O/context_unseen.err")"

# cuda-samples: each single-file sample that needs no graphics or extra library.
samples=(
  0_Introduction/asyncAPI 0_Introduction/clock 0_Introduction/fp16ScalarProduct 0_Introduction/matrixMul
  0_Introduction/simpleAWBarrier 0_Introduction/simpleAssert 0_Introduction/simpleAttributes
  0_Introduction/simpleCooperativeGroups 0_Introduction/simpleCubemapTexture 0_Introduction/simpleHyperQ
  0_Introduction/simpleIPC 0_Introduction/simpleLayeredTexture 0_Introduction/simpleMultiCopy
  0_Introduction/simpleOccupancy 0_Introduction/simplePitchLinearTexture 0_Introduction/simplePrintf
  0_Introduction/simpleStreams 0_Introduction/simpleSurfaceWrite 0_Introduction/simpleTemplates
  0_Introduction/simpleTexture 0_Introduction/simpleVoteIntrinsics 0_Introduction/simpleZeroCopy
  0_Introduction/systemWideAtomics 0_Introduction/vectorAdd 2_Concepts_and_Techniques/inlinePTX
  2_Concepts_and_Techniques/interval 2_Concepts_and_Techniques/radixSortThrust
  2_Concepts_and_Techniques/reductionMultiBlockCG 2_Concepts_and_Techniques/segmentationTreeThrust
  2_Concepts_and_Techniques/shfl_scan 2_Concepts_and_Techniques/streamOrderedAllocation
  2_Concepts_and_Techniques/streamOrderedAllocationIPC 2_Concepts_and_Techniques/threadFenceReduction
  3_CUDA_Features/StreamPriorities 3_CUDA_Features/bf16TensorCoreGemm 3_CUDA_Features/binaryPartitionCG
  3_CUDA_Features/cdpSimplePrint 3_CUDA_Features/cdpSimpleQuicksort 3_CUDA_Features/cudaTensorCoreGemm
  3_CUDA_Features/dmmaTensorCoreGemm 3_CUDA_Features/globalToShmemAsyncCopy 3_CUDA_Features/graphConditionalNodes
  3_CUDA_Features/graphMemoryFootprint 3_CUDA_Features/graphMemoryNodes 3_CUDA_Features/immaTensorCoreGemm
  3_CUDA_Features/newdelete 3_CUDA_Features/simpleCudaGraphs 3_CUDA_Features/tf32TensorCoreGemm
  3_CUDA_Features/warpAggregatedAtomicsCG 6_Performance/LargeKernelParameter 6_Performance/alignedTypes
  6_Performance/transpose
)
built=0
pids=()
for s in "${samples[@]}"; do
  name=$(basename "$s")
  extra=()
  case $name in cdp*) extra=(-rdc=true -lcudadevrt) ;; esac
  nvcc -arch=$ARCH -O2 -std=c++17 -I"$CS/Common" -o "$O/bin/$name" "$CS/Samples/$s/$name.cu" "${extra[@]}" \
    >"$O/build.$name.log" 2>&1 &
  pids+=($!)
  if [ ${#pids[@]} -ge 12 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
wait
for s in "${samples[@]}"; do
  name=$(basename "$s")
  if [ -x "$O/bin/$name" ]; then
    built=$((built + 1))
    pushd "$CS/Samples/$s" >/dev/null && check "sample.$name" "$O/bin/$name"
    popd >/dev/null
  else
    echo "not built: $name ($(tail -1 "$O/build.$name.log"))"
  fi
done
echo "samples built and run: $built of ${#samples[@]}"

# Frameworks.
cat >"$O/torch_threads.py" <<'EOF'
import threading
import torch

def work(seed):
    torch.manual_seed(seed)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        a = torch.randn(512, 512, device="cuda")
        for _ in range(20):
            a = torch.tanh(a @ a / 512)
    s.synchronize()

threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
for t in threads: t.start()
for t in threads: t.join()

class Data(torch.utils.data.Dataset):
    def __len__(self): return 64
    def __getitem__(self, i): return torch.full((256,), float(i))

loader = torch.utils.data.DataLoader(Data(), batch_size=8, num_workers=2, pin_memory=True)
total = sum(float(b.cuda(non_blocking=True).sum()) for b in loader)
torch.cuda.synchronize()
print("sum", total)
EOF
if python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  check torch_small python3 tests/gpu/torch_small.py
  check torch_threads python3 "$O/torch_threads.py"
fi
if python3 -c 'import cupy' 2>/dev/null; then
  check cupy python3 -c 'import cupy as cp, threading
def w(): x = cp.arange(1 << 20, dtype=cp.float32); print(float((x * 2).sum()))
ts = [threading.Thread(target=w) for _ in range(3)]
[t.start() for t in ts]; [t.join() for t in ts]'
fi
if python3 -c 'import jax' 2>/dev/null; then
  XLA_PYTHON_CLIENT_PREALLOCATE=false check jax python3 -c 'import jax.numpy as jnp
x = jnp.ones((1024, 1024)); print(float((x @ x).sum()))'
fi

echo "creations placed: $TOTAL_PLACED, of which on a context bound unseen (asked of the driver): $TOTAL_UNSEEN"
echo "failures: $failures"
[ "$failures" = 0 ]
