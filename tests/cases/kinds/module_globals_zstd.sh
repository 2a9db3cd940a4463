# A fatbin that nvcc compressed with Zstandard (size) holds the globals of the
# uncompressed one: the fatbin's 1 MiB + 4 KiB, the PTX's 4 KiB array.
# REQUIRES: simulated
# RUN: %run -o %t/r.json -- %build/tests/e2e/module_globals leak %build/tests/e2e/module_globals_kernels.cubin %build/tests/e2e/module_globals_kernels.zstd.fatbin
# CHECK: SUMMARY: cudaleak:
# RUN: %expr %t/r.json 'sorted(g["bytes"] for g in leaks("module", api="cuModuleLoadData")) == [4096, (1 << 20) + (4 << 10)]'
# CHECK: holds:
