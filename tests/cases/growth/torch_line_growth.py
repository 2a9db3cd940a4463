# A server's loop under PyTorch (tests/e2e/programs/fake_torch stands in for
# it) whose one line keeps a small tensor every other request while another
# line's tensor comes and goes: the tensors stay inside one segment of the
# caching allocator, so no CUDA call site grows, and only PyTorch's view,
# sampled every 100 ms (view_interval_ms), can name the line that grew. The
# program counts its requests (cudaleak_impl_requests), so the rise is also
# put per 1,000 requests. The same loop without the kept list grows nowhere.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_torch
# RUN: %run --pytorch-stacks true --growth-interval-ms 200 --view-interval-ms 100 -o %t/leaky.json -- %python %s leak
# CHECK: served
# CHECK: 1 line of the program grew steadily
# CHECK-RE: PyTorch's live tensors at keep_for_debugging \(torch_line_growth\.py:\d+\): grew steadily for \d+ s, \+[0-9.]+ [KM]iB \(\+[0-9.]+ [KMG]iB per 1,000 requests, \+[0-9.]+ [KM]iB per minute\), never fell
# CHECK-NOT: serve_batch
# CHECK: keep_for_debugging
# RUN: %report %t/leaky.json
# CHECK-RE: PyTorch's live tensors at keep_for_debugging \(torch_line_growth\.py:\d+\): grew steadily
# RUN: %python -c "import json; r = json.load(open('%t/leaky.json')); g = [g for d in r['timeline']['devices'] for g in d.get('growth', []) if g.get('view') == 'pytorch' and g.get('steady')]; print('steady lines:', [x['where'] for x in g], 'requests:', [x.get('rise_requests', 0) > 0 for x in g])"
# CHECK-RE: steady lines: \['keep_for_debugging \(torch_line_growth\.py:\d+\)'\] requests: \[True\]
# RUN: %run --pytorch-stacks true --growth-interval-ms 200 --view-interval-ms 100 -o %t/clean.json -- %python %s
# CHECK: served
# CHECK-NONE: grew steadily
# While it runs, `cudaleak top --once` names the line with its rates (each
# frame also asks for a fresh view); the clean loop's lines are flat.
# RUN: %run --pytorch-stacks true --growth-interval-ms 200 --view-interval-ms 100 -o %t/top.json -- %python %s leak 5 %t/pid >%t/top-run.out 2>&1 & for i in $(seq 100); do [ -s %t/pid ] && break; sleep 0.1; done; sleep 3; %cudaleak top --once --by-growth $(cat %t/pid); wait
# CHECK-RE: \+[0-9.]+ [KM]iB/1k req, \+[0-9.]+ [KM]iB/min +PyTorch's live tensors at keep_for_debugging
# RUN: %run --pytorch-stacks true --growth-interval-ms 200 --view-interval-ms 100 -o %t/top-clean.json -- %python %s clean 5 %t/clean-pid >%t/top-clean.out 2>&1 & for i in $(seq 100); do [ -s %t/clean-pid ] && break; sleep 0.1; done; sleep 3; %cudaleak top --once --by-growth $(cat %t/clean-pid); wait
# CHECK-RE: flat +PyTorch's live tensors at serve_batch|flat +PyTorch's live tensors at train_step
# CHECK-NONE: /min
import ctypes
import os
import sys
import time

import torch

count_request = ctypes.CDLL(None).cudaleak_impl_requests
count_request.argtypes = [ctypes.c_ulonglong]


def serve_batch():
    scratch = torch.empty(256 << 10)  # freed when the batch ends: churn, not growth
    return scratch


def keep_for_debugging(kept):
    kept.append(torch.empty(64 << 10))


leak = sys.argv[1:2] == ["leak"]
seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 2.5
torch.cuda.init()
if len(sys.argv) > 3:
    with open(sys.argv[3], "w") as f:
        f.write("%d\n" % os.getpid())
kept = []
start = time.monotonic()
request = 0
while time.monotonic() - start < seconds:
    serve_batch()
    request += 1
    count_request(1)
    if leak and request % 2 == 0:
        keep_for_debugging(kept)
    time.sleep(0.01)
print("served %d requests" % request)
