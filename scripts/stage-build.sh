#!/usr/bin/env bash
# Copies what runs of a build into DEST (no object files): the launcher, the
# preload library with its bundled dependencies, the samples and the test
# programs. DEST is self-contained and can be copied to a GPU machine.
# Usage: scripts/stage-build.sh [BUILD_DIR] DEST
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
dest="${2:?usage: scripts/stage-build.sh [BUILD_DIR] DEST}"
rm -rf "$dest"
mkdir -p "$dest/samples" "$dest/tests/e2e" "$dest/tests/gpu" "$dest/tests/bench"
cp -a "$build/bin" "$build/lib" "$dest/"
find "$build/samples" -maxdepth 1 -type f \( -name 'sample_*' -o -name '*.so' \) -exec cp -a {} "$dest/samples/" \;
find "$build/tests/e2e" -maxdepth 1 -type f -perm -u+x -exec cp -a {} "$dest/tests/e2e/" \;
find "$build/tests/gpu" -maxdepth 1 -type f -perm -u+x -exec cp -a {} "$dest/tests/gpu/" \;
find "$build/tests/bench" -maxdepth 1 -type f -perm -u+x -exec cp -a {} "$dest/tests/bench/" \;
# cudaleak's own debug info is never needed to read a report (its frames are dropped).
strip --strip-debug "$dest/bin/cudaleak" "$dest/lib/libcudaleak.so"
du -sh "$dest" | cut -f1
