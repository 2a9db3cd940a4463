#!/usr/bin/env bash
# Builds cudaleak and runs every test (unit and end-to-end, under the
# simulated GPU; no GPU needed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cd build
ctest --output-on-failure -j "$(nproc)"
