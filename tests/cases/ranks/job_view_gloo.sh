# The folded job view of a real many-rank job: 8 processes under torchrun
# over gloo on the machine's GPUs, as many as it has (more processes than
# GPUs: they share them; tests/gpu/python/job_view_job.py). Rank 3 grows
# and leaks 64 MiB alone, ranks 1, 5 and 7 run out of memory at one line,
# torchrun ends the others. Every report named by its host (-o %h...); the
# job line; rank 3 said first as unlike the others (grew, against the
# median rank; a leak group no other rank has); the three failures one
# story with their rank list, told once, with the numbers across them;
# --ranks all tells each, --rank 3 its leak; the text under 200 lines; the
# HTML page one card for the story. The host's name reads HOST below.
# (About 60 s.)
# REQUIRES: gpu, torch
# LINES-OF: %root/tests/gpu/python/job_view_job.py
# RUN: %run -o %t/job/%%h.%%p.%%n.json -- %python -m torch.distributed.run --standalone --nproc_per_node 8 %root/tests/gpu/python/job_view_job.py > %t/job.out 2>&1; n=$(ls %t/job | wc -l); echo "reports $n, named by host $(ls %t/job | grep -c "^$(hostname)\.")"
# CHECK-RE: reports ([89]|[1-9][0-9]+), named by host \1\n
# RUN: %report %t/job > %t/job.txt; sed "s/ $(hostname)\([) ]\|$\)/ HOST\1/g" %t/job.txt
# CHECK-NOT: ran out of memory
# CHECK-RE: unlike the others:\n
# RUN: sed "s/ $(hostname)\([) ]\|$\)/ HOST\1/g" %t/job.txt
# CHECK-DAG-RE: job: ranks 0-7 of 8 \(torchrun\) on host HOST\n
# CHECK-DAG-RE:   rank 3 \(pid \d+ on HOST\) grew to [0-9.]+ GiB on device \d+ \(from .*\), while the median rank peaked at [0-9.]+ [MG]iB \([0-9.]+x\)\n
# CHECK-DAG-RE:   rank 3 \(pid \d+ on HOST\) alone leaked 64\.0 MiB \(1 device resource\) in leak_through_the_driver \(rank_steps\.py:\d+\): no other rank has this leak group\n
# CHECK-DAG-RE: 3 ranks ran out of memory in <module> \(job_view_job\.py:%line:oom\): ranks 1,5,7; rank [157] \(pid \d+ on HOST\) first, at
# CHECK-DAG-RE:   Across the 3 ranks: between [0-9.]+ [mu]?s and [0-9.]+ [mu]?s of the job
# CHECK-DAG:   The other ranks at that moment: rank 0 on device 0 held
# CHECK-COUNT(1): Likely causes, most likely first:
# RUN: wc -l < %t/job.txt | awk '{ print ($1 < 200 ? "under 200 lines" : "too long: " $1) }'
# CHECK: under 200 lines
# RUN: %report %t/job --ranks all
# CHECK-COUNT(3): Likely causes, most likely first:
# RUN: %report %t/job --rank 3
# CHECK: 64.0 MiB of device memory in 1 allocation never freed
# RUN: %report %t/job --format html -o %t/job.html && sed 's/\\u003c/</g' %t/job.html | grep -c '"title":"3 ranks ran out of memory in <module>'
# CHECK-RE: \A[1-9]
