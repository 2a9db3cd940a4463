# Statically linked cuBLAS and cuSOLVER whose handles are destroyed: nothing reported.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/static_handles clean
# CHECK: no CUDA resources leaked
# RUN: %expr %t/r.json 'r["leaks"] == [] and summary["leaked_count"] == 0'
# CHECK: holds:
