# A soak of growth by line on a GPU, 80 s (tests/gpu/live/soak_loop.py):
# two PyTorch inference loops side by side, one keeping a 64 KiB copy of an
# output every 100 requests from one line (keep_for_debugging), one clean.
# The copies land inside the caching allocator's small segments, so only
# PyTorch's live tensors by line (--pytorch-stacks, a view every 2 s) name
# the line. The leaky run's exit text and `cudaleak top --once` taken near
# the end name keep_for_debugging with its rates per minute and per 1,000
# requests, and its JSON has the line's growth as steady; the clean run grew
# nowhere ("flat" in top). soak_long.sh runs the same for 8 minutes.
# (About 90 s.)
# REQUIRES: gpu, torch
# RUN: %run --pytorch-stacks true --view-interval-ms 2000 -o %t/leaky/r.%%p.json -- %python %root/tests/gpu/live/soak_loop.py --leak --seconds 80 --ready %t/leaky.pid > %t/leaky.out 2> %t/leaky.err & \
# RUN:   %run --pytorch-stacks true --view-interval-ms 2000 -o %t/clean/r.%%p.json -- %python %root/tests/gpu/live/soak_loop.py --seconds 80 --ready %t/clean.pid > %t/clean.out 2> %t/clean.err & \
# RUN:   for i in $(seq 300); do [ -s %t/leaky.pid ] && [ -s %t/clean.pid ] && break; sleep 0.2; done; sleep 65; \
# RUN:   %cudaleak top --once --by-growth $(cat %t/leaky.pid) > %t/top-leaky.txt 2>&1; \
# RUN:   %cudaleak top --once --by-growth $(cat %t/clean.pid) > %t/top-clean.txt 2>&1; wait; cat %t/leaky.out
# CHECK-RE: (?m)^served [0-9]+ requests
# RUN: cat %t/leaky.err
# CHECK-DAG-RE: lines? of the program grew steadily
# CHECK-DAG-RE: PyTorch's live tensors at keep_for_debugging \(soak_loop\.py:[0-9]+\): grew steadily for [0-9]+ min [0-9]+ s, \+[0-9.]+ [KMG]iB \(\+[0-9.]+ [KMG]iB per 1,000 requests, \+[0-9.]+ [KMG]iB per minute\), never fell
# RUN: cat %t/clean.err
# CHECK-NONE: grew steadily
# RUN: cat %t/top-leaky.txt
# CHECK-RE: /1k req, \+[0-9.]+ [KMG]iB/min +PyTorch's live tensors at keep_for_debugging
# RUN: cat %t/top-clean.txt
# CHECK-RE: [ ]flat[ ]
# CHECK-NONE: /min
# RUN: %expr %t/leaky \
# RUN:   'any(g.get("steady") and g.get("view") == "pytorch" and g["where"].startswith("keep_for_debugging") for d in r["timeline"]["devices"] for g in d.get("growth", []))' \
# RUN:   'all(len(g["history"]) <= 240 for d in r["timeline"]["devices"] for g in d.get("growth", []))'
# CHECK-COUNT(2): holds:
# RUN: %expr %t/clean 'not [g for d in r["timeline"]["devices"] for g in d.get("growth", []) if g.get("steady")]'
# CHECK: holds:
