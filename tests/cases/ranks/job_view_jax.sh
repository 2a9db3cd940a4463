# 64 JAX ranks fold as PyTorch's: one story, each user line once with its
# ranks, the odd rank first. One rank's report as cudaleak writes it
# (tests/e2e/programs/fake_jax stands in for JAX under the simulated GPU; the
# program keeps every step's 16 MiB array until XLA's pool is full, and the
# failure ends it with Python's own status 1), cloned into a job: odd ranks
# ran out of memory, even ones were ended by the launcher with the same
# arrays alive; rank 4's arrays and pool are 8x the others' (its timeline as
# theirs: only JAX's view tells it). --ranks all tells each rank's view apart.
# REQUIRES: simulated
# ENV: PYTHONPATH=%root/tests/e2e/programs/fake_jax
# RUN(exit=1): %run --simulated-gpu-memory 256MiB -o %t/rank/report.%p.%n.json -- %python %root/tests/e2e/programs/jax_list_oom.py uncaught
# RUN: f=$(grep -l '"reason": "exit"' %t/rank/*.json | head -1); %python %root/scripts/make-job.py %t/job --ranks 64 --hosts 8 --failing $f --surviving same --grow-arrays 4 > /dev/null && %report %t/job > %t/job.txt; wc -l < %t/job.txt | awk '{ print ($1 < 200 ? "one screen" : "too long: " $1) }'; awk '{ n = gsub(/rank /, "&"); if (n > most) most = n } END { print (most <= 6 ? "ranks as ranges" : "a line names " most " ranks") }' %t/job.txt; for w in 'ran out of memory in' 'out of memory on rank' 'JAX at exit'; do grep -o "$w" %t/job.txt | wc -l; done
# CHECK-RE: \Aone screen\nranks as ranges\n1\n1\n1\n\Z
# RUN: cat %t/job.txt
# CHECK: a rank unlike the others:
# CHECK-NOT: ran out of memory in
# CHECK:   rank 4 (pid 4004 on node000) held 1.4 GiB in JAX's live arrays on device 4 at exit, the most 1.4 GiB in 88 arrays from fill (jax_list_oom.py:
# CHECK: ), the largest float32[4096,1024] (16.0 MiB), while the median rank held 176.0 MiB (8.0x)
# CHECK: 32 ranks ran out of memory in fill (jax_list_oom.py:
# CHECK: ): ranks 1-63 odd; rank
# CHECK: JAX (XLA) could not allocate 16.0 MiB on device
# CHECK:   Across the 32 ranks: between
# CHECK: JAX at exit on 64 ranks (0-63), each on its own device: XLA's pool median 176.0 MiB (176.0 MiB-1.4 GiB) in use of its median 192.0 MiB (192.0 MiB-1.5 GiB) limit; live arrays median 176.0 MiB (176.0 MiB-1.4 GiB) in 12-96 (not leaks, not gated), by the user's line:
# CHECK:     median 176.0 MiB (176.0 MiB-1.4 GiB) in 11-88 arrays from fill (jax_list_oom.py:
# CHECK: ), the largest float32[4096,1024] (16.0 MiB)
# CHECK:     median 4.0 KiB (4.0 KiB-32.0 KiB) in 1-8 arrays from main (jax_list_oom.py:
# CHECK: ), the largest float32[1024] (4.0 KiB)
# CHECK-NONE: JAX at exit on device
# The user's lines, named by their marks in the program.
# RUN: k=$(grep -n '# LINE:keep' %root/tests/e2e/programs/jax_list_oom.py | cut -d: -f1); p=$(grep -n '# LINE:params' %root/tests/e2e/programs/jax_list_oom.py | cut -d: -f1); grep -c "in 88 arrays from fill (jax_list_oom.py:$k)" %t/job.txt; grep -c "32 ranks ran out of memory in fill (jax_list_oom.py:$k): ranks 1-63 odd; rank" %t/job.txt; grep -c "in 11-88 arrays from fill (jax_list_oom.py:$k), the largest" %t/job.txt; grep -c "in 1-8 arrays from main (jax_list_oom.py:$p), the largest" %t/job.txt
# CHECK-RE: \A1\n1\n1\n1\n\Z
# RUN: %report %t/job --ranks all | grep -c 'JAX at exit on device'
# CHECK-RE: \A64\n
