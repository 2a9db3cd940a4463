#!/usr/bin/env bash
# Real-GPU validation beside the sanitizers (issue 51): the samples and a
# program built with ASan or TSan host code (nvcc -Xcompiler -fsanitize=...,
# with the static and the shared cudart), and a PyTorch C++ extension built
# with ASan, each run alone and under `cudaleak run`: the same stdout and
# status, the leak reported at the user's line, no sanitizer complaint that
# the run alone does not have. Exits non-zero on the first wrong result.
# Usage: scripts/gpu-validate-sanitizers.sh [BUILD_DIR] [OUT_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
build="$(realpath "${1:-build}")"
out="$(realpath -m "${2:-build/gpu-sanitizers}")"
rm -rf "$out" && mkdir -p "$out/bin"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="${CUDA_ROOT:-/usr/local/cuda}/bin:$PATH"
cudaleak="$build/bin/cudaleak"
failures=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
# CUDA needs ASan's shadow gap left unprotected to map its own memory.
export ASAN_OPTIONS="protect_shadow_gap=0:detect_leaks=0"
echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"

# same NAME EXPECT_LEAK_TEXT CMD...: the command alone and under cudaleak.
same() {
  local name=$1 expect=$2; shift 2
  local d="$out/$name"; mkdir -p "$d"
  timeout 300 "$@" >"$d/alone.out" 2>"$d/alone.err"; local s1=$?
  timeout 300 "$cudaleak" run -o "$d/r.%p.json" -- "$@" >"$d/traced.out" 2>"$d/traced.err"; local s2=$?
  if [ "$s1" = "$s2" ]; then pass "$name: status $s2 alone and traced"; else fail "$name: status $s1 alone, $s2 traced"; fi
  if cmp -s "$d/alone.out" "$d/traced.out"; then pass "$name: same stdout"; else fail "$name: stdout differs"; diff "$d/alone.out" "$d/traced.out" | head -5; fi
  for word in AddressSanitizer ThreadSanitizer "does not come first"; do
    local a t
    a=$(grep -c "$word" "$d/alone.err"); t=$(grep -c "$word" "$d/traced.err")
    if [ "$t" -le "$a" ]; then pass "$name: no new '$word' ($a alone, $t traced)"; else fail "$name: '$word' $t times traced, $a alone"; sed -n 1,20p "$d/traced.err"; fi
  done
  if [ -n "$expect" ]; then
    if grep -q -- "$expect" "$d/traced.err"; then pass "$name: the text says '$expect'"; else fail "$name: no '$expect' in the text"; tail -20 "$d/traced.err"; fi
  fi
}

# 1. Samples with ASan and TSan host code, static and shared cudart.
for san in address thread; do
  for rt in static shared; do
    for s in exception_leak loop_leak stream_event_leak; do
      bin="$out/bin/${s}_${san}_${rt}"
      if ! nvcc -g -cudart $rt -Xcompiler "-fsanitize=$san,-fno-omit-frame-pointer" -Xlinker "-fsanitize=$san" \
          -o "$bin" "samples/$s.cu" >"$bin.build.log" 2>&1; then
        # nvcc passes -Xlinker to ld: link through g++ instead.
        nvcc -g -cudart $rt -Xcompiler "-fsanitize=$san,-fno-omit-frame-pointer" -c -o "$bin.o" "samples/$s.cu" &&
          g++ -fsanitize=$san -o "$bin" "$bin.o" -L/usr/local/cuda/lib64 \
            $([ $rt = static ] && echo -lcudart_static -ldl -lrt -lpthread || echo -lcudart) >>"$bin.build.log" 2>&1 ||
          { fail "build $bin"; cat "$bin.build.log"; continue; }
      fi
      same "${s}_${san}_${rt}" "never" "$bin"  # freed (memory) or destroyed (streams, events)
    done
  done
done
# 2. The e2e program built here with gcc's sanitizers (dynamic runtimes).
for san in address thread; do
  prog="$build/tests/e2e/sanitized_leak_$san"
  if ldd "$prog" | grep -q "not found"; then
    echo "SKIP sanitized_leak_$san: $(ldd "$prog" | grep "not found" | head -1) (built elsewhere; the samples above are built here)"
    continue
  fi
  same "sanitized_leak_$san" "1.0 MiB of device memory in 1 allocation never freed" "$prog"
done
# 3. The same with the user's own LD_PRELOAD of ASan's runtime first.
asan=$(gcc -print-file-name=libasan.so)
d="$out/user_preload"; mkdir -p "$d"
LD_PRELOAD="$asan" "$cudaleak" run -o "$d/r.%p.json" -- "$out/bin/loop_leak_address_shared" >"$d/out" 2>"$d/err"
s=$?
if [ $s = 0 ] && grep -q "never freed" "$d/err"; then pass "user_preload: status 0, leak told"; else fail "user_preload: status $s"; tail "$d/err"; fi
# 4. A PyTorch C++ extension built with ASan, in a Python that preloads ASan.
if python3 -c "import torch" 2>/dev/null; then
  # Each extension is built once first (g++ and ninja under a preloaded
  # sanitizer runtime are not what is compared), then run alone and traced.
  mkdir -p "$out/ext_build" "$out/tsan_ext_build"
  python3 tests/gpu/python/asan_extension.py "$out/ext_build" >/dev/null 2>&1
  python3 tests/gpu/python/asan_extension.py "$out/tsan_ext_build" thread >/dev/null 2>&1
  export LD_PRELOAD="$asan"
  same asan_extension "keep_and_leak" python3 tests/gpu/python/asan_extension.py "$out/ext_build"
  export LD_PRELOAD="$(gcc -print-file-name=libtsan.so)"
  same tsan_extension "" python3 tests/gpu/python/asan_extension.py "$out/tsan_ext_build" thread
  unset LD_PRELOAD
else
  fail "torch not importable"
fi
echo "failures: $failures"
[ "$failures" = 0 ]
