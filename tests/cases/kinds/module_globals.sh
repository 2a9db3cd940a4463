# A module never unloaded holds its device globals (.nv.global and
# .nv.global.init: 1 MiB + 4 KiB), read from the cubin (cuModuleLoad) or the
# fatbin (cuModuleLoadData, cuLibraryLoadData); the PTX's 4 KiB array. Listed,
# not added: leaked_bytes counts memory kinds only.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/module_globals leak %build/tests/e2e/module_globals_kernels.cubin %build/tests/e2e/module_globals_kernels.fatbin
# CHECK: 1 module never unloaded, created by cuModuleLoad on device 0, holding 1.0 MiB of device globals
# RUN: %expr %t/r.json \
# RUN:   'group("module", "cuModuleLoad")["bytes"] == (1 << 20) + (4 << 10)' \
# RUN:   'sorted(g["bytes"] for g in leaks("module", api="cuModuleLoadData")) == [4096, (1 << 20) + (4 << 10)]' \
# RUN:   'group("library", "cuLibraryLoadData")["bytes"] == (1 << 20) + (4 << 10)' \
# RUN:   'count("module") == 3 and summary["leaked_bytes"] == 0'
# CHECK-COUNT(4): holds:
