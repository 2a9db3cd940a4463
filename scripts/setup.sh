#!/usr/bin/env bash
# Installs the build dependencies (Debian packages) when missing, then
# configures and builds cudaleak into build/. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."

# Needed to build and test.
packages=(build-essential cmake ninja-build libunwind-dev libdw-dev libelf-dev libspdlog-dev libfmt-dev
          catch2 libgtest-dev nlohmann-json3-dev libcli11-dev zlib1g-dev liblzma-dev libbz2-dev libzstd-dev python3
          clang libclang-rt-14-dev)  # clang: the libFuzzer targets (scripts/fuzz.sh)
# Only for some tests (pytest plugin, HTML report in a browser): skipped when missing.
optional=(python3-pytest chromium)
command -v node >/dev/null || optional+=(nodejs)
command -v npm >/dev/null || optional+=(npm)

sudo_cmd=""
[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
updated=0
install() {  # install PACKAGE... (only those not installed yet)
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || return 0
  echo "cudaleak: installing ${missing[*]}"
  if [ "$updated" = 0 ]; then $sudo_cmd apt-get update -qq && updated=1; fi
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
}
install "${packages[@]}"
install "${optional[@]}" || echo "cudaleak: optional packages not installed; their tests will be skipped"

cuda_root="${CUDA_ROOT:-/usr/local/cuda}"
if [ ! -f "$cuda_root/include/cudaTypedefs.h" ]; then
  echo "cudaleak: CUDA Toolkit 13 not found at $cuda_root (set CUDA_ROOT)" >&2
  exit 1
fi

# The HTML report's browser test drives Debian's Chromium with playwright-core.
if [ ! -d tests/browser/node_modules/playwright-core ]; then
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error) || echo "cudaleak: npm ci failed; the browser test will be skipped"
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDA_ROOT="$cuda_root" >/dev/null
cmake --build build
