# Modules never unloaded hold their device globals, on a real GPU
# (tests/e2e/programs/module_globals.cpp against the real driver): the bytes
# cudaleak reads from each image equal what the driver says
# (cuModuleGetGlobal), for a cubin file, a cubin in memory (a library), an
# uncompressed fatbin and PTX text (its .global declarations), and for a
# fatbin compressed with Zstandard and one with LZ4 (decompressed by the
# preload). No note; nothing left in `clean`.
# REQUIRES: gpu, nvcc
# BUILD: g++ -std=c++20 -O2 -I${CUDA_ROOT:-/usr/local/cuda}/include -o %t/module_globals %root/tests/e2e/programs/module_globals.cpp -L${CUDA_ROOT:-/usr/local/cuda}/lib64/stubs -lcuda
# BUILD: nvcc -arch=${CUDA_ARCH:-sm_90} -cubin -o %t/globals.cubin %root/tests/e2e/programs/module_globals_kernels.cu
# BUILD: nvcc -arch=${CUDA_ARCH:-sm_90} -fatbin -compress-mode=none -o %t/globals.fatbin %root/tests/e2e/programs/module_globals_kernels.cu
# BUILD: nvcc -arch=${CUDA_ARCH:-sm_90} -fatbin -compress-mode=size -Xfatbin -compress-all -o %t/globals.zstd.fatbin %root/tests/e2e/programs/module_globals_kernels.cu
# BUILD: nvcc -arch=${CUDA_ARCH:-sm_90} -fatbin -compress-mode=speed -Xfatbin -compress-all -o %t/globals.lz4.fatbin %root/tests/e2e/programs/module_globals_kernels.cu
# RUN: %run -o %t/uncompressed/r.%p.json -- %t/module_globals leak %t/globals.cubin %t/globals.fatbin verify > %t/uncompressed.out; cat %t/uncompressed.out
# CHECK: device globals by cuModuleGetGlobal: 1052672
# CHECK: PTX module's globals by cuModuleGetGlobal: 4096
# RUN: %expr %t/uncompressed \
# RUN:   'len(reports) == 1 and len(r.get("notes", [])) == 0' \
# RUN:   'sorted((g["kind"], g["api"], g["bytes"]) for g in r["leaks"]) == sorted([("module", "cuModuleLoad", (1 << 20) + (4 << 10)), ("library", "cuLibraryLoadData", (1 << 20) + (4 << 10)), ("module", "cuModuleLoadData", (1 << 20) + (4 << 10)), ("module", "cuModuleLoadData", 4 << 10)])'
# CHECK-COUNT(2): holds:
# RUN: %run -o %t/uncompressed_clean/r.%p.json -- %t/module_globals clean %t/globals.cubin %t/globals.fatbin verify
# RUN: %expr %t/uncompressed_clean 'len(reports) == 1 and len(r["leaks"]) == 0'
# CHECK: holds:
# RUN: %run -o %t/zstd/r.%p.json -- %t/module_globals leak %t/globals.cubin %t/globals.zstd.fatbin verify > %t/zstd.out; cat %t/zstd.out
# CHECK: device globals by cuModuleGetGlobal: 1052672
# CHECK: PTX module's globals by cuModuleGetGlobal: 4096
# RUN: %expr %t/zstd \
# RUN:   'len(reports) == 1 and len(r.get("notes", [])) == 0' \
# RUN:   'sorted((g["kind"], g["api"], g["bytes"]) for g in r["leaks"]) == sorted([("module", "cuModuleLoad", (1 << 20) + (4 << 10)), ("library", "cuLibraryLoadData", (1 << 20) + (4 << 10)), ("module", "cuModuleLoadData", (1 << 20) + (4 << 10)), ("module", "cuModuleLoadData", 4 << 10)])'
# CHECK-COUNT(2): holds:
# RUN: %run -o %t/zstd_clean/r.%p.json -- %t/module_globals clean %t/globals.cubin %t/globals.zstd.fatbin verify
# RUN: %expr %t/zstd_clean 'len(reports) == 1 and len(r["leaks"]) == 0'
# CHECK: holds:
# RUN: %run -o %t/lz4/r.%p.json -- %t/module_globals leak %t/globals.cubin %t/globals.lz4.fatbin verify > %t/lz4.out; cat %t/lz4.out
# CHECK: device globals by cuModuleGetGlobal: 1052672
# CHECK: PTX module's globals by cuModuleGetGlobal: 4096
# RUN: %expr %t/lz4 \
# RUN:   'len(reports) == 1 and len(r.get("notes", [])) == 0' \
# RUN:   'sorted((g["kind"], g["api"], g["bytes"]) for g in r["leaks"]) == sorted([("module", "cuModuleLoad", (1 << 20) + (4 << 10)), ("library", "cuLibraryLoadData", (1 << 20) + (4 << 10)), ("module", "cuModuleLoadData", (1 << 20) + (4 << 10)), ("module", "cuModuleLoadData", 4 << 10)])'
# CHECK-COUNT(2): holds:
# RUN: %run -o %t/lz4_clean/r.%p.json -- %t/module_globals clean %t/globals.cubin %t/globals.lz4.fatbin verify
# RUN: %expr %t/lz4_clean 'len(reports) == 1 and len(r["leaks"]) == 0'
# CHECK: holds:
