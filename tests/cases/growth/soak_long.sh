# The soak of soak_short.sh for 8 minutes (runs only with
# scripts/gpu-test.sh --long, alone: about 8.5 min of the 10 a command may
# take): the same two loops and the same checks, now past the 240 s at
# which each growth history's spans double (still at most 240 points), and
# the interactive `cudaleak top` of both captured with tmux after 2
# minutes, where tmux is installed, naming the leaking line.
# REQUIRES: gpu, torch, long
# RUN: start=$(date +%%s); \
# RUN:   %run --pytorch-stacks true --view-interval-ms 2000 -o %t/leaky/r.%%p.json -- %python %root/tests/gpu/live/soak_loop.py --leak --seconds 480 --ready %t/leaky.pid > %t/leaky.out 2> %t/leaky.err & \
# RUN:   %run --pytorch-stacks true --view-interval-ms 2000 -o %t/clean/r.%%p.json -- %python %root/tests/gpu/live/soak_loop.py --seconds 480 --ready %t/clean.pid > %t/clean.out 2> %t/clean.err & \
# RUN:   for i in $(seq 300); do [ -s %t/leaky.pid ] && [ -s %t/clean.pid ] && break; sleep 0.2; done; \
# RUN:   while [ $(( $(date +%%s) - start )) -lt 130 ]; do sleep 1; done; \
# RUN:   if command -v tmux > /dev/null; then export TMUX_TMPDIR=%t; \
# RUN:     tmux new-session -d -s cudaleak-soak -x 200 -y 50 "%cudaleak top --by-growth $(cat %t/leaky.pid) $(cat %t/clean.pid)"; \
# RUN:     sleep 6; tmux capture-pane -p -t cudaleak-soak > %t/top-screen.txt; tmux send-keys -t cudaleak-soak q; sleep 1; tmux kill-server; \
# RUN:   else echo "tmux is not installed" > %t/top-screen.txt; fi; \
# RUN:   while [ $(( $(date +%%s) - start )) -lt 450 ]; do sleep 1; done; \
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
# RUN: cat %t/top-screen.txt
# CHECK-RE: keep_for_debugging|tmux is not installed
# RUN: %expr %t/leaky \
# RUN:   'any(g.get("steady") and g.get("view") == "pytorch" and g["where"].startswith("keep_for_debugging") for d in r["timeline"]["devices"] for g in d.get("growth", []))' \
# RUN:   'all(len(g["history"]) <= 240 for d in r["timeline"]["devices"] for g in d.get("growth", []))'
# CHECK-COUNT(2): holds:
# RUN: %expr %t/clean 'not [g for d in r["timeline"]["devices"] for g in d.get("growth", []) if g.get("steady")]'
# CHECK: holds:
