#!/usr/bin/env bash
# Installs the build dependencies (Debian packages) when missing, then
# configures and builds cudaleak into build/. Safe to run again.
#   scripts/setup.sh          everything, tests included (scripts/test.sh)
#   scripts/setup.sh --demo   only what the tool and its samples need (scripts/demo.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
demo=0
[ "${1:-}" = "--demo" ] && demo=1

# Needed to build the tool and the samples.
packages=(build-essential cmake ninja-build libunwind-dev libdw-dev libelf-dev libspdlog-dev libfmt-dev
          nlohmann-json3-dev libcli11-dev zlib1g-dev liblzma-dev libbz2-dev libzstd-dev python3 libncurses-dev)
optional=()
if [ "$demo" = 0 ]; then
  # Needed to test; clang: the libFuzzer targets (scripts/fuzz.sh); clang-format: scripts/check-format.sh.
  packages+=(catch2 libgtest-dev clang libclang-rt-14-dev clang-format git)
  # Only for some tests (pytest plugin and its wheel, SARIF schema, man page, HTML report in a browser):
  # skipped when missing.
  optional=(python3-pytest python3-venv python3-jsonschema man-db chromium tmux)
  command -v node >/dev/null || optional+=(nodejs)
  command -v npm >/dev/null || optional+=(npm)
fi

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
if ((${#optional[@]})); then
  install "${optional[@]}" || echo "cudaleak: optional packages not installed; their tests will be skipped"
fi

cuda_root="${CUDA_ROOT:-/usr/local/cuda}"
if [ ! -f "$cuda_root/include/cudaTypedefs.h" ]; then
  echo "cudaleak: CUDA Toolkit 13 not found at $cuda_root (set CUDA_ROOT)" >&2
  exit 1
fi

# The HTML report's browser test drives Debian's Chromium with playwright-core.
if [ "$demo" = 0 ] && [ ! -d tests/browser/node_modules/playwright-core ]; then
  (cd tests/browser && npm ci --no-audit --no-fund --loglevel=error) || echo "cudaleak: npm ci failed; the browser test will be skipped"
fi

tests=ON
[ "$demo" = 1 ] && tests=OFF
# CUDALEAK_WERROR: a warning fails the build (with the compilers the tree is kept clean under).
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDA_ROOT="$cuda_root" -DCUDALEAK_BUILD_TESTS=$tests \
  -DCUDALEAK_WERROR=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON >/dev/null
cmake --build build
