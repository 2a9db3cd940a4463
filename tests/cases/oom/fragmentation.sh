# PyTorch's cache fragmented on a real GPU (tests/gpu/python/
# scenario_fragmentation.py: the device filled with 3 MiB tensors, 5 of every
# 6 freed, then a request for half the device). The fill's own failure is
# its growth first (live tensors), with any fragmentation it left told last
# as not why memory ran out; the big request is one event whose first cause
# is fragmentation, naming the fill's line whose tensors pin the segments.
# Every event is PyTorch's own, each told once.
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/scenario_fragmentation.py
# RUN: %run -o %t/r.%p.%n.json -- %python %root/tests/gpu/python/scenario_fragmentation.py > %t/out.txt 2>&1; cat %t/out.txt
# CHECK: fill (scenario_fragmentation.py:%line:fill)
# The fill's failure (the first in time) and the big request's (the last):
# RUN: %expr %t \
# RUN:   'all(S and S[0]["diagnosis"] and S[0]["diagnosis"][0]["cause"] == "live_tensors" for S in [sorted([e for x in reports for e in x.get("oom_events", []) if "pytorch" in e], key=lambda e: e.get("time_ns", 0))])' \
# RUN:   'all(not any(d["cause"] == "fragmentation" for d in S[0]["diagnosis"]) or (S[0]["diagnosis"][-1]["cause"] == "fragmentation" and "not why memory ran out" in S[0]["diagnosis"][-1]["message"]) for S in [sorted([e for x in reports for e in x.get("oom_events", []) if "pytorch" in e], key=lambda e: e.get("time_ns", 0))])' \
# RUN:   'all([d["cause"] for d in S[-1]["diagnosis"]][:1] == ["fragmentation"] for S in [sorted([e for x in reports for e in x.get("oom_events", []) if "pytorch" in e], key=lambda e: e.get("time_ns", 0))])'
# CHECK-COUNT(3): holds:
# The exit report's events: PyTorch's own, one for the big request, each told once.
# RUN: %expr %t \
# RUN:   'all(ES and all("pytorch" in e for e in ES) for ES in [[e for x in reports if x["reason"] == "exit" for e in x.get("oom_events", []) if not e.get("recovered")]])' \
# RUN:   'all(len(big) == 1 and big[0]["diagnosis"] and big[0]["diagnosis"][0]["cause"] == "fragmentation" for big in [[e for x in reports if x["reason"] == "exit" for e in x.get("oom_events", []) if not e.get("recovered") and any(f.get("function") == "<module>" and f.get("line") == %line:big for f in e["stack"])]])' \
# RUN:   'all("fill (scenario_fragmentation.py:%line:fill)" in big[0]["diagnosis"][0]["message"] for big in [[e for x in reports if x["reason"] == "exit" for e in x.get("oom_events", []) if not e.get("recovered") and any(f.get("function") == "<module>" and f.get("line") == %line:big for f in e["stack"])]])' \
# RUN:   'text("%t/out.txt").count("out of memory:") == len([e for x in reports if x["reason"] == "exit" for e in x.get("oom_events", []) if not e.get("recovered")])'
# CHECK-COUNT(4): holds:
