# cudaleak report on a run of samples/exception_leak gated by
# --error-exitcode: a filter that leaves every group out says so, not
# "nothing leaked"; the verdict the run's gate stored is read back with the
# leaks (and a gate that could not be evaluated, edited in by hand, says
# why); a listing to a full device fails as a file that cannot be written
# does (status 2); a file whose name begins with '-' is not taken for a
# missing file.
# RUN(exit=23): %run --error-exitcode 23 -o %t/reports/r.%p.json -- %build/samples/sample_exception_leak_shared
# RUN: %expr %t/reports 'len(reports) == 1'
# CHECK: holds:
# RUN: %report %t/reports/*.json --kind event
# CHECK: no leak group matches the filters (1 leak group in the report left out)
# CHECK-NONE: no CUDA resources leaked
# RUN: %report %t/reports/*.json
# CHECK: cudaleak: CI gate of the run: failed (1 leak group, 1.0 MiB)
# RUN: %python %root/tests/cases/tools/edit_json.py %t/reports/*.json %t/unseen.json 'r["gate"]["error"] = "memory cudaleak did not see"'
# RUN: %report %t/unseen.json
# CHECK: CI gate of the run: not evaluated: memory cudaleak did not see
# RUN(exit=2): %report %t/reports/*.json > /dev/full
# CHECK-RE: \Acudaleak: cannot write to standard output: [^\n]*\n\Z
# RUN(exit=2): %cudaleak diff %t/reports/*.json %t/reports/*.json > /dev/full
# CHECK-RE: \Acudaleak: cannot write to standard output: [^\n]*\n\Z
# RUN(exit=2): %cudaleak options > /dev/full
# CHECK-RE: \Acudaleak: cannot write to standard output: [^\n]*\n\Z
# RUN(exit=2): %report -dash.json 2>&1 >/dev/null
# CHECK: unknown option -dash.json (a file whose name begins with '-' is written ./-dash.json)
