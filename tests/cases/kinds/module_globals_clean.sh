# A program that unloads its modules reports nothing.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/module_globals clean %build/tests/e2e/module_globals_kernels.cubin %build/tests/e2e/module_globals_kernels.fatbin
# CHECK: no CUDA resources leaked
# RUN: %expr %t/r.json 'r["leaks"] == []'
# CHECK: holds:
