# Memory the context reserves, on a real GPU (tests/gpu/limits/device_heap.cu,
# nvcc's static and shared cudart): raising the per-thread stack from N to M
# KiB reserves M - N KiB for each thread the device can run at once
# (measured with cudaMemGetInfo, alone); a 512 MiB device heap is reported as
# reserved by the context with its call site, not as a leak, and marked on the
# timeline; a stack that takes about 3/4 of the device makes a later
# cudaMalloc of 1/3 of it fail, and the stack limit is named as the first
# cause with its line, recorded as value x threads.
# REQUIRES: gpu, nvcc
# BUILD: %nvcc-static -arch=native -lineinfo -o %t/device_heap_static %root/tests/gpu/limits/device_heap.cu
# BUILD: %nvcc -arch=native -lineinfo -o %t/device_heap_shared %root/tests/gpu/limits/device_heap.cu
# RUN: %t/device_heap_static measure > %t/measure.out; cat %t/measure.out
# CHECK-RE: \Asms [0-9]+ threads_per_sm [0-9]+\n
# RUN: %run -o %t/heap_static/r.%p.%n.json -- %t/device_heap_static heap_leak
# CHECK: Reserved by the context
# RUN: %run -o %t/heap_shared/r.%p.%n.json -- %t/device_heap_shared heap_leak
# CHECK: Reserved by the context
# RUN: for rt in static shared; do %expr %t/heap_$rt \
# RUN:   'all(s and all(int(s[i][1]) == (int(s[i][0]) - [1, *[int(x[0]) for x in s]][i]) * 1024 * int(t.group(1)) * int(t.group(2)) for i in range(len(s))) for s in [re.findall(r"stack (\d+) KiB: no error, reserved (-?\d+) more", text("%t/measure.out"))] for t in [re.search(r"sms (\d+) threads_per_sm (\d+)", text("%t/measure.out"))])' \
# RUN:   '[v["bytes"] for v in reports[-1]["reservations"] if v["limit"] == "malloc_heap_size"] == [512 << 20]' \
# RUN:   'any("enlarge_heap" in f.get("function", "") for v in reports[-1]["reservations"] if v["limit"] == "malloc_heap_size" for f in v["stack"])' \
# RUN:   'reports[-1]["summary"]["leaked_count"] == 0' \
# RUN:   '[m["name"] for m in reports[-1]["timeline"].get("marks", []) if m["type"] == "limit"] == ["cudaLimitMallocHeapSize = 512.0 MiB: 512.0 MiB reserved"]'; done
# CHECK-COUNT(10): holds:
# CHECK-NONE: FALSE
# RUN(exit=1): total=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0); %run -o %t/stack_static/r.%p.%n.json -- %t/device_heap_static stack_oom $((total * 3 / 4 * 1024 / 270336)) $((total / 3))
# CHECK: allocation: out of memory
# CHECK: the thread stack size limit set in enlarge_stack
# RUN(exit=1): total=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0); %run -o %t/stack_shared/r.%p.%n.json -- %t/device_heap_shared stack_oom $((total * 3 / 4 * 1024 / 270336)) $((total / 3))
# CHECK: allocation: out of memory
# CHECK: the thread stack size limit set in enlarge_stack
# RUN: for rt in static shared; do %expr %t/stack_$rt \
# RUN:   '[e["diagnosis"][0]["cause"] for x in reports for e in x.get("oom_events", []) if e.get("diagnosis")][:1] == ["context_reservation"]' \
# RUN:   '"limit set in enlarge_stack (device_heap.cu:" in [e["diagnosis"][0]["message"] for x in reports for e in x.get("oom_events", []) if e.get("diagnosis")][0]' \
# RUN:   'all([(v["bytes"] == v["value"] * T, v["threads"] == T) for v in events[0]["reservations"] if v["limit"] == "stack_size"] == [(True, True)] for events in [[e for x in reports for e in x.get("oom_events", [])]] for t in [re.search(r"sms (\d+) threads_per_sm (\d+)", text("%t/measure.out"))] for T in [int(t.group(1)) * int(t.group(2))])'; done
# CHECK-COUNT(6): holds:
# CHECK-NONE: FALSE
