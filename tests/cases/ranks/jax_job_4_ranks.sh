# A JAX job of 4 ranks on one GPU (tests/gpu/jax/job_rank.py, each rank its
# own `cudaleak run`, XLA allocating on demand; rank 2 keeps 8x the others'
# arrays): the job view folds the ranks' JAX views into one, the user's
# line once with the bytes as a median and range, and names rank 2 first;
# --ranks all tells each rank's view; the job's JUnit (a suite per rank),
# SARIF and HTML page (its JAX section) are written. (About 20 s.)
# REQUIRES: gpu, jax
# LINES-OF: %root/tests/gpu/jax/job_rank.py
# RUN: pids=; for r in 0 1 2 3; do RANK=$r LOCAL_RANK=$r WORLD_SIZE=4 XLA_PYTHON_CLIENT_PREALLOCATE=false %run -o %t/job/%%h.%%p.%%n.json -- %python %root/tests/gpu/jax/job_rank.py > %t/rank$r.txt 2>&1 & pids="$pids $!"; done; s=0; for p in $pids; do wait $p || s=1; done; cat %t/rank*.txt; exit $s
# CHECK-DAG: rank 0 kept 4 arrays
# CHECK-DAG: rank 2 kept 32 arrays
# RUN: %report %t/job
# CHECK-DAG: job: ranks 0-3 of 4
# CHECK-DAG: JAX at exit on 4 ranks (0-3), on 1 device:
# CHECK-DAG: arrays from keep (job_rank.py:%line:keep)
# CHECK-DAG: live arrays median 1.0 GiB (1.0 GiB-8.0 GiB) in 4-32 (not leaks, not gated), by the user's line:
# CHECK-DAG:     median 1.0 GiB (1.0 GiB-8.0 GiB) in 4-32 arrays from keep (job_rank.py:%line:keep)
# CHECK-DAG: unlike the others:
# CHECK-DAG: held 8.0 GiB in JAX's live arrays on device 0 at exit, the most 8.0 GiB in 32 arrays from keep (job_rank.py:%line:keep)
# CHECK-NONE: JAX at exit on device
# CHECK-COUNT(1): JAX at exit
# RUN: %report %t/job --ranks all > %t/all.txt && grep -c "JAX at exit on device 0 in " %t/all.txt
# CHECK-RE: \A4\n
# RUN: %report %t/job --format junit -o %t/job.junit && %python -c 'import sys, xml.etree.ElementTree as ET; print("JUnit suites:", len(ET.parse(sys.argv[1]).getroot().findall("testsuite")))' %t/job.junit
# CHECK: JUnit suites: 4
# RUN: %report %t/job --format sarif -o %t/job.sarif && %expr %t/job.sarif 'r["version"] == "2.1.0"'
# CHECK: holds:
# RUN: %report %t/job --format html -o %t/job.html && grep -c 'id="jax-section"' %t/job.html
# CHECK-RE: \A[1-9]
