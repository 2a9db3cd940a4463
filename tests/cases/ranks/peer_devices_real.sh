# tests/e2e/programs/peer_devices on two or more real GPUs: peer access both
# ways, memory freed from another device's context (neither a leak nor an
# unknown release), leaks on device 1 (5 MiB and a stream), managed memory
# prefetched whole to device 1 and to the host (one call, and one batch to
# both), prefetched there and back and freed (not a leak); 23 MiB in all,
# and the text names the managed memory's device or the host.
# REQUIRES: gpus>=2
# RUN: %run -o %t/peer.json -- %build/tests/e2e/peer_devices
# CHECK-RE: [0-9]+ devices?, peer device 1, peer access on
# CHECK-DAG: 6.0 MiB of managed memory in 1 allocation never freed, created by cudaMallocManaged on device 1
# CHECK-DAG: 7.0 MiB of managed memory in 1 allocation never freed, created by cudaMallocManaged, prefetched to the host
# RUN: %expr %t/peer.json \
# RUN:   'not [g for g in leaks("device") if stack_has(g, "free_from_other_device")]' \
# RUN:   'not [n for n in r.get("notes", []) if n.get("type") == "unknown_release"]' \
# RUN:   '[(g["bytes"], g.get("device")) for g in leaks("device") if stack_has(g, "leak_on_peer")] == [(5 << 20, 1)]' \
# RUN:   '[g.get("device") for g in leaks("stream") if stack_has(g, "leak_on_peer")] == [1]' \
# RUN:   '[(g["bytes"], g.get("device")) for g in leaks("managed") if stack_has(g, "managed_to_peer")] == [(6 << 20, 1)]' \
# RUN:   '[(g["bytes"], g.get("device", -1)) for g in leaks("managed") if stack_has(g, "managed_to_host")] == [(7 << 20, -1)]' \
# RUN:   'not [g for g in leaks("managed") if stack_has(g, "managed_round_trip")]' \
# RUN:   'sorted((g["bytes"], g.get("device", -1)) for g in leaks("managed") if stack_has(g, "managed_batch")) == [(1 << 20, 1), (4 << 20, -1)]' \
# RUN:   'summary["leaked_bytes"] == 23 << 20'
# CHECK-COUNT(9): holds:
