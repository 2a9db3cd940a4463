# A job of 64 ranks on 8 hosts, cloned from real GPU reports by
# scripts/make-job.py (odd ranks ran out of memory, even ones ended with
# their tensors alive; rank 4 grew, host node001's GPUs held another
# process), read as a user reads it: one screen (under 200 lines, at most 6
# rank names on a line), what the ranks share told once, the ranks unlike
# the others first, the others as a distribution, the frameworks' views
# folded. --ranks all and --rank N tell the ranks apart; the merged file
# reads as the folder (equal pids on other hosts are other processes); the
# HTML page stays small (the job's modules once each).
# RUN: %python %root/scripts/make-job.py %t/job --ranks 64 --hosts 8 --grow 4 --busy-host 1 > /dev/null && ls %t/job | wc -l
# CHECK-RE: \A64\n
# RUN: %report %t/job > %t/job.txt; wc -l < %t/job.txt | awk '{ print ($1 < 200 ? "one screen" : "too long: " $1) }'; awk '{ n = gsub(/rank /, "&"); if (n > most) most = n } END { print (most <= 6 ? "ranks as ranges" : "a line names " most " ranks") }' %t/job.txt; grep -c 'Likely causes, most likely first:' %t/job.txt; grep -c 'PyTorch at exit' %t/job.txt; cat %t/job.txt
# CHECK-RE: \Aone screen\nranks as ranges\n2\n1\n
# CHECK:   job: ranks 0-63 of 64 (torchrun) on 8 hosts (node[000-007])
# CHECK: ranks unlike the others:
# CHECK-NOT: ran out of memory in
# CHECK:   rank 4 (pid 4004 on node000) grew to 2.5 GiB on device 4 (from
# CHECK: while the median rank peaked at 320.0 MiB (8.0x)
# CHECK:   host node001: another process (pid 90001, /usr/bin/python3 eval.py) held 40.0 GiB of device 7 when ranks 9,11,13,15 ran out of memory there; the failing ranks of 7 other hosts saw none
# CHECK:   rank 4 (pid 4004 on node000) alone leaked 5.0 GiB (10 device resources) in keep_activations (scenario_exceptions.py:109): no other rank has this leak group
# CHECK: 28 ranks ran out of memory in <module> (scenario_fraction.py:7): ranks 1-63 odd but 9,11,13,15; rank
# CHECK:   Across the 28 ranks: between
# CHECK: on 7 hosts (node[000,002-007]); the same numbers on every rank
# CHECK:   The other 63 ranks at that moment, each on its own device: 31 held 64.0 MiB and ran out of memory themselves (ranks 1-63 odd but
# CHECK: 4 ranks ran out of memory in <module> (scenario_fraction.py:7): ranks 9,11,13,15; rank 15 (pid 4007 on node001) the first of them
# CHECK-RE: PyTorch at exit on 32 ranks \(0\-62 even\), each on its own device: 320\.0 MiB reserved, 320\.0 MiB allocated \(not leaks, not gated\); rank 0 \(pid 4000 on node000\)'s tensors:\n    320\.0 MiB in 10 tensors in segments reserved by work \(scenario_exceptions\.py:9\)\n
# CHECK: SUMMARY: cudaleak: 5.0 GiB leaked in 10 resources
# CHECK-NONE: The other ranks at that moment: rank 0
# RUN: %report %t/job --ranks all > %t/all.txt; grep -c 'Likely causes, most likely first:' %t/all.txt; cat %t/all.txt
# CHECK-RE: \A32\n
# CHECK: PyTorch at exit on device 0 in python3.12 (pid 4000, rank 0): 320.0 MiB reserved
# RUN: %report %t/job --rank 9 > %t/nine.txt; grep -c 'Likely causes, most likely first:' %t/nine.txt; cat %t/nine.txt
# CHECK-RE: \A1\n
# CHECK: rank 9 (pid 4001) ran out of memory first, at
# CHECK-NONE: rank 11 (pid
# RUN: mkdir %t/merged && %cudaleak merge %t/job -o %t/merged/m.json && %report %t/merged/m.json > %t/again.txt && cmp %t/job.txt %t/again.txt && echo merged reads as the folder
# CHECK: merged reads as the folder
# RUN: %expr %t/merged/m.json 'len(r["processes"]) == 64 and len([p for p in r["processes"] if p["pid"] == 4000]) == 8 and not r.get("history")'
# CHECK: holds:
# RUN: %report %t/job --format html -o %t/job.html && stat -c %%s %t/job.html | awk '{ print ($1 < 2 * 1024 * 1024 ? "small page" : "page of " $1 " bytes") }'
# CHECK: small page
