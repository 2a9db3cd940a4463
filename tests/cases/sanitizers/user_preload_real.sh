# The user's own LD_PRELOAD of ASan's runtime first, on a real GPU: a sample
# built with ASan host code (shared cudart) under `cudaleak run` keeps its
# status and the leak is told.
# REQUIRES: gpu, nvcc
# ENV: ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=0
# BUILD: nvcc -g -cudart shared -Xcompiler -fsanitize=address,-fno-omit-frame-pointer -c -o %t/loop_leak.o %root/samples/loop_leak.cu && g++ -fsanitize=address -o %t/loop_leak_address_shared %t/loop_leak.o -L${CUDA_ROOT:-/usr/local/cuda}/lib64 -lcudart
# RUN: LD_PRELOAD=$(gcc -print-file-name=libasan.so) %run -o %t/r.%p.json -- %t/loop_leak_address_shared; echo status=$?
# CHECK: status=0
# CHECK: never freed
