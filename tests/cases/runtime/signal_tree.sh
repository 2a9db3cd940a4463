# A CI timeout's SIGTERM to `cudaleak run -- sh -c '...'`: the shell dies of
# it, and its CUDA child and a 20 s sleep after it get it too (as without
# cudaleak, where the whole job ends), instead of the launcher waiting for
# them as orphans. The CUDA child writes its final report on its way out.
# RUN: %run -o %t/reports/r.%p.json -- sh -c '%build/tests/e2e/wait_for_signal %t/pid; sleep 20' & L=$!; while [ ! -s %t/pid ]; do sleep 0.05; done; S=$(date +%%s); kill -TERM $L; wait $L; echo status=$? seconds=$(( $(date +%%s) - S ))
# CHECK-RE: \Astatus=143 seconds=[0-9]\n
# RUN: %expr %t/reports 'len(reports) == 1 and r["reason"] == "termination"'
# CHECK: holds:
