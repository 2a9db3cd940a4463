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
# 5. A command that drops the preload: seen by the launcher, not green.
d="$out/escape"; mkdir -p "$d"
"$cudaleak" run --error-exitcode 9 -o "$d/r.%p.json" -- env -u LD_PRELOAD "$build/tests/e2e/wait_for_signal" "$d/pid" busy >/dev/null 2>"$d/err" &
l=$!; while [ ! -s "$d/pid" ]; do sleep 0.01; done; sleep 1; kill -TERM "$(cat "$d/pid")"; wait $l; s=$?
grep -q "LD_PRELOAD" "$d/err" && [ $s != 0 ] && pass "escape: status $s, named: $(grep -m1 LD_PRELOAD "$d/err" | cut -c1-160)" ||
  { fail "escape: status $s"; cat "$d/err"; }

# 6. PyTorch with few descriptors left: its report is still written.
d="$out/fds"; mkdir -p "$d"
(ulimit -n 64; "$cudaleak" run -o "$d/r.%p.json" -- python3 -c \
  "import torch; x = torch.empty(1 << 20, device='cuda'); print('ok')" >"$d/out" 2>"$d/err")
s=$?
[ $s = 0 ] && ls "$d"/r.*.json >/dev/null 2>&1 && pass "fds: ulimit -n 64, status 0, report written" || { fail "fds: status $s"; tail -5 "$d/err"; }

# 7. CUDA's template wrapper (shared and static cudart): tests/cases/seams/template_wrapper*,
# run by scripts/gpu-test.sh.

# 8. A transformers server keeping every request's KV cache: the lines are the program's.
if python3 -c "import transformers" 2>/dev/null; then
  d="$out/kv_cache"; mkdir -p "$d"
  timeout 300 "$cudaleak" run -o "$d/r.%p.%n.json" -- python3 tests/gpu/python/scenario_kv_cache.py >"$d/out" 2>"$d/err"
  keep=$(grep -n "LINE:keep" tests/gpu/python/scenario_kv_cache.py | cut -d: -f1)
  grep -q "out of memory" "$d/err" && pass "kv_cache: out of memory told ($(cat "$d/out"))" || fail "kv_cache: no out-of-memory story"
  grep -q "serve_request (scenario_kv_cache.py" "$d/err" && pass "kv_cache: serve_request named" || fail "kv_cache: serve_request not named"
  grep -q "from update (cache_utils.py\|from [a-z_]* (modeling_gpt2.py\\|library code: no line" "$d/err" && fail "kv_cache: a library's line named as the tensors' origin" || pass "kv_cache: no library line as origin"
  grep -m1 -A8 "Likely causes" "$d/err" | cut -c1-400
else
  echo "SKIP kv_cache: no transformers"
fi
# 9. The fill loop of scenario_fragmentation: its first failure is the fill's
# growth, the fragmentation it left told last; the big request later is
# fragmentation first (gpu-validate-oom-story.sh checks that one).
d="$out/fill"; mkdir -p "$d"
"$cudaleak" run -o "$d/r.%p.%n.json" -- python3 tests/gpu/python/scenario_fragmentation.py >"$d/out" 2>"$d/err"
python3 - "$d" <<'PY' || failures=$((failures + 1))
import glob, json, sys
events = sorted((e for f in glob.glob(sys.argv[1] + "/r.*.json") for e in json.load(open(f)).get("oom_events", [])
                 if "pytorch" in e), key=lambda e: e.get("time_ns", 0))
causes = [[x["cause"] for x in e["diagnosis"]] for e in events]
print("causes by event:", causes)
fill = events[0]["diagnosis"] if events else []
ok = bool(fill) and fill[0]["cause"] == "live_tensors"
if any(x["cause"] == "fragmentation" for x in fill):
    ok &= fill[-1]["cause"] == "fragmentation" and "not why memory ran out" in fill[-1]["message"]
    print(fill[-1]["message"][:600])
ok &= bool(causes) and causes[-1][:1] == ["fragmentation"]
print(("PASS" if ok else "FAIL") + " fill: growth first at the fill, fragmentation first at the big request")
sys.exit(0 if ok else 1)
PY
# 10. What a pool keeps, device malloc unseen, cuRAND's later state, libraries'
# use calls: tests/cases/seams, run by scripts/gpu-test.sh.

# 11. Stack churn on the GPU: 2^18 distinct stacks made and freed at once.
d="$out/churn"; mkdir -p "$d"
"$cudaleak" run -o "$d/r.json" -- "$build/tests/e2e/stack_churn" 18 >"$d/out" 2>"$d/err"
g=$(sed -n 's/.*rss_growth_kb=\([0-9]*\).*/\1/p' "$d/out")
[ -n "$g" ] && [ "$g" -lt 32768 ] && pass "stack churn: 2^18 stacks, RSS grew ${g} KiB" || fail "stack churn: growth '${g}' KiB"
# 12. A clean CuPy program copying through pinned buffers: the pinned pool's
# event is held by its cache, the gate passes.
if python3 -c "import cupy" 2>/dev/null; then
  d="$out/cupy_pinned"; mkdir -p "$d"
  "$cudaleak" run --error-exitcode 9 -o "$d/r.%p.json" -- python3 tests/gpu/python/cupy_pinned_copies.py >"$d/out" 2>"$d/err"
  s=$?
  [ $s = 0 ] && grep -q "CuPy pinned memory pool" "$d/err" && pass "cupy_pinned: status 0, the event held by CuPy's pinned pool" ||
    { fail "cupy_pinned: status $s"; tail -8 "$d/err"; }
fi
echo "failures: $failures"
[ "$failures" = 0 ]
