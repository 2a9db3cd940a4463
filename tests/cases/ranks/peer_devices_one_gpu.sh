# tests/e2e/programs/peer_devices on a machine with one real GPU: the same on
# device 0 without peer access (peer_devices_real.sh has two GPUs): memory
# freed from another context is neither a leak nor an unknown release; the
# peer's leaks (5 MiB and a stream) and the managed memory prefetched whole
# on device 0, the rest to the host; 23 MiB in all, and the text names the
# managed memory's device or the host.
# REQUIRES: gpu
# UNSUPPORTED: gpus>=2
# RUN: %run -o %t/peer.json -- %build/tests/e2e/peer_devices
# CHECK-RE: [0-9]+ devices?, peer device 0, peer access off
# CHECK-DAG: 6.0 MiB of managed memory in 1 allocation never freed, created by cudaMallocManaged on device 0
# CHECK-DAG: 7.0 MiB of managed memory in 1 allocation never freed, created by cudaMallocManaged, prefetched to the host
# RUN: %expr %t/peer.json \
# RUN:   'not [g for g in leaks("device") if stack_has(g, "free_from_other_device")]' \
# RUN:   'not [n for n in r.get("notes", []) if n.get("type") == "unknown_release"]' \
# RUN:   '[(g["bytes"], g.get("device")) for g in leaks("device") if stack_has(g, "leak_on_peer")] == [(5 << 20, 0)]' \
# RUN:   '[g.get("device") for g in leaks("stream") if stack_has(g, "leak_on_peer")] == [0]' \
# RUN:   '[(g["bytes"], g.get("device")) for g in leaks("managed") if stack_has(g, "managed_to_peer")] == [(6 << 20, 0)]' \
# RUN:   '[(g["bytes"], g.get("device", -1)) for g in leaks("managed") if stack_has(g, "managed_to_host")] == [(7 << 20, -1)]' \
# RUN:   'not [g for g in leaks("managed") if stack_has(g, "managed_round_trip")]' \
# RUN:   'sorted((g["bytes"], g.get("device", -1)) for g in leaks("managed") if stack_has(g, "managed_batch")) == [(1 << 20, 0), (4 << 20, -1)]' \
# RUN:   'summary["leaked_bytes"] == 23 << 20'
# CHECK-COUNT(9): holds:
