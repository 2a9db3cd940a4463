#!/usr/bin/env bash
# Builds the packages of a build tree (default build/): a .deb (installs in
# /opt/cudaleak) and a .tar.gz, into BUILD_DIR/packages. Then checks the .deb:
# unpacked into a scratch root, its cudaleak runs a sample under the
# simulated GPU. Usage: scripts/package.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build="$(realpath "${1:-build}")"
cmake --build "$build"
(cd "$build" && cpack -B "$build/packages" >/dev/null)
deb=$(ls "$build"/packages/cudaleak_*_amd64.deb)
tgz=$(ls "$build"/packages/cudaleak-*-Linux-x86_64.tar.gz)
root="$build/packages/scratch-root"
rm -rf "$root" && dpkg-deb -x "$deb" "$root"
out=$("$root/opt/cudaleak/bin/cudaleak" run --simulated-gpu -o "$build/packages/check.%p.json" -- \
      "$build/samples/sample_pinned_leak_shared" 2>&1 >/dev/null)
grep -q "2.1 MiB leaked in 2 resources" <<<"$out" || { echo "the packaged cudaleak did not report the leak:"; echo "$out"; exit 1; }
echo "packages: $deb ($(du -h "$deb" | cut -f1)), $tgz ($(du -h "$tgz" | cut -f1)); the .deb's cudaleak runs"
