# Out of memory on a shared device names the other rank that holds it: two
# ranks on one device, rank 1's simulated GPU shows rank 0 holding 100 MiB.
# REQUIRES: simulated
# ENV: CUDALEAK_SIM_DEVICES=1
# RUN(exit=1): mkdir %t/sync && %run --simulated-gpu-memory 256MiB -o %t/job/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 2 --others-hold 100MiB -- %build/tests/e2e/rank_worker --oom-on 1 --sync %t/sync
# RUN: %expr %t/job \
# RUN:   'all(len(one["oom_events"]) == 1 and one["oom_events"][0]["rank"] == 1 and [(o["pid"], o["rank"]) for o in one["oom_events"][0]["other_processes"]] == [(zero["process"]["pid"], 0)] for one in reports if one["process"]["rank"] == 1 and one["oom_events"] for zero in reports if zero["process"]["rank"] == 0)' \
# RUN:   'any(("pid " + str(zero["process"]["pid"]) + " (rank 0, rank_worker) holds 100.0 MiB") in d["message"] for one in reports if one["process"]["rank"] == 1 for e in one["oom_events"] for d in e["diagnosis"] for zero in reports if zero["process"]["rank"] == 0)' \
# RUN:   'len(set(x["process"]["rank"] for x in reports)) == 2 and any(x["oom_events"] for x in reports if x["process"]["rank"] == 1)'
# CHECK-COUNT(3): holds:
