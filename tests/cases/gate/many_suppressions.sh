# 200,001 suppression rules (200,000 that match nothing, then loop_leak's)
# are compiled once by the launcher and mapped by the process, which names
# the leak as suppressed by the last rule, with its file and line; under
# plain LD_PRELOAD the process parses the same rules itself and hides the
# same leak.
# RUN: awk 'BEGIN { for (i = 0; i < 200000; ++i) printf "leak:ns_%d::unrelated_function_%d kind:device\n", i %% 97, i }' > %t/many.supp; echo 'leak:step kind:device' >> %t/many.supp
# RUN: %run --verbose --error-exitcode 23 --suppressions %t/many.supp -o %t/sup.%p.json -- %build/samples/sample_loop_leak_shared
# CHECK-DAG-RE: suppression rules: 2000[0-9][0-9], mapped from the run's compiled file
# CHECK-DAG: leak:step kind:device (%t/many.supp:200001)
# RUN: CUDALEAK_OPTIONS=verbose=1:suppressions=%t/many.supp:output=%t/sup_plain.%p.json %preload %build/samples/sample_loop_leak_shared
# CHECK-DAG-RE: suppression rules: 2000[0-9][0-9], parsed from the files
# CHECK-DAG: Suppressed: 50 / 800.0 KiB
