# REQUIRES: simulated
# Simulated only: its child uses CUDA after a fork, which only the simulated driver allows.
# The launcher parses the suppression files once and every process of the
# run maps the result: both processes (the child forked before either read
# the rules) map the launcher's file with its 20,001 rules, and the child's
# pinned buffer is suppressed by the last. Under plain LD_PRELOAD, the
# process parses the files itself, with the same result.
# RUN: for i in $(seq 0 19999); do echo "leak:unrelated_function_$i kind:device"; done > %t/many.supp; echo 'leak:main kind:pinned' >> %t/many.supp
# RUN: %run --suppressions %t/many.supp --verbose --no-default-suppressions -o %t/reports/r.%p.json -- %build/tests/e2e/fork_child
# CHECK-COUNT(2): suppression rules: 20001, mapped from the run's compiled file
# CHECK-NONE: parsed from the files
# RUN: %expr %t/reports 'len([g for x in reports for g in x["leaks"] if g.get("suppressed_by") == "leak:main kind:pinned (%t/many.supp:20001)"]) == 1'
# CHECK: holds:
# RUN: CUDALEAK_OPTIONS=verbose=1:default_suppressions=0:output=%t/plain.%p.json:suppressions=%t/many.supp %preload %build/tests/e2e/fork_child
# CHECK: suppression rules: 20001, parsed from the files
