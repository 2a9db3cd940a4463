#!/usr/bin/env bash
# Real-GPU reports for the HTML page and its time axis: a program with
# checkpoints and, started after it, one that runs out of memory (merged: the
# second lane must start where the second process did), a snapshot signal,
# and PyTorch runs that show a leak, a cache and fragmentation. Asserts the
# marks, the processes' start times and the merged alignment; exits non-zero on
# a wrong result. Leaves the reports in OUT for the page's screenshots.
# Usage: scripts/gpu-validate-html.sh [STAGE_DIR] [OUT]
set -uo pipefail
cd "$(dirname "$0")/.."
S="$(realpath "${1:-build-stage}")"
W="$(realpath -m "${2:-build/gpu-html}")"
mkdir -p "$W"
export LD_LIBRARY_PATH="${CUDA_ROOT:-/usr/local/cuda}/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
C="$S/bin/cudaleak"
P="$S/tests/e2e"

RANK=0 "$C" run -o "$W/checkpoints.%n.json" -- "$P/checkpoints" >"$W/checkpoints.log" 2>&1
sleep 0.5
RANK=1 "$C" run -o "$W/oom.%n.json" -- "$P/oom_scenarios" leak 4096 >"$W/oom.log" 2>&1
oom_exit=$(ls "$W"/oom.*.json | sort -t. -k2 -n | tail -1)
RANK=2 "$C" run -o "$W/loop.json" -- "$S/samples/sample_loop_leak_shared" >"$W/loop.log" 2>&1
"$C" merge "$W/checkpoints.1.json" "$oom_exit" "$W/loop.json" -o "$W/merged.json"
"$C" run -o "$W/signal.%n.json" -- "$P/signal_snapshot" "$W/signal.0.json" >"$W/signal.log" 2>&1
for s in scenario_leak_in_list scenario_cache; do
  timeout 300 "$C" run --pytorch-stacks true -o "$W/$s.%n.json" -- python3 "tests/gpu/python/$s.py" >"$W/$s.log" 2>&1
done
tail -n 3 "$W"/*.log

python3 - "$W" <<'PY'
import glob, json, sys
w = sys.argv[1]
sys.path.insert(0, "tests/gpu")
from checks import check, finish
load = lambda p: json.load(open(p))
cp = load(f"{w}/checkpoints.1.json")
marks = cp["timeline"].get("marks", [])
check([m["type"] for m in marks] == ["checkpoint"] * 5 + ["report"], f"checkpoint marks in order: {[m['type'] for m in marks]}")
check(all(a["time_ns"] <= b["time_ns"] for a, b in zip(marks, marks[1:])) and marks[-1]["time_ns"] <= cp["duration_ns"], "marks in time order, inside the run")
check(cp["process"].get("start_unix_ns", 0) > 1.6e18, "the process's wall-clock start is recorded")
m = load(f"{w}/merged.json")
starts = {p["pid"]: p["start_unix_ns"] for p in m["processes"]}
origin = min(starts.values())
check(len(starts) == 3, "three processes merged, each with its start")
for lane in m["timeline"]["devices"]:
    shift = starts[lane["pid"]] - origin
    first = lane["points"][0][0] if lane["points"] else None
    check(first is not None and first >= shift, f"pid {lane['pid']}: first point {first} ns at or after its start {shift} ns")
oom_pid = next(p["pid"] for p in m["processes"] if p.get("rank") == 1)
check(starts[oom_pid] - origin >= 5e8, "the out-of-memory process started at least 0.5 s after the first")
check(all(e["time_ns"] >= starts[oom_pid] - origin for e in m["oom_events"]) and m["oom_events"], "its OOMs placed after its start")
check(m["duration_ns"] >= starts[oom_pid] - origin, "the merged run spans every process")
check(sum(1 for k in m["timeline"].get("marks", []) if k["type"] == "checkpoint") == 5, "the marks survive the merge")
sig = load(sorted(glob.glob(f"{w}/signal.*.json"))[-1])
check([k["type"] for k in sig["timeline"].get("marks", [])] == ["snapshot"], "a snapshot signal marks the exit report")
leak = load(sorted(glob.glob(f"{w}/scenario_leak_in_list.*.json"))[-1])
check(any(e.get("pytorch") for e in leak.get("oom_events", [])), "PyTorch's OOM carries its cache view")
cache = load(sorted(glob.glob(f"{w}/scenario_cache.*.json"))[-1])
dev = cache["pytorch"]["devices"][0]
whole_free = [s for s in dev["segment_list"] if all(state == 0 for _, state in s[2])]
check(len(whole_free) >= 4 and dev["allocated"] >= 8 * (256 << 20), f"cache scenario: {len(whole_free)} wholly free segments, {dev['allocated'] >> 20} MiB live")
loop = load(f"{w}/loop.json")
lane = loop["timeline"]["devices"][0]
sites, by_point = lane.get("sites", []), lane.get("site_points", [])
check(any("loop_leak.cu:8" in s["where"] for s in sites) and any("loop_leak.cu:7" in s["where"] for s in sites),
      f"the loop's two sites named on its timeline: {[s['where'] for s in sites]}")
check(len(by_point) == len(lane["points"]) and all(i < len(sites) for p in by_point for i, _ in p), "one site list per point, each naming a listed site")
check(all(sum(b for _, b in p) == sum(q[2:]) for p, q in zip(by_point, lane["points"])), "with two sites, each point's sites add up to its total")
top = max(leak["timeline"]["devices"][0].get("sites", []), key=lambda s: s["peak_bytes"], default={"stack": []})
check(any(f.get("language") == "python" and f.get("file", "").endswith("scenario_leak_in_list.py") for f in top["stack"]),
      "PyTorch: the biggest site on the timeline is a line of the script")
finish("html data")
PY
