# CUDA's template wrapper with static cudart (real GPUs: the simulated GPU
# needs shared cudart): the rule names the user's function, and frame #0 is
# cudaMalloc, not static cudart's internal name.
# REQUIRES: gpu
# BUILD: %nvcc-static -O0 %S/template_wrapper.cu -o %t/prog
# RUN: %run --gen-suppressions -o %t/r.json -- %t/prog
# CHECK: never freed, created by cudaMalloc
# CHECK: leak:fill_buffers kind:device
# CHECK-NONE: in libcudart_static_
# CHECK-NONE: leak:cudaError
