# The gate over a job of two ranks, one per GPU: rank 1 leaks, the job
# fails with error_exitcode, the launcher's line names the ranks, and
# JUnit and SARIF name rank 1. (About 5 s.)
# REQUIRES: gpus>=2
# RUN(exit=9): %run --error-exitcode 9 --fail-on device --junit %t/gate.xml --sarif %t/gate.sarif -o %t/gate/rank.%%p.%%n.json -- %python %root/tests/e2e/programs/fake_torchrun.py --nproc-per-node 2 -- %build/tests/e2e/rank_worker --leak-on 1
# CHECK-RE: leak gate over the job's 2 ranks: rank 1 failed, ranks? 0(,| passed)
# RUN: cat %t/gate.xml
# CHECK: <testsuite name="cudaleak: rank_worker (rank 1)" tests="1" failures="1"
# RUN: %expr %t/gate.sarif '[x["properties"]["rank"] for x in r["runs"][0]["results"]] == [1]'
# CHECK: holds:
