# Driver API edges (tests/e2e/programs/api_edges.cpp): per-thread-stream
# look-ups through cuGetProcAddress, NULL arguments, frees of unknown
# pointers, out-of-memory results passed through untouched, a primary context
# reset with live memory. The 1 TiB request writes an "oom" report, then the
# exit report: the ptsz allocation, the memory the reset took, the unknown
# free as a note, the failed allocations leaving nothing behind.
# REQUIRES: simulated
# RUN: %run --simulated-gpu-memory 64MiB -o %t/r.%n.json -- %build/tests/e2e/api_edges
# CHECK-RE: \Aptsz alloc: 0\nerrno kept: 1\nnull alloc: 1\nnull stream: 1\nunknown free: 1\noom: 2\nreset: 0\n
# RUN: %expr %t \
# RUN:   'len(reports) == 2 and reports[0]["reason"] == "oom" and reports[1]["reason"] == "exit"' \
# RUN:   'len(reports[0]["oom_events"]) == 1 and reports[0]["oom_events"][0]["request_bytes"] == 1 << 40' \
# RUN:   'reports[0]["oom_events"][0]["diagnosis"][0]["cause"] == "request_too_large"' \
# RUN:   'group("async", report=reports[1])["api"] == "cuMemAllocAsync_ptsz" and group("async", report=reports[1])["bytes"] == 8192' \
# RUN:   'group("device", report=reports[1])["bytes"] == 5000 and group("device", report=reports[1])["released_by"] == "primary_context_reset"' \
# RUN:   'reports[1]["summary"]["leaked_count"] == 2' \
# RUN:   '[(n["type"], n["api"], n["handle"]) for n in reports[1]["notes"]] == [("unknown_release", "cuMemFree_v2", "0x1234")]' \
# RUN:   '[p["resets"] for p in reports[1]["primary_contexts"]] == [1]'
# CHECK-COUNT(8): holds:
