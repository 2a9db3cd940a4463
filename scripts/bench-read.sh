#!/usr/bin/env bash
# Reading a large report: writes a report of GROUPS (default 1,000) groups x
# 1,000 allocations (1,000,000 allocations listed, ~170 MB, as
# max_allocations=0 writes them; 6000 groups make ~1 GB) from a fixture, then
# times `cudaleak report --top 3` on it (3 runs, wall seconds and peak
# memory). Usage: scripts/bench-read.sh [BUILD_DIR] [GROUPS]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build}"
groups="${2:-1000}"
out="$build/bench-read"
mkdir -p "$out"
python3 - "$out/big.json" "$groups" <<'PY'
import json, sys
base = json.load(open("tests/fixtures/h100/exception_leak_static.json"))
group = base["leaks"][0]
groups = []
n = int(sys.argv[2])
for g in range(n):
    x = dict(group, count=1000, bytes=4096 * 1000)
    x["stack"] = [dict(f, ip=hex(int(f["ip"], 16) + g)) for f in group["stack"]]
    x["allocations"] = [{"address": hex(0x7f0000000000 + (g * 1000 + i) * 4096), "bytes": 4096, "thread": 1234,
                         "sequence": g * 1000 + i + 1, "time_ns": 1000000 + g * 1000 + i,
                         "context": "0x55d0c0a0b0c0"} for i in range(1000)]
    groups.append(x)
base["leaks"] = groups
base["summary"].update(leaked_bytes=4096 * 1000 * n, leaked_count=1000 * n,
                       by_kind={"device": {"bytes": 4096 * 1000 * n, "count": 1000 * n}})
with open(sys.argv[1], "w") as f:
    for chunk in json.JSONEncoder(indent=1).iterencode(base):
        f.write(chunk)
PY
echo "report: $(du -m "$out/big.json" | cut -f1) MB, $((groups * 1000)) allocations"
for i in 1 2 3; do
  /usr/bin/time -f "%e s, %M KB peak" "$build/bin/cudaleak" report --top 3 "$out/big.json" 2>&1 >/dev/null | tail -1
done
