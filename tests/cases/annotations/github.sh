# REQUIRES: simulated
# Simulated only: the frames a real libcudart adds come before the program's, so the stack's numbering differs.
# GitHub workflow commands at the leak's line from `run` and from `report`:
# one command per leak group the gate counts, with the file and line of the
# program's frame, the title's ':' escaped, the stack on escaped newlines; a
# clean run prints none.
# RUN(exit=1): %run --error-exitcode 1 --annotations github --source-root / -o %t/r.json -- %build/samples/sample_loop_leak_shared
# CHECK: ::error file=
# CHECK: samples/loop_leak.cu,line=8,title=cudaleak%3A device leak::device leak: 50 resources, 800.0 KiB, created by cudaMalloc, definitely lost in sample_loop_leak_shared (pid
# CHECK: %0A#2 step
# RUN: %report --annotations github %t/r.json
# CHECK: ::error file=
# CHECK: ,line=8,title=cudaleak%3A device leak::device leak: 50 resources
# RUN: %run --annotations github -o %t/clean.json -- %build/samples/sample_clean_shared
# CHECK-NONE: ::error
