#!/usr/bin/env bash
# External semaphores on a real GPU (issue 12): Vulkan exports a binary and a
# timeline semaphore as opaque file descriptors, CUDA imports both
# (tests/gpu/kinds/vulkan_semaphore.cpp); `leak` never destroys the imports,
# `clean` does. Asserts that cudaleak reports exactly those 2
# external_semaphore resources, created in import_semaphore(), and nothing in
# the clean run; exits non-zero otherwise, and when Vulkan cannot export a
# semaphore on this machine.
#
# Needs the Vulkan loader and headers, which the GPU machine lacks: download
# them here once (docs/validation.md, "External semaphores"):
#   mkdir -p .gl && (cd .gl && apt-get download libvulkan1 libvulkan-dev)
# and carry .gl; this script unpacks them with dpkg -x.
# Usage: scripts/gpu-validate-vulkan.sh [STAGED_BUILD] [OUT_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
S="$(realpath "${1:-build-stage}")"
O="$(realpath -m "${2:-/tmp/cudaleak-vulkan}")"
cuda="${CUDA_ROOT:-/usr/local/cuda}"
rm -rf "$O" && mkdir -p "$O"
if ls .gl/*.deb >/dev/null 2>&1; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
export VK_DRIVER_FILES="${VK_DRIVER_FILES:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}"
[ -f "$VK_DRIVER_FILES" ] || unset VK_DRIVER_FILES
ldconfig -p | grep -q 'libvulkan.so.1 ' || { echo "gpu-validate-vulkan: no Vulkan loader (libvulkan.so.1); see the header" >&2; exit 1; }
[ -f /usr/include/vulkan/vulkan.h ] || { echo "gpu-validate-vulkan: no Vulkan headers; see the header" >&2; exit 1; }
g++ -std=c++17 -O2 -g tests/gpu/kinds/vulkan_semaphore.cpp -I"$cuda/include" -L"$cuda/lib64/stubs" -lcuda -ldl \
  -o "$O/vulkan_semaphore" || { echo "gpu-validate-vulkan: build failed" >&2; exit 1; }

failures=0
for mode in leak clean; do
  "$O/vulkan_semaphore" $mode >"$O/plain.$mode.out" 2>&1
  plain=$?
  "$S/bin/cudaleak" run -o "$O/$mode.%p.json" -- "$O/vulkan_semaphore" $mode >"$O/$mode.out" 2>"$O/$mode.err"
  traced=$?
  echo "== $mode: plain status $plain, under cudaleak $traced"
  cat "$O/plain.$mode.out"
  grep -h "never destroyed\|SUMMARY" "$O/$mode.err" | sed 's/^/   /'
  # The leak run's report makes cudaleak exit 1 only with a gate; without one the
  # program's status passes through.
  if [ "$plain" != 0 ] || [ "$traced" != 0 ]; then
    echo "FAIL $mode: the program did not run through (77: no Vulkan device can export a semaphore)"
    failures=$((failures + 1))
  fi
done
python3 - "$O" <<'PY' || failures=$((failures + 1))
import glob, json, sys
out = sys.argv[1]
bad = []
def one(mode):
    paths = glob.glob(f"{out}/{mode}.*.json")
    if len(paths) != 1:
        bad.append(f"{mode}: {len(paths)} reports")
        return None
    return json.load(open(paths[0]))
def expect(what, got, want):
    print(f"{'ok  ' if got == want else 'FAIL'} {what} = {got} (expected {want})")
    if got != want:
        bad.append(what)
r = one("leak")
if r:
    groups = [g for g in r["leaks"] if g["kind"] == "external_semaphore"]
    expect("leak: external semaphores", sum(g["count"] for g in groups), 2)
    expect("leak: their API", sorted({g["api"] for g in groups}), ["cuImportExternalSemaphore"])
    expect("leak: created in import_semaphore",
           all(any("import_semaphore" in f.get("function", "") for f in g["stack"]) for g in groups) and bool(groups), True)
    expect("leak: other leaked kinds", sorted({g["kind"] for g in r["leaks"]} - {"external_semaphore"}), [])
    expect("leak: notes", len(r.get("notes", [])), 0)
r = one("clean")
if r:
    expect("clean: leaked resources", r["summary"]["leaked_count"], 0)
    expect("clean: notes", len(r.get("notes", [])), 0)
sys.exit(1 if bad else 0)
PY
echo "gpu-validate-vulkan: $failures failure(s)"
exit $((failures > 0))
