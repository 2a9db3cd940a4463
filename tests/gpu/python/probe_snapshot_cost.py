# Where the time of a PyTorch out-of-memory view goes once per-tensor stacks
# are recorded: _record_memory_history's signature, then _snapshot() and
# cudaleak_torch.summarize() timed apart, after filling the device with
# CHUNK_MIB tensors of which the last tenth carry stacks. Diagnostic only.
import inspect
import json
import sys
import time

import torch

sys.path.insert(0, sys.argv[2] if len(sys.argv) > 2 else "interpose/python/site")
import cudaleak_torch  # noqa: E402

chunk = int(sys.argv[1]) << 20
print("signature", inspect.signature(torch.cuda.memory._record_memory_history))
total = torch.cuda.get_device_properties(0).total_memory
kept = []
while torch.cuda.memory_reserved(0) < total * 0.9:
    kept.append(torch.empty(chunk, dtype=torch.uint8, device="cuda"))
t = time.time()
cudaleak_torch._record_stacks()
print("record_memory_history %.3f s" % (time.time() - t))
t = time.time()
try:
    while True:
        kept.append(torch.empty(chunk, dtype=torch.uint8, device="cuda"))
except torch.OutOfMemoryError:
    pass
print("filled with stacks %.3f s, tensors %d" % (time.time() - t, len(kept)))
for round in range(2):
    t = time.time()
    snap = torch.cuda.memory._snapshot()
    t1 = time.time()
    view = cudaleak_torch.summarize(snap)
    t2 = time.time()
    text = json.dumps({"devices": view})
    t3 = time.time()
    blocks = sum(len(s["blocks"]) for s in snap["segments"])
    framed = sum(1 for s in snap["segments"] for b in s["blocks"] if b.get("frames"))
    print("snapshot %.3f s, summarize %.3f s, json %.3f s (%d bytes); segments %d blocks %d with frames %d; traces %s" % (
        t1 - t, t2 - t1, t3 - t2, len(text), len(snap["segments"]), blocks, framed,
        [len(x) for x in snap.get("device_traces", [])]))
    one = next((b for s in snap["segments"] for b in s["blocks"] if b.get("frames")), None)
    if one:
        print("frames of one block:", len(one["frames"]), one["frames"][:3])
