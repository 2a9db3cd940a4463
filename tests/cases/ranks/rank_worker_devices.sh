# One process on two GPUs (CUDA_VISIBLE_DEVICES=0,1;
# tests/e2e/programs/rank_worker.cpp --all-devices): a buffer of d+1 MiB on
# each device d, a timeline per device, and the failure on device 1 read
# there. (About 10 s.)
# REQUIRES: gpus>=2
# RUN(exit=1): CUDA_VISIBLE_DEVICES=0,1 %run -o %t/devices/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 1 -- %build/tests/e2e/rank_worker --all-devices --oom-on 0 --oom-device 1
# CHECK: out of memory
# RUN: %expr %t/devices \
# RUN:   '(x := max(reports, key=lambda x: x["duration_ns"])) and all([g["bytes"] for g in x["leaks"] if g["device"] == d and stack_has(g, "per_device_buffer")][:1] == [(d + 1) << 20] for d in range(2))' \
# RUN:   'sorted(t["device"] for t in max(reports, key=lambda x: x["duration_ns"])["timeline"]["devices"]) == [0, 1]' \
# RUN:   '[e["device"] for e in max(reports, key=lambda x: x["duration_ns"])["oom_events"] if not e.get("recovered")][:1] == [1]'
# CHECK-COUNT(3): holds:
