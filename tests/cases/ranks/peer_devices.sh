# Peer access and managed memory prefetched across devices keep each
# resource on its device: memory freed while another device was current is
# neither a leak nor an unknown release; the peer's memory and stream on
# device 1; managed memory where it was prefetched whole (device 1, or the
# host), one batch to two destinations; the timelines moved with it (device
# 1 ends holding 5 + 6 + 1 MiB, device 0 nothing).
# REQUIRES: simulated
# ENV: CUDALEAK_SIM_DEVICES=2
# RUN: %run -o %t/r.json -- %build/tests/e2e/peer_devices
# CHECK: 2 devices, peer device 1, peer access on
# CHECK: 7.0 MiB of managed memory in 1 allocation never freed, created by cudaMallocManaged, prefetched to the host:
# CHECK: 6.0 MiB of managed memory in 1 allocation never freed, created by cudaMallocManaged on device 1
# RUN: %expr %t/r.json \
# RUN:   'not [g for g in leaks("device") if stack_has(g, "free_from_other_device")] and not [n for n in r["notes"] if n["type"] == "unknown_release"]' \
# RUN:   '[(g["device"], g["bytes"]) for g in leaks("device") if stack_has(g, "leak_on_peer")] == [(1, 5 << 20)] and [g["device"] for g in leaks("stream") if stack_has(g, "leak_on_peer")] == [1]' \
# RUN:   '[(g.get("device", -1), g["bytes"]) for g in leaks("managed") if stack_has(g, "managed_to_peer")] == [(1, 6 << 20)] and [(g.get("device", -1), g["bytes"]) for g in leaks("managed") if stack_has(g, "managed_to_host")] == [(-1, 7 << 20)]' \
# RUN:   'not [g for g in leaks("managed") if stack_has(g, "managed_round_trip")]' \
# RUN:   'sorted((g["bytes"], g.get("device", -1)) for g in leaks("managed") if stack_has(g, "managed_batch")) == [(1 << 20, 1), (4 << 20, -1)]' \
# RUN:   'summary["leaked_bytes"] == (5 + 6 + 7 + 1 + 4) << 20' \
# RUN:   'all(last.get(1) == 12 << 20 and last.get(0, 0) == 0 for last in [dict((t["device"], sum(t["points"][-1][2:])) for t in r["timeline"]["devices"] if t["points"])])'
# CHECK-COUNT(7): holds:
