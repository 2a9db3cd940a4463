# SIGTERM landing inside a hook ends the process with its report at once, 30
# runs: the only thread makes CUDA calls back to back, so the signal mostly
# lands inside a hook, often while it holds a lock of the registry the report
# needs; the report must not wait for the handler's 10 s bound (5 s allowed).
# RUN: for i in $(seq 0 29); do rm -f %t/pid; %run -o %t/$i/r.%p.json -- %build/tests/e2e/wait_for_signal %t/pid busy & L=$!; while [ ! -s %t/pid ]; do sleep 0.01; done; sleep 0.0$((i % 7)); S=$(date +%%s%%N); kill -TERM $(cat %t/pid); wait $L; st=$?; ms=$((($(date +%%s%%N) - S) / 1000000)); echo status=$st reports=$(ls %t/$i | wc -l); [ $ms -le 5000 ] || echo "slow: $ms ms"; done 2> /dev/null
# CHECK-COUNT(30): status=143 reports=1
# CHECK-NONE: slow
