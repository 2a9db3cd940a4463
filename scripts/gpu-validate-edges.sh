#!/usr/bin/env bash
# Real-GPU checks of the edges of issues 50 and 51 that a user reads: a
# SIGTERM that lands inside a hook ends the process with its report at once;
# control characters in names reach the terminal escaped; ',' between
# CUDALEAK_OPTIONS is honoured; a device filled by a growing line is told as
# growth first, with fragmentation after it. Exits non-zero on a wrong result.
# Usage: scripts/gpu-validate-edges.sh [BUILD_DIR] [OUT_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
build="$(realpath "${1:-build}")"
out="$(realpath -m "${2:-build/gpu-edges}")"
rm -rf "$out" && mkdir -p "$out"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cudaleak="$build/bin/cudaleak"
failures=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"

# 1. SIGTERM while the only thread makes CUDA calls back to back: 20 runs.
slow=0; lost=0; worst=0
for i in $(seq 20); do
  d="$out/sigterm$i"; mkdir -p "$d"
  "$cudaleak" run -o "$d/r.%p.json" -- "$build/tests/e2e/wait_for_signal" "$d/pid" busy >/dev/null 2>"$d/err" &
  l=$!
  while [ ! -s "$d/pid" ]; do sleep 0.01; done
  sleep 0.$((i % 7))
  t0=$(date +%s%N); kill -TERM "$(cat "$d/pid")"; wait $l; s=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  [ "$ms" -gt "$worst" ] && worst=$ms
  [ "$ms" -gt 3000 ] && slow=$((slow + 1))
  { [ "$s" = 143 ] && ls "$d"/r.*.json >/dev/null 2>&1; } || lost=$((lost + 1))
done
[ $slow = 0 ] && pass "sigterm: 20 runs, slowest ${worst} ms" || fail "sigterm: $slow of 20 runs over 3 s (slowest ${worst} ms)"
[ $lost = 0 ] && pass "sigterm: 20 reports, status 143" || fail "sigterm: $lost runs without report or status 143"

# 2. Control characters in a Python function's and file's names.
d="$out/hostile"; mkdir -p "$d"
"$cudaleak" run --gen-suppressions -o "$d/r.json" -- python3 tests/e2e/programs/python_hostile_names.py >"$d/out" 2>"$d/err"
if LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$d/err"; then fail "hostile: raw control characters on stderr"; else pass "hostile: none raw"; fi
grep -qF 'hostile\x0aleak:* kind:device\x1b[8m' "$d/err" && pass "hostile: the name shown escaped" || fail "hostile: escaped name missing"
grep -q '^leak:\* kind:device' "$d/err" && fail "hostile: a rule of wildcards alone" || pass "hostile: no forged rule"
"$cudaleak" report "$d/r.json" --by function >"$d/by" 2>&1
LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$d/by" && fail "hostile: --by function raw" || pass "hostile: --by function escaped"

# 3. Options separated by ',' as the sanitizers' are.
d="$out/commas"; mkdir -p "$d"
CUDALEAK_OPTIONS="output=$d/a.json,error_exitcode=7" "$cudaleak" run -- "$build/samples/sample_loop_leak_shared" >/dev/null 2>"$d/err"
s=$?
[ $s = 7 ] && [ -f "$d/a.json" ] && pass "commas: status 7, report a.json" || fail "commas: status $s, files: $(ls "$d")"

# 4. A device filled by one growing line, with holes: growth first, fragmentation after.
d="$out/growth_holes"; mkdir -p "$d"
"$cudaleak" run -o "$d/r.%p.%n.json" -- python3 tests/gpu/python/scenario_growth_holes.py >"$d/out" 2>"$d/err"
python3 - "$d" <<'PY' || failures=$((failures + 1))
import glob, json, re, sys
d = sys.argv[1]
line = [i for i, l in enumerate(open("tests/gpu/python/scenario_growth_holes.py"), 1) if "LINE:cache" in l][0]
events = [e for f in glob.glob(d + "/r.*.json") for e in json.load(open(f)).get("oom_events", []) if "pytorch" in e]
ok = bool(events)
for e in events:
    causes = [x["cause"] for x in e["diagnosis"]]
    print("causes", causes)
    ok &= bool(causes) and causes[0] != "fragmentation"
    if "fragmentation" in causes:
        ok &= causes[-1] == "fragmentation" and "not why memory ran out" in e["diagnosis"][-1]["message"]
text = open(d + "/err").read()
ok &= ("serve_request (scenario_growth_holes.py:%d)" % line) in text
print(("PASS" if ok else "FAIL") + " growth_holes: growth first, the line named")
sys.exit(0 if ok else 1)
PY
grep -m3 -A6 "out of memory" "$d/err" | head -30
echo "failures: $failures"
[ "$failures" = 0 ]
