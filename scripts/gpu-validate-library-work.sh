#!/usr/bin/env bash
# What NVIDIA's libraries make for a live handle after its create returned,
# on a real GPU (issue 50): cuBLAS, cuBLASLt, cuFFT and cuSPARSE handles used
# once each (tests/gpu/seams/library_use.cu) and left alive must be told as
# handles holding what their calls made, with no leak "created by" a call
# that takes a handle; destroyed, nothing is left. With two GPUs, a two-rank
# NCCL job whose rank 1 runs out of memory (torchrun ends rank 0) must tell
# NCCL's memory under each rank's communicator, never as leaks of its own.
# Exits non-zero on a wrong result.
# Usage: scripts/gpu-validate-library-work.sh STAGE OUT
set -uo pipefail
cd "$(dirname "$0")/.."
stage="$(realpath "${1:?usage: gpu-validate-library-work.sh STAGE OUT}")"
out="$(realpath -m "${2:?usage: gpu-validate-library-work.sh STAGE OUT}")"
rm -rf "$out" && mkdir -p "$out"
cuda="${CUDA_ROOT:-/usr/local/cuda}"
export PATH="$cuda/bin:$PATH" LD_LIBRARY_PATH="$cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cudaleak="$stage/bin/cudaleak"
failures=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1), $(nvidia-smi -L | wc -l) GPU(s)"

# Leak groups (not held by a handle) whose stack passes through an NVIDIA
# library's object, from a report: none may be left where a handle of that
# library lives.
strays() {
  python3 - "$1" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
lib = re.compile(r"/lib(cublasLt|cublas|cufft|cusparse|nccl|cudnn)[._]")
for g in r.get("leaks", []):
    if g.get("kind") == "library_handle" or g.get("owner"):
        continue
    mods = [f.get("module", "") for f in g.get("stack", [])]
    hit = [m for m in mods if lib.search(m)]
    if hit:
        print("%s %s x%d created by %s in %s" % (g.get("kind"), g.get("bytes", 0), g.get("count", 0), g.get("api"),
                                                 hit[-1].rsplit("/", 1)[-1]))
PY
}

d="$out/library_use"; mkdir -p "$d"
if nvcc -g -cudart shared -o "$d/prog" tests/gpu/seams/library_use.cu -lcublas -lcublasLt -lcufft -lcusparse \
    >"$d/build.log" 2>&1; then
  for mode in leak clean; do
    "$cudaleak" run -o "$d/$mode.json" -- "$d/prog" "$mode" >"$d/$mode.out" 2>"$d/$mode.err"
    echo "--- library_use $mode (status $?):"; cat "$d/$mode.out"; grep -v "^\s*#" "$d/$mode.err" | head -24
    s=$(strays "$d/$mode.json")
    [ -z "$s" ] && pass "library_use $mode: nothing a library made stands apart from its handle" ||
      { fail "library_use $mode: made by a library, told apart:"; echo "$s"; }
  done
  for object in "cuBLAS handle" "cuBLASLt handle" "cuFFT plan" "cuSPARSE handle"; do
    grep -q "1 $object never destroyed" "$d/leak.err" && pass "library_use leak: $object told" ||
      fail "library_use leak: no '1 $object never destroyed'"
  done
  grep -q "no CUDA resources leaked" "$d/clean.err" && pass "library_use clean: nothing leaked" ||
    fail "library_use clean: leaks reported"
else
  fail "library_use: build"; cat "$d/build.log"
fi

if [ "$(nvidia-smi -L | wc -l)" -ge 2 ] && python3 -c "import torch" 2>/dev/null; then
  d="$out/nccl_dying"; mkdir -p "$d"
  timeout 300 "$cudaleak" run -o "$d/rank.%p.%n.json" -- \
    torchrun --nproc-per-node 2 --master-port 29611 tests/gpu/python/nccl_dying_rank.py >"$d/out" 2>"$d/err"
  echo "--- nccl_dying (status $?):"; grep -v "^\s*#" "$d/err" | grep -v "^\[" | head -60
  n=0
  for f in "$d"/rank.*.json; do
    python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if r['process'].get('rank', -1) >= 0 else 1)" "$f" || continue
    n=$((n + 1))
    "$cudaleak" report "$f" >"${f%.json}.txt" 2>&1
    s=$(strays "$f")
    [ -z "$s" ] && pass "nccl_dying $(basename "$f"): NCCL's memory under its communicator" ||
      { fail "nccl_dying $(basename "$f"): NCCL's memory told apart:"; echo "$s" | head; }
    grep -m1 "NCCL communicator" "${f%.json}.txt"
  done
  [ $n -ge 2 ] && pass "nccl_dying: $n rank reports" || fail "nccl_dying: $n rank reports"
  grep -q "NCCL communicator.*holding" "$d"/rank.*.txt && pass "nccl_dying: a communicator holding NCCL's memory told" ||
    fail "nccl_dying: no communicator holding memory"
else
  echo "SKIP nccl_dying: needs two GPUs and PyTorch"
fi
echo "failures: $failures"
[ "$failures" = 0 ]
