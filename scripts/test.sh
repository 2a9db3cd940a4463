#!/usr/bin/env bash
# Builds cudaleak (warnings are errors), checks the sources' format
# (scripts/check-format.sh), runs every test (unit and end-to-end, under the
# simulated GPU; no GPU needed), then each fuzz target for a bounded time
# under AddressSanitizer and UndefinedBehaviorSanitizer (scripts/fuzz.sh),
# then the concurrency tests under ThreadSanitizer (scripts/tsan.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/check-format.sh
(cd build && ctest --output-on-failure -j "$(nproc)")
scripts/fuzz.sh "${CUDALEAK_FUZZ_SECONDS:-60}"
scripts/tsan.sh
