#!/usr/bin/env bash
# Out-of-memory forensics on a real GPU: a leak growing each step until
# memory runs out, another process holding most of the device, and a request
# larger than the device. Asserts each scenario's first cause and exits
# non-zero on a wrong one. Usage: scripts/gpu-validate-oom.sh [BUILD_DIR] [WORK_DIR]
set -uo pipefail
cd "$(dirname "$0")/.."
B="$(realpath "${1:-build}")"
W="$(realpath -m "${2:-build/gpu-oom}")"
mkdir -p "$W"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
P="$B/tests/e2e/oom_scenarios"
total_mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0)
echo "device 0: ${total_mib} MiB"
show() { grep -E "out of memory:|^  [0-9]\.|This process|^(step|single)" "$1"; }

echo "== 1. a leak growing by 4 GiB a step"
"$B/bin/cudaleak" run -o "$W/leak.%p.%n.json" -- "$P" leak 4096 >"$W/leak.out" 2>&1
show "$W/leak.out" | head -8

echo "== 2. another process holds $((total_mib * 3 / 4)) MiB; this one asks for $((total_mib / 3)) MiB"
"$P" hold $((total_mib * 3 / 4)) 60 >"$W/holder.out" 2>&1 &
holder=$!
for _ in $(seq 100); do grep -q holding "$W/holder.out" 2>/dev/null && break; sleep 0.2; done
"$B/bin/cudaleak" run -o "$W/other.%p.%n.json" -- "$P" single $((total_mib / 3)) >"$W/other.out" 2>&1
show "$W/other.out" | head -6
kill $holder 2>/dev/null; wait $holder 2>/dev/null

echo "== 3. a request larger than the device"
"$B/bin/cudaleak" run -o "$W/large.%p.%n.json" -- "$P" single $((total_mib * 3)) >"$W/large.out" 2>&1
show "$W/large.out" | head -5
echo "== reports"
ls "$W"/*.json
# The first cause of the first out-of-memory in each scenario's reports.
python3 - "$W" <<'PY'
import glob, json, sys
w, failures = sys.argv[1], 0
for scenario, cause in (("leak", "accumulating_leak"), ("other", "other_processes"), ("large", "request_too_large")):
    causes = []
    for path in sorted(glob.glob(f"{w}/{scenario}.*.json")):
        for event in json.load(open(path)).get("oom_events", []):
            if event.get("diagnosis"):
                causes.append(event["diagnosis"][0]["cause"])
    ok = bool(causes) and causes[0] == cause
    failures += not ok
    print(("PASS" if ok else "FAIL"), f"{scenario}: first cause {causes[:1]}, expected {cause}")
print(f"oom checks: {failures} failed")
sys.exit(1 if failures else 0)
PY
