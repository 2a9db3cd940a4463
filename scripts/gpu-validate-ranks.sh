#!/usr/bin/env bash
# Real-GPU checks of distributed jobs on a machine with 2 or more GPUs: one
# rank per GPU started as torchrun starts them (tests/e2e/programs/fake_torchrun.py),
# rank fields, folding by rank, an out-of-memory on one rank read against the
# others, two ranks sharing one GPU (NVML names the other rank), several
# devices in one process, and the gate over the job with JUnit and SARIF.
# Every check asserts; exits non-zero when any is wrong.
# Usage: scripts/gpu-validate-ranks.sh [BUILD_DIR] [WORK_DIR]
# SIMULATED_GPU=1: the same checks under the simulated GPU (4 devices), which
# CTest runs so that this script is kept working.
set -uo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
B="$(realpath "${1:-build}")"
W="$(realpath -m "${2:-build/gpu-ranks}")"
rm -rf "$W"; mkdir -p "$W"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -n "${SIMULATED_GPU:-}" ]; then
  gpus=4
  export CUDALEAK_SIM_DEVICES=$gpus
  memory=(--simulated-gpu-memory 256MiB)  # a failure after a few blocks
  shared=(--others-hold 100MiB)          # the simulated GPU's stand-in for NVML's process list
else
  gpus=$(nvidia-smi -L | grep -c '^GPU')
  memory=(); shared=()
fi
[ "$gpus" -ge 2 ] || { echo "FAIL: needs 2 or more GPUs, found $gpus"; exit 1; }
C="$B/bin/cudaleak"
run() { "$C" run ${SIMULATED_GPU:+--simulated-gpu} "$@"; }
worker="$B/tests/e2e/rank_worker"
last=$((gpus - 1))
failures=0
check() {  # NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then echo "PASS $1: $3"; else echo "FAIL $1: got '$3', expected '$2'"; failures=$((failures + 1)); fi
}
has() {  # NAME TEXT PATTERN (grep -E)
  if grep -qE -- "$3" <<<"$2"; then echo "PASS $1"; else echo "FAIL $1: no '$3' in:"; echo "$2" | tail -8; failures=$((failures + 1)); fi
}
py() { python3 -c "$1" "${@:2}"; }

# 1. One rank per GPU: each report has its rank, local rank, world size,
# launcher and host, and its resources on its own GPU; every rank but the
# last leaks at one site, which reads as one group of gpus-1 ranks.
if [ "$gpus" -ge 3 ]; then  # all ranks but the last
  leakers=$(seq -s, 0 $((last - 1))); folded=$last
  [ "$last" -ge 3 ] && ranges="0-$((last - 1))" || ranges="$leakers"
else
  leakers=0,1; folded=2; ranges=0,1
fi
run -o "$W/fold/rank.%p.%n.json" -- "$repo/tests/e2e/programs/fake_torchrun.py" --nproc-per-node "$gpus" -- \
  "$worker" --leak-on "$leakers" >"$W/fold.log" 2>&1
check "job exit status" 0 $?
check "one report per rank" "$gpus" "$(ls "$W/fold" | wc -l)"
check "rank fields and devices" ok "$(py '
import glob, json, socket, sys
n = int(sys.argv[2]); seen = set()
for f in glob.glob(sys.argv[1] + "/*.json"):
    r = json.load(open(f)); p = r["process"]; seen.add(p["rank"])
    assert p["local_rank"] == p["rank"] and p["world_size"] == n and p["launcher"] == "torchrun", p
    assert p["host"] == socket.gethostname(), p["host"]
    assert all(g["device"] == p["local_rank"] for g in r["leaks"]), [g["device"] for g in r["leaks"]]
assert seen == set(range(n)), seen
print("ok")' "$W/fold" "$gpus" 2>&1)"
text=$("$C" report "$W/fold")
echo "$text" > "$W/fold.txt"
has "folded group names its ranks" "$text" "in rank_worker on ranks $ranges \\($folded of $gpus\\):"
has "job line" "$text" "job: ranks 0(-|,)$last of $gpus \\(torchrun\\) on host"

# 2. Out of memory on the last rank while every other rank holds its model:
# its own text says so first; the merged view names it and the others' memory.
rm -rf "$W/sync"; mkdir -p "$W/sync"
run "${memory[@]}" -o "$W/oom/rank.%p.%n.json" -- "$repo/tests/e2e/programs/fake_torchrun.py" --nproc-per-node "$gpus" -- \
  "$worker" --oom-on "$last" --sync "$W/sync" >"$W/oom.log" 2>&1
check "a failed rank fails the job" 1 $?
has "the failing rank's line" "$(cat "$W/oom.log")" "out of memory on rank $last: cudaMalloc of 64.0 MiB on device $last failed"
text=$("$C" report "$W/oom")
has "merged: the rank that failed first" "$text" "rank $last \\(pid [0-9]+\\) ran out of memory first"
has "merged: the others at that moment" "$text" "The other ranks at that moment: rank 0 on device 0 held 32.0 MiB"
has "merged: the out-of-memory report counted once" "$text" "1 earlier report of the same processes"

# 3. Two ranks on one GPU: rank 1 runs out while rank 0 holds memory there;
# NVML (or the simulated list) names rank 0's pid, and the report its rank.
rm -rf "$W/sync"; mkdir -p "$W/sync"
CUDA_VISIBLE_DEVICES=0 CUDALEAK_SIM_DEVICES=1 run "${memory[@]}" -o "$W/shared/rank.%p.%n.json" -- \
  "$repo/tests/e2e/programs/fake_torchrun.py" --nproc-per-node 2 "${shared[@]}" -- \
  "$worker" --oom-on 1 --sync "$W/sync" >"$W/shared.log" 2>&1
check "shared GPU: the other rank named" ok "$(py '
import glob, json, sys
reports = {}
for f in sorted(glob.glob(sys.argv[1] + "/*.json")):
    r = json.load(open(f)); reports[r["process"]["rank"]] = r
e = [e for e in reports[1].get("oom_events", []) if not e.get("recovered")][0]
pid0 = reports[0]["process"]["pid"]
other = [o for o in e["other_processes"] if o["pid"] == pid0]
assert other and other[0].get("rank") == 0, e["other_processes"]
assert any("(rank 0" in d["message"] for d in e["diagnosis"]), [d["message"] for d in e["diagnosis"]]
print("ok")' "$W/shared" 2>&1)"

# 4. One process on every GPU: a buffer on each, a timeline per GPU, and the
# failure on the last GPU read there.
run "${memory[@]}" -o "$W/devices/rank.%p.%n.json" -- "$repo/tests/e2e/programs/fake_torchrun.py" --nproc-per-node 1 -- \
  "$worker" --all-devices --oom-on 0 --oom-device "$last" >"$W/devices.log" 2>&1
check "several devices in one process" ok "$(py '
import glob, json, sys
n = int(sys.argv[2])
r = max((json.load(open(f)) for f in glob.glob(sys.argv[1] + "/*.json")), key=lambda r: r["duration_ns"])
for d in range(n):
    g = [g for g in r["leaks"] if g["device"] == d and any("per_device_buffer" in f.get("function", "") for f in g["stack"])]
    assert g and g[0]["bytes"] == (d + 1) << 20, (d, g)
assert sorted(t["device"] for t in r["timeline"]["devices"]) == list(range(n)), r["timeline"]["devices"]
e = [e for e in r["oom_events"] if not e.get("recovered")]
assert e and e[0]["device"] == n - 1, e
print("ok")' "$W/devices" "$gpus" 2>&1)"

# 5. The gate over the job: rank 1 leaks, the job fails with error_exitcode,
# the launcher names the ranks, JUnit and SARIF name rank 1.
run --error-exitcode 9 --fail-on device --junit "$W/gate.xml" --sarif "$W/gate.sarif" -o "$W/gate/rank.%p.%n.json" -- \
  "$repo/tests/e2e/programs/fake_torchrun.py" --nproc-per-node "$gpus" -- "$worker" --leak-on 1 >"$W/gate.log" 2>&1
check "gate over the job" 9 $?
has "the job's verdict by rank" "$(cat "$W/gate.log")" "leak gate over the job's $gpus ranks: rank 1 failed, ranks? 0(,| passed)"
has "JUnit suite of rank 1" "$(cat "$W/gate.xml")" "<testsuite name=\"cudaleak: rank_worker \\(rank 1\\)\" tests=\"1\" failures=\"1\""
check "SARIF names rank 1" 1 "$(py 'import json, sys; r = json.load(open(sys.argv[1]))["runs"][0]["results"]; print(r[0]["properties"]["rank"] if len(r) == 1 else r)' "$W/gate.sarif" 2>&1)"

echo "$failures failures"
[ "$failures" -eq 0 ]
