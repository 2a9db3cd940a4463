# A command that drops the preload and uses a real GPU is seen by the
# launcher and never green: the run ends non-zero and names LD_PRELOAD.
# REQUIRES: gpu
# RUN: %run --error-exitcode 9 -o %t/r.%p.json -- env -u LD_PRELOAD %build/tests/e2e/wait_for_signal %t/pid busy > /dev/null & L=$!; while [ ! -s %t/pid ]; do sleep 0.01; done; sleep 1; kill -TERM $(cat %t/pid); wait $L; echo status=$?
# CHECK-RE: status=[1-9][0-9]*\n
# CHECK: LD_PRELOAD
