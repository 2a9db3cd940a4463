# Two JAX processes on one device, started with multiprocessing "spawn"
# (tests/gpu/jax/two_processes.py; each inherits cudaleak): worker 0 holds
# a sixth of its pool and waits, worker 1 fills the rest until XLA fails.
# Its one story names the filling line and the other process; the folder
# of both reports names each process's JAX device. (About 30 s.)
# REQUIRES: gpu, jax
# LINES-OF: %root/tests/gpu/jax/two_processes.py
# RUN: %run -o %t/two/rank.%%p.%%n.json -- %python %root/tests/gpu/jax/two_processes.py > %t/out.txt 2>&1; cat %t/out.txt
# CHECK-DAG-RE: out of memory( on rank [0-9]+)?: JAX \(XLA\) could not allocate [1-9]
# CHECK-DAG: two_processes.py:%line:filler
# CHECK-DAG: another process holds
# CHECK-NONE: more out-of-memory events of a call already told
# RUN: grep -cE 'out of memory( on rank [0-9]+)?: ' %t/out.txt
# CHECK-RE: \A1\n
# RUN: %report %t/two/ 2>&1 | grep -c "JAX at exit on device 0 in"
# CHECK-RE: \A([2-9]|[1-9][0-9]+)\n
