#!/usr/bin/env bash
# Real-GPU validation of the runtime (issue: fork, crash, races, output,
# signals). Every check asserts; the script exits non-zero on the first wrong
# result and prints what it saw.
# Usage: scripts/gpu-validate-runtime.sh [BUILD_DIR] [OUT_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
build="$(realpath "${1:-build}")"
out="$(realpath -m "${2:-build/gpu-runtime}")"
rm -rf "$out" && mkdir -p "$out"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
cudaleak="$build/bin/cudaleak"
e2e="$build/tests/e2e"
failures=0
pass() { echo "PASS $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
expect_status() {  # NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then pass "$1: status $3"; else fail "$1: status $3, expected $2"; fi
}
# json FILE EXPR: a Python expression over the report `r`
json() { python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print($2)" "$1"; }
expect_json() {  # NAME FILE EXPR EXPECTED
  local got
  got=$(json "$2" "$3" 2>&1)
  if [ "$got" = "$4" ]; then pass "$1: $3 = $got"; else fail "$1: $3 = $got, expected $4"; fi
}

echo "machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"

# 1. A crash: the capture is written in the handler and built into a report by the launcher.
d="$out/crash"; mkdir -p "$d"
"$cudaleak" run -o "$d/r.%p.json" -- "$e2e/crash_after_leak" >"$d/out" 2>"$d/err"; s=$?
expect_status crash 139 "$s"
f=$(ls "$d"/r.*.json | head -1)
expect_json crash "$f" "r['reason']" crash
expect_json crash "$f" "[g['bytes'] for g in r['leaks'] if g['kind']=='device']" "[1048576]"
expect_json crash "$f" "any('main' in (fr.get('function') or '') for g in r['leaks'] for fr in g['stack'])" True
# Frames in shared libraries resolve too (each module's load address right):
# NVIDIA's runtime names the API the program called.
expect_json crash "$f" "[g['api'] for g in r['leaks'] if g['kind']=='device']" "['cudaMalloc']"
expect_json crash "$f" "[d['peak']['bytes'] for d in r['timeline']['devices']]" "[1048576]"
expect_json crash "$f" "[(m['type'], m['name']) for m in r['timeline']['marks']]" "[('checkpoint', 'allocated')]"

# 2. Heap corruption (double free, arena lock held) while 4 threads allocate: 10 runs, never a hang.
for i in $(seq 1 10); do
  d="$out/heap$i"; mkdir -p "$d"
  timeout 60 "$cudaleak" run -o "$d/r.%p.json" -- "$e2e/heap_corruption" >"$d/out" 2>"$d/err"; s=$?
  expect_status "heap corruption $i" 134 "$s"
  f=$(ls "$d"/r.*.json 2>/dev/null | head -1)
  [ -n "$f" ] && expect_json "heap corruption $i" "$f" "r['reason']" crash || fail "heap corruption $i: no report"
done

# 3. Address reuse across 32 threads: exact count, no notes, 3 runs.
for i in 1 2 3; do
  d="$out/race$i"; mkdir -p "$d"
  "$cudaleak" run -o "$d/r.json" -- "$e2e/address_race" 32 5000 >"$d/out" 2>"$d/err"; s=$?
  expect_status "race $i" 0 "$s"
  expect_json "race $i" "$d/r.json" "r['summary']['leaked_count']" 1600
  expect_json "race $i" "$d/r.json" "len(r.get('notes', []))" 0
done

# 4. 200 forks while 4 threads allocate (children make no CUDA call: a real driver forbids it).
d="$out/fork"; mkdir -p "$d"
timeout 300 "$cudaleak" run -o "$d/r.%p.json" -- "$e2e/fork_storm" 200 host >"$d/out" 2>"$d/err"; s=$?
expect_status "fork storm" 0 "$s"
grep -qx "forks 200 hung 0 failed 0" "$d/out" && pass "fork storm: $(cat "$d/out")" || fail "fork storm: $(cat "$d/out")"

# 5. SIGTERM to the program: termination report, then death by SIGTERM.
d="$out/sigterm"; mkdir -p "$d"
"$cudaleak" run -o "$d/r.%p.json" -- "$e2e/wait_for_signal" "$d/pid" >"$d/out" 2>"$d/err" & L=$!
while [ ! -s "$d/pid" ]; do sleep 0.05; done
kill -TERM "$(cat "$d/pid")"; wait $L; s=$?
expect_status sigterm 143 "$s"
f=$(ls "$d"/r.*.json | head -1)
expect_json sigterm "$f" "r['reason']" termination
expect_json sigterm "$f" "r['summary']['leaked_bytes']" 1048576

# 6. SIGTERM to the launcher: forwarded, no orphan, no temporary directory left.
d="$out/launcher"; mkdir -p "$d/tmp"
TMPDIR="$d/tmp" "$cudaleak" run -o "$d/r.%p.json" -- "$e2e/wait_for_signal" "$d/pid" >"$d/out" 2>"$d/err" & L=$!
while [ ! -s "$d/pid" ]; do sleep 0.05; done
kill -TERM $L; wait $L; s=$?
expect_status "launcher sigterm" 143 "$s"
kill -0 "$(cat "$d/pid")" 2>/dev/null && fail "launcher sigterm: program orphaned" || pass "launcher sigterm: program ended"
[ -z "$(ls -A "$d/tmp")" ] && pass "launcher sigterm: no temporary directory left" || fail "launcher sigterm: $(ls "$d/tmp")"

# 7. Exact leaks of the samples still match (static cudart), and a clean one reports nothing.
d="$out/samples"; mkdir -p "$d"
"$cudaleak" run -o "$d/loop.json" -- "$build/samples/sample_loop_leak" >"$d/loop.out" 2>&1
expect_json "sample loop_leak" "$d/loop.json" "r['summary']['leaked_count']" 50
"$cudaleak" run -o "$d/clean.json" -- "$build/samples/sample_clean" >"$d/clean.out" 2>&1
expect_json "sample clean" "$d/clean.json" "r['summary']['leaked_count']" 0

# 8. Twin call paths at one stack pointer, from 5 threads: the stack cache
# never gives one path's stack to the other (each site allocates its own size).
d="$out/stack_paths"; mkdir -p "$d"
"$cudaleak" run --verbose true --max-allocations 0 -o "$d/r.json" -- "$e2e/stack_paths" 4 200 >"$d/out" 2>"$d/err"; s=$?
expect_status "stack paths" 0 "$s"
for site in site_a:256 site_b:512 via_left:768 via_right:1024; do
  name=${site%:*} size=${site#*:}
  expect_json "stack paths $name" "$d/r.json" "sorted(set([g['bytes'] == g['count'] * $size for g in r['leaks'] if any(f.get('function') == '$name' for f in g['stack'])] + [sum(g['count'] for g in r['leaks'] if any(f.get('function') == '$name' for f in g['stack']))]))" "[True, 1000]"
done
grep -h "stack cache" "$d/err" | sed 's/^/     /'

# 9. Ways out that run no destructor. _exit/_Exit write the exit report and the
# gate's status; a vfork child finishes nothing of its parent; a child killed
# by SIGKILL is named by the launcher and the gate is not green; a report sent
# to /dev/null still fills the JUnit file.
d="$out/exits"; mkdir -p "$d"
for how in _exit _Exit; do
  "$cudaleak" run --error-exitcode 23 -o "$d/$how.%p.json" -- "$e2e/exit_paths" "$how" >"$d/$how.out" 2>"$d/$how.err"; s=$?
  expect_status "exit $how" 23 "$s"
  f=$(ls "$d"/$how.*.json 2>/dev/null | head -1)
  [ -n "$f" ] && expect_json "exit $how" "$f" "(r['reason'], r['summary']['leaked_bytes'])" "('exit', 1048576)" || fail "exit $how: no report"
done
"$cudaleak" run --error-exitcode 23 -o "$d/vfork.%p.json" -- "$e2e/exit_paths" vfork >"$d/vfork.out" 2>"$d/vfork.err"; s=$?
expect_status "exit vfork" 0 "$s"
[ "$(ls "$d"/vfork.*.json | wc -l)" = 1 ] && pass "exit vfork: one report" || fail "exit vfork: $(ls "$d"/vfork.*.json)"
"$cudaleak" run --error-exitcode 23 -o "$d/killed.%p.json" -- "$e2e/exit_paths" killed-child >"$d/killed.out" 2>"$d/killed.err"; s=$?
expect_status "killed child" 125 "$s"
grep -q "exit_paths killed-child) used CUDA and ended without its report" "$d/killed.err" \
  && pass "killed child: named by the launcher" || fail "killed child: $(cat "$d/killed.err")"
"$cudaleak" run -o /dev/null --junit "$d/devnull.xml" -- "$e2e/exit_paths" _exit >"$d/devnull.out" 2>"$d/devnull.err"
grep -q 'failures="1"' "$d/devnull.xml" && pass "-o /dev/null: JUnit lists the leak" || fail "-o /dev/null: $(cat "$d/devnull.xml")"

# 10. The same from Python with PyTorch: os._exit after a leaked tensor reports it;
# DataLoader workers (forked, host only) raise no false alarm; a spawned CUDA
# worker killed by SIGKILL is named.
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
  cat > "$d/os_exit.py" <<'PY'
import os, torch
kept = torch.empty(8 << 20, dtype=torch.uint8, device="cuda")
os._exit(0)
PY
  "$cudaleak" run --error-exitcode 23 --gate-live-tensors -o "$d/os_exit.%p.json" -- python3 "$d/os_exit.py" >"$d/os_exit.out" 2>"$d/os_exit.err"; s=$?
  expect_status "os._exit" 23 "$s"
  f=$(ls "$d"/os_exit.*.json 2>/dev/null | head -1)
  [ -n "$f" ] && expect_json "os._exit" "$f" "(r['reason'], r['gate']['failing_tensor_groups'], r['gate']['failing_bytes'])" "('exit', 1, 8388608)" \
    || fail "os._exit: no report"
  grep -q "os_exit.py" "$d/os_exit.err" && pass "os._exit: the tensor's Python line is named" || fail "os._exit: $(cat "$d/os_exit.err")"
  cat > "$d/loader.py" <<'PY'
import torch
from torch.utils.data import DataLoader, TensorDataset
data = TensorDataset(torch.arange(256, dtype=torch.float32))
model = torch.nn.Linear(1, 1).cuda()
total = 0.0
for (x,) in DataLoader(data, batch_size=16, num_workers=2, pin_memory=True):
    total += float(model(x.cuda(non_blocking=True).unsqueeze(1)).sum())
del model
print("batches done")
PY
  "$cudaleak" run --error-exitcode 23 -o "$d/loader.%p.json" -- python3 "$d/loader.py" >"$d/loader.out" 2>"$d/loader.err"; s=$?
  grep -q "ended without its report" "$d/loader.err" && fail "DataLoader: a false alarm: $(cat "$d/loader.err")" \
    || pass "DataLoader workers: no process named unreported (status $s)"
  cat > "$d/spawned.py" <<'PY'
import os, signal, torch, torch.multiprocessing as mp
def worker():
    kept = torch.empty(4 << 20, dtype=torch.uint8, device="cuda")
    torch.cuda.synchronize()
    os.kill(os.getpid(), signal.SIGKILL)
if __name__ == "__main__":
    p = mp.get_context("spawn").Process(target=worker)
    p.start(); p.join()
    print("worker exit", p.exitcode)
PY
  "$cudaleak" run --error-exitcode 23 -o "$d/spawned.%p.json" -- python3 "$d/spawned.py" >"$d/spawned.out" 2>"$d/spawned.err"; s=$?
  expect_status "spawned worker killed" 125 "$s"
  grep -q "used CUDA and ended without its report" "$d/spawned.err" && pass "spawned worker killed: named" \
    || fail "spawned worker killed: $(cat "$d/spawned.err")"
else
  echo "SKIP 10: no PyTorch with CUDA"
fi

echo "failures: $failures"
exit $((failures > 0))
