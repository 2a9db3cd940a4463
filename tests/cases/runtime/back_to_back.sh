# Back-to-back runs with one report path each replace the last run's report:
# a run that starts right after the last is never taken for "another process
# of this run" (each run claims its names in its own directory). 8 runs,
# each report the pid the run printed.
# RUN: for i in 1 2 3 4 5 6 7 8; do %run -o %t/reports/report.json -- %build/samples/sample_loop_leak_shared 2>&1 | grep -o '^==[0-9]*==' | head -1 | tr -d = > %t/pid; %python -c 'import json, sys; print("same pid" if json.load(open(sys.argv[1]))["process"]["pid"] == int(open(sys.argv[2]).read()) else "other pid")' %t/reports/report.json %t/pid; done
# CHECK-COUNT(8): same pid
# CHECK-NONE: other pid
# RUN: for i in 1 2; do %run -o %t/reports/report.json -- %build/samples/sample_loop_leak_shared; done; echo files=$(ls %t/reports | wc -l) $(ls %t/reports)
# CHECK: files=1 report.json
# CHECK-NONE: written by another process of this run
