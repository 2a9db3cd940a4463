# NCCL communicators made by PyTorch on one GPU (tests/gpu/python/
# nccl_single_rank.py: one rank, a process group over NCCL). While they
# live, a snapshot (SIGUSR1) reports each as a library handle created by
# ncclCommInitRankConfig at init_process_group's line (a second group, by
# new_group, at its own line), holding NCCL's vmm and pinned memory and
# streams; at exit, whether or not destroy_process_group was called,
# PyTorch has destroyed or aborted them and nothing of NCCL's is left.
# Every release is of a tracked handle. (About 40 s: four runs.)
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/nccl_single_rank.py
# RUN: MASTER_PORT=29532 %run -o %t/one.%%n.json -- %python %root/tests/gpu/python/nccl_single_rank.py keep eager snapshot && %report %t/one.0.json
# CHECK-DAG: nccl_single_rank done
# CHECK-DAG: NCCL communicator never destroyed (ncclCommDestroy), created by ncclCommInitRankConfig on device 0
# RUN: %expr %t/one.0.json \
# RUN:   'r["reason"] == "signal"' \
# RUN:   'sum(g["count"] for g in r["leaks"] if g.get("kind") == "library_handle" and g.get("api", "").startswith("ncclComm")) == 1' \
# RUN:   '[g["site"].endswith("nccl_single_rank.py:%line:init") for g in r["leaks"] if g.get("kind") == "library_handle" and g.get("api") == "ncclCommInitRankConfig"][:1] == [True]' \
# RUN:   'all(h.get("vmm", {}).get("bytes", 0) > 0 and h.get("pinned", {}).get("count", 0) > 0 and h.get("stream", {}).get("count", 0) > 0 for h in [g.get("holds", {}) for g in r["leaks"] if g.get("kind") == "library_handle" and g.get("api") == "ncclCommInitRankConfig"][:1])' \
# RUN:   'not [n for n in r.get("notes", []) if n.get("type") == "unknown_release"]'
# CHECK-COUNT(5): holds:
# RUN: %expr %t/one.1.json \
# RUN:   'r["reason"] == "exit"' \
# RUN:   'not [g for g in r.get("leaks", []) if g.get("kind") == "library_handle" and g.get("api", "").startswith("ncclComm")]' \
# RUN:   'not [g for g in r.get("leaks", []) if g.get("kind") != "library_handle" and any("libnccl" in (f.get("module") or "") or (f.get("function") or "").startswith("nccl") for f in g.get("stack", []))]' \
# RUN:   'not [n for n in r.get("notes", []) if n.get("type") == "unknown_release"]'
# CHECK-COUNT(4): holds:
# A second group of the same rank: a second communicator, at new_group's line.
# RUN: MASTER_PORT=29533 %run -o %t/split.%%n.json -- %python %root/tests/gpu/python/nccl_single_rank.py keep eager split snapshot && %report %t/split.0.json
# CHECK: NCCL communicator never destroyed (ncclCommDestroy), created by ncclCommInitRankConfig on device 0
# RUN: %expr %t/split.0.json \
# RUN:   'r["reason"] == "signal"' \
# RUN:   'sum(g["count"] for g in r["leaks"] if g.get("kind") == "library_handle" and g.get("api", "").startswith("ncclComm")) == 2' \
# RUN:   '[g["site"].endswith("nccl_single_rank.py:%line:init") for g in r["leaks"] if g.get("kind") == "library_handle" and g.get("api") == "ncclCommInitRankConfig"][:1] == [True]' \
# RUN:   'all(h.get("vmm", {}).get("bytes", 0) > 0 and h.get("pinned", {}).get("count", 0) > 0 and h.get("stream", {}).get("count", 0) > 0 for h in [g.get("holds", {}) for g in r["leaks"] if g.get("kind") == "library_handle" and g.get("api") == "ncclCommInitRankConfig"][:1])' \
# RUN:   'any(g["site"].endswith("nccl_single_rank.py:%line:split") for g in [g for g in r["leaks"] if g.get("kind") == "library_handle" and g.get("api", "").startswith("ncclComm")] if g is not [g for g in r["leaks"] if g.get("kind") == "library_handle" and g.get("api") == "ncclCommInitRankConfig"][0])' \
# RUN:   'not [n for n in r.get("notes", []) if n.get("type") == "unknown_release"]'
# CHECK-COUNT(6): holds:
# RUN: %expr %t/split.1.json \
# RUN:   'r["reason"] == "exit"' \
# RUN:   'not [g for g in r.get("leaks", []) if g.get("kind") == "library_handle" and g.get("api", "").startswith("ncclComm")]' \
# RUN:   'not [g for g in r.get("leaks", []) if g.get("kind") != "library_handle" and any("libnccl" in (f.get("module") or "") or (f.get("function") or "").startswith("nccl") for f in g.get("stack", []))]' \
# RUN:   'not [n for n in r.get("notes", []) if n.get("type") == "unknown_release"]'
# CHECK-COUNT(4): holds:
# Destroyed, or kept without a snapshot: nothing of NCCL's at exit.
# RUN: MASTER_PORT=29534 %run -o %t/destroy.%%n.json -- %python %root/tests/gpu/python/nccl_single_rank.py destroy && MASTER_PORT=29535 %run -o %t/keep.%%n.json -- %python %root/tests/gpu/python/nccl_single_rank.py keep
# CHECK-COUNT(2): nccl_single_rank done
# RUN: for f in %t/destroy.0.json %t/keep.0.json; do %expr $f \
# RUN:   'r["reason"] == "exit"' \
# RUN:   'not [g for g in r.get("leaks", []) if g.get("kind") == "library_handle" and g.get("api", "").startswith("ncclComm")]' \
# RUN:   'not [g for g in r.get("leaks", []) if g.get("kind") != "library_handle" and any("libnccl" in (f.get("module") or "") or (f.get("function") or "").startswith("nccl") for f in g.get("stack", []))]' || echo FAILED; done
# CHECK-COUNT(6): holds:
# CHECK-NONE: FALSE
