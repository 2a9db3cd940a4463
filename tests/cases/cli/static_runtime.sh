# A statically linked CUDA runtime (nvcc's default; it needs the real
# driver's private tables, so every CUDA call fails unseen) under the
# simulated GPU is named, with the fix, and never passes the gate: nothing
# seen is no proof. The same program with the shared runtime is traced and
# fails the gate on its leak.
# REQUIRES: simulated
# RUN(exit=2): %run -o %t/a.json -- %build/samples/sample_loop_leak
# CHECK: cannot run this program's statically linked CUDA runtime
# CHECK: -cudart shared
# CHECK: no leak seen, but not every CUDA call was: its statically linked CUDA runtime
# CHECK-NONE: no CUDA resources leaked
# RUN(exit=125): %run --error-exitcode 3 -o %t/b.json -- %build/samples/sample_loop_leak
# CHECK: the leak gate cannot be evaluated: its statically linked CUDA runtime cannot run on the simulated GPU
# CHECK: exiting with status 125 (gate_error_exitcode)
# CHECK-NONE: no CUDA resources leaked
# RUN(exit=3): %run --error-exitcode 3 -o %t/c.json -- %build/samples/sample_loop_leak_shared
# CHECK-NONE: statically linked CUDA runtime
