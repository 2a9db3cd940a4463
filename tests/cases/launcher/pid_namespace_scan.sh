# REQUIRES: simulated, pid-namespaces, nvcc
# Simulated only: a real driver does not start in a PID namespace whose /proc is the parent's (cudaMalloc: "OS call failed or operation not supported on this OS", H200, driver 580).
# A program in its own PID namespace, with the parent's /proc, where
# /proc/<getpid()> is another process: the frames are still named by their
# functions and lines (the symbolizer reads the maps of the number /proc
# knows the process by), and the scan still tells its own reporting thread
# from the program's threads (thread ids read through NSpid), or a lost
# buffer's address left on the reporting thread's stack keeps it "still
# reachable". Classes and lines are those of the same program run plainly
# (reachability/lost_and_held.cu).
# BUILD: %nvcc %root/tests/cases/reachability/lost_and_held.cu -o %t/prog
# RUN: unshare --pid --fork %run -o %t/r.json -- %t/prog
# CHECK: definitely lost: 4.0 MiB of device memory in 1 allocation never freed, created by cudaMalloc on device 0:
# CHECK-RE: #1 0x[0-9a-f]+ in lose_in_local\(\) .*lost_and_held\.cu:\d+ \(prog\)
# CHECK-NONE: ?? (prog)
# CHECK: definitely lost: 4.0 MiB in 2 resources; still reachable: 3.0 MiB in 4 resources
# RUN: %expr %t/r.json \
# RUN:   'summary["leaked_count"] == 2 and summary["reachable_count"] == 4' \
# RUN:   'r["reachability"]["complete"]'
# CHECK-COUNT(2): holds:
