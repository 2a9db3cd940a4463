# The reports behind the HTML page's time axis, on a real GPU: a program with
# checkpoints (rank 0), one started half a second later that runs out of
# memory (rank 1) and a sample (rank 2), merged: three processes, each with
# its wall-clock start; each device lane starts where its process did, the
# out-of-memory process's events after its start, the run spanning them all,
# the checkpoints' marks kept. The loop's timeline names its two sites, one
# site list per point adding up to the point's total. The reports stay in
# the case's folder for the page's screenshots.
# REQUIRES: gpu
# RUN: RANK=0 %run -o %t/checkpoints.%n.json -- %build/tests/e2e/checkpoints > %t/checkpoints.log 2>&1; sleep 0.5; RANK=1 %run -o %t/oom/oom.%n.json -- %build/tests/e2e/oom_scenarios leak 4096 > %t/oom.log 2>&1; RANK=2 %run -o %t/loop.json -- %build/samples/sample_loop_leak_shared > %t/loop.log 2>&1; mkdir %t/merged && %cudaleak merge %t/checkpoints.1.json %t/oom/$(ls %t/oom | sort -t. -k2 -n | tail -1) %t/loop.json -o %t/merged/merged.json && echo merged
# CHECK: merged
# RUN: %expr %t/checkpoints.1.json \
# RUN:   '[m["type"] for m in r["timeline"].get("marks", [])] == ["checkpoint"] * 5 + ["report"]' \
# RUN:   'all(a["time_ns"] <= b["time_ns"] for a, b in zip(r["timeline"]["marks"], r["timeline"]["marks"][1:])) and r["timeline"]["marks"][-1]["time_ns"] <= r["duration_ns"]' \
# RUN:   'r["process"].get("start_unix_ns", 0) > 1.6e18'
# CHECK-COUNT(3): holds:
# RUN: %expr %t/merged/merged.json \
# RUN:   'len(dict((p["pid"], p["start_unix_ns"]) for p in r["processes"])) == 3' \
# RUN:   'all(lane["points"] and lane["points"][0][0] >= S[lane["pid"]] - min(S.values()) for S in [dict((p["pid"], p["start_unix_ns"]) for p in r["processes"])] for lane in r["timeline"]["devices"])' \
# RUN:   'all(S[o] - min(S.values()) >= 5e8 for S in [dict((p["pid"], p["start_unix_ns"]) for p in r["processes"])] for o in [[p["pid"] for p in r["processes"] if p.get("rank") == 1][0]])' \
# RUN:   'all(r["oom_events"] and all(e["time_ns"] >= S[o] - min(S.values()) for e in r["oom_events"]) for S in [dict((p["pid"], p["start_unix_ns"]) for p in r["processes"])] for o in [[p["pid"] for p in r["processes"] if p.get("rank") == 1][0]])' \
# RUN:   'all(r["duration_ns"] >= S[o] - min(S.values()) for S in [dict((p["pid"], p["start_unix_ns"]) for p in r["processes"])] for o in [[p["pid"] for p in r["processes"] if p.get("rank") == 1][0]])' \
# RUN:   'sum(1 for k in r["timeline"].get("marks", []) if k["type"] == "checkpoint") == 5'
# CHECK-COUNT(6): holds:
# RUN: %expr %t/loop.json \
# RUN:   'all(any("loop_leak.cu:8" in s["where"] for s in L.get("sites", [])) and any("loop_leak.cu:7" in s["where"] for s in L.get("sites", [])) for L in [r["timeline"]["devices"][0]])' \
# RUN:   'all(len(L.get("site_points", [])) == len(L["points"]) and all(i < len(L.get("sites", [])) for p in L.get("site_points", []) for i, _ in p) for L in [r["timeline"]["devices"][0]])' \
# RUN:   'all(sum(b for _, b in p) == sum(q[2:]) for L in [r["timeline"]["devices"][0]] for p, q in zip(L.get("site_points", []), L["points"]))'
# CHECK-COUNT(3): holds:
