#!/usr/bin/env bash
# The ThreadSanitizer tree (build-tsan, clang): the tracker's concurrent
# structures (registry, stack depot, timeline, learned contexts) under their
# multi-threaded tests (tests/CMakeLists.txt: concurrency_tests). Any race
# report fails the run. The preload library itself is not built with TSan:
# it runs inside programs that are not. Needs clang (scripts/setup.sh
# installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-tsan -G Ninja -DCUDALEAK_FUZZ=ON -DCUDALEAK_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCUDA_ROOT="${CUDA_ROOT:-/usr/local/cuda}" \
  -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer" >/dev/null
cmake --build build-tsan --target concurrency_tests
echo "concurrency tests under ThreadSanitizer:"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 ${TSAN_OPTIONS:-}" \
  build-tsan/tests/concurrency_tests --warn NoTests | tail -3
