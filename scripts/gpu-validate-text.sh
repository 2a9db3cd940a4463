#!/usr/bin/env bash
# Real-GPU checks of the text stacks (docs/usage.md#stacks): the C runtime
# below main left out, runs inside one CUDA library counted in one line,
# every frame with --full-stacks, and no file:line for a function without
# line information (_start). Every check asserts; exits non-zero on a wrong result.
# Usage: scripts/gpu-validate-text.sh [BUILD_DIR] [OUT_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
B="$(realpath "${1:-build}")"
W="$(realpath -m "${2:-build/gpu-text}")"
rm -rf "$W" && mkdir -p "$W"
failures=0
has() {  # NAME TEXT PATTERN (grep -E)
  if grep -qE -- "$3" <<<"$2"; then echo "PASS $1"; else echo "FAIL $1: no '$3'"; failures=$((failures + 1)); fi
}
lacks() {  # NAME TEXT PATTERN (grep -E)
  if grep -qE -- "$3" <<<"$2"; then echo "FAIL $1: found '$3'"; failures=$((failures + 1)); else echo "PASS $1"; fi
}

for p in "$B/samples/sample_loop_leak" "$B/samples/sample_exception_leak" "$B/tests/gpu/gpu_cublas_no_destroy"; do
  name=$(basename "$p")
  short=$("$B/bin/cudaleak" run -o "$W/$name.json" -- "$p" 2>&1)
  full=$("$B/bin/cudaleak" report --full-stacks "$W/$name.json" 2>&1)
  echo "$short" >"$W/$name.txt"
  has "$name: the program's main is shown" "$short" " in main "
  lacks "$name: nothing of the C runtime below main" "$short" "__libc_start|in _start "
  has "$name: --full-stacks shows _start" "$full" " in _start "
  got=$(python3 - "$W/$name.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
bad = [(f.get("file"), f.get("line")) for g in r["leaks"] for f in g["stack"] if f.get("function") == "_start" and f.get("file")]
print("ok" if not bad else "file:line on _start: %s" % bad[:3])
PY
)
  has "$name: _start has no file:line in the JSON" "$got" "^ok$"
done
# Python (a raw cudaMalloc through ctypes, never freed): the script's top
# level is the last frame shown, the interpreter below it is left out.
out=$("$B/bin/cudaleak" run -o "$W/ctypes.%p.json" -- python3 tests/gpu/python/scenario_ctypes.py 2>&1)
echo "$out" >"$W/ctypes.txt"
has "Python: the script's top level is shown" "$out" "in <module> .*scenario_ctypes.py"
has "Python: cudart's frames (a link and its target) counted in one line" "$out" "\.\.\. 2 frames in libcudart\.so"
lacks "Python: no interpreter frames below <module>" "$out" "Py_RunMain|Py_BytesMain|__libc_start|in main "
echo "text checks: $failures failed"
exit $((failures > 0))
