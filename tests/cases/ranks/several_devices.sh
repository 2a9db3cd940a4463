# Several devices in one process (three; another process holds 100 MiB of
# device 2 only): each resource and timeline on its own device (device d's
# buffer d+1 MiB), the out-of-memory on device 2 naming the other process
# (its rank unknown here), and the growth on device 2 only.
# REQUIRES: simulated
# ENV: CUDALEAK_SIM_DEVICES=3
# ENV: CUDALEAK_SIM_OTHER_PROCESS=4242:viewer:100MiB:2
# RUN(exit=1): %run --simulated-gpu-memory 256MiB -o %t/job/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 1 -- %build/tests/e2e/rank_worker --all-devices --oom-on 0 --oom-device 2
# RUN: %expr %t/job/$(ls %t/job | tail -1) \
# RUN:   'all([g["bytes"] for g in r["leaks"] if g["device"] == d and stack_has(g, "per_device_buffer")] == [(d + 1) << 20] for d in range(3))' \
# RUN:   'sorted(t["device"] for t in r["timeline"]["devices"]) == [0, 1, 2]' \
# RUN:   '[(e["device"], [(o["pid"], o.get("rank", -1), o["bytes"]) for o in e["other_processes"]]) for e in r["oom_events"]] == [(2, [(4242, -1, 100 << 20)])]' \
# RUN:   'all(p[2] >= 128 << 20 and p[1] == 2 << 20 and p[0] == 33 << 20 for p in [dict((t["device"], t["peak"]["bytes"]) for t in r["timeline"]["devices"])])'
# CHECK-COUNT(4): holds:
