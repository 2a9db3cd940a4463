# A rank that crashed is named by its crash report (Open MPI's variables:
# rank 5 of 6, local rank 1); the job's gate names the ranks that crashed
# and its status wins over the launcher's.
# RUN(signal=SIGSEGV): OMPI_COMM_WORLD_RANK=5 OMPI_COMM_WORLD_LOCAL_RANK=1 OMPI_COMM_WORLD_SIZE=6 %run -o %t/one/rank.%%p.json -- %build/tests/e2e/crash_after_leak
# RUN: %expr %t/one "len(reports) == 1 and r['reason'] == 'crash' and (r['process']['rank'], r['process']['local_rank'], r['process']['world_size'], r['process']['launcher'], r['process']['host']) == (5, 1, 6, 'openmpi', '$(hostname)')"
# CHECK: holds:
# RUN(exit=9): %run --error-exitcode 9 -o %t/job/rank.%%p.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 2 -- %build/tests/e2e/crash_after_leak
# CHECK: leak gate over the job's 2 ranks: ranks 0,1 failed; exiting with status 9
# RUN: ls %t/job | wc -l
# CHECK-RE: \A2\n
