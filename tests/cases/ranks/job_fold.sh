# A leak on 7 of 8 ranks is one line in report and merge (the devices and
# ranks as ranges, rank 0's own event beside it), a folder reads as one job;
# merged, the gradients are one group of the 7 ranks, each allocation
# marked with its rank. One rank's view (--rank 5, its JSON listing its own
# allocation only, on device 5), each rank's totals (--by rank), a rank that
# is no number refused; other files in the folder passed over, an empty
# folder refused in one line; the HTML page carries the group's ranks.
# REQUIRES: simulated
# ENV: CUDALEAK_SIM_DEVICES=8
# RUN: %run -o %t/job/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 8 -- %build/tests/e2e/rank_worker --leak-on 0,1,2,3,5,6,7 > /dev/null 2>&1; ls %t/job | wc -l
# CHECK-RE: \A8\n
# RUN: %report %t/job
# CHECK: cudaleak (8 processes merged): detected CUDA resource leaks
# CHECK: 14.0 MiB of device memory in 7 allocations never freed, created by cudaMalloc on devices 0-3,5-7 in rank_worker on ranks 0-3,5-7 (7 of 8):
# RUN: %report %t/job | grep -c "job: ranks 0-7 of 8 (torchrun) on host $(hostname)"; %report %t/job | grep -c 'rank0_only_event'; %report %t/job | grep -c 'rank_worker (pid '
# CHECK-RE: \A1\n[1-9][0-9]*\n[1-9][0-9]*\n
# RUN: mkdir %t/merged && %cudaleak merge %t/job -o %t/merged/m.json && %expr %t/merged/m.json \
# RUN:   'len(r["processes"]) == 8 and summary["leaked_count"] == 8' \
# RUN:   'len([g for g in r["leaks"] if stack_has(g, "leak_gradients")]) == 1' \
# RUN:   'all(len(g["ranks"]) == 7 and g["bytes"] == 7 * (2 << 20) and all(s["rank"] != 4 and s["device"] == s["rank"] for s in g["ranks"]) and sorted(a["rank"] for a in g["allocations"]) == [0, 1, 2, 3, 5, 6, 7] for g in r["leaks"] if stack_has(g, "leak_gradients"))'
# CHECK-COUNT(3): holds:
# RUN: %report %t/job --rank 5
# CHECK: 2.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc on device 5 in rank_worker (pid
# CHECK: SUMMARY: cudaleak: 2.0 MiB leaked in 1 resource
# RUN: mkdir %t/five && %report %t/job --rank 5 --format json -o %t/five/r.json && %expr %t/five/r.json '[(g["rank"], g["device"], len(g["allocations"]), g["allocations"][0].get("rank", -1), g["allocations"][0]["bytes"]) for g in r["leaks"] if stack_has(g, "leak_gradients")] == [(5, 5, 1, -1, 2 << 20)]'
# CHECK: holds:
# RUN: for f in %t/job/*.json; do grep -q '"rank": 5' $f && grep -o '"address": "[^"]*"' $f; done | head -1 > %t/own.txt; grep -o '"address": "[^"]*"' %t/five/r.json | head -1 | cmp - %t/own.txt && echo same address as its own report
# CHECK: same address as its own report
# RUN: %report %t/job --by rank
# CHECK: 2.0 MiB          2       2  device,event     rank 0
# CHECK-NONE: rank 4
# RUN(exit=2): %report %t/job --rank -1
# CHECK: --rank: expected a rank (a number from 0), got '-1'
# RUN: echo not a report > %t/job/notes.txt && %report %t/job > /dev/null && echo read
# CHECK: read
# RUN(exit=2): mkdir %t/empty && %report %t/empty
# CHECK: no cudaleak reports in this directory
# RUN: %report %t/job --format html -o %t/job.html && grep -c '"ranks":\[{' %t/job.html
# CHECK-RE: \A[1-9]
