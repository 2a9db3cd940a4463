#!/usr/bin/env bash
# The sanitizer tree (build-fuzz, clang): runs the unit tests, then each
# libFuzzer target (tests/fuzz) for SECONDS (default 60), all under
# AddressSanitizer and UndefinedBehaviorSanitizer, the targets from the
# committed seed corpus. New inputs go to build-fuzz/corpus, findings to
# build-fuzz/findings; exits non-zero on any failure or finding. Needs clang
# (scripts/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
targets=(report crash_capture suppressions baseline options device_lines lz4)
cmake -S . -B build-fuzz -G Ninja -DCUDALEAK_FUZZ=ON -DCUDALEAK_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCUDA_ROOT="${CUDA_ROOT:-/usr/local/cuda}" \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" >/dev/null
cmake --build build-fuzz --target "${targets[@]/#/fuzz_}" unit_tests
echo "unit tests under ASan+UBSan:"
(cd build-fuzz && ctest --output-on-failure -j "$(nproc)" | tail -3) || exit 1
mkdir -p build-fuzz/findings
jobs="$(nproc)"
run_target() {
  local t="$1"
  mkdir -p "build-fuzz/corpus/$t"
  # -rss_limit_mb/-malloc_limit_mb: an input that makes a parser allocate
  # without bound is a finding too.
  if build-fuzz/bin/fuzz_"$t" "build-fuzz/corpus/$t" "tests/fuzz/corpus/$t" -max_total_time="$seconds" \
      -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=10 -seed=1 -print_final_stats=1 \
      -artifact_prefix="build-fuzz/findings/$t-" >"build-fuzz/$t.log" 2>&1; then
    echo "fuzz $t: $(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "build-fuzz/$t.log" | grep -o '[0-9]*$') runs in ${seconds}s, no finding"
  else
    echo "fuzz $t: FINDING (build-fuzz/$t.log, build-fuzz/findings/$t-*)"
    tail -40 "build-fuzz/$t.log"
    return 1
  fi
}
status=0
pids=()
for t in "${targets[@]}"; do
  run_target "$t" & pids+=($!)
  if (( ${#pids[@]} >= jobs )); then wait "${pids[0]}" || status=1; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
