# A project's CTest suite gated by cudaleak through cmake/CudaLeak.cmake
# (tests/ctest-suite, nvcc's default static cudart) on a real GPU: every
# test passes as the suite expects of it.
# REQUIRES: gpu, nvcc, command=cmake, command=ninja
# BUILD: cmake -S %root/tests/ctest-suite -B %t/suite -G Ninja -DCMAKE_CUDA_COMPILER=$(command -v nvcc) -DCUDALEAK_ROOT=%build > /dev/null && cmake --build %t/suite > /dev/null
# RUN: cd %t/suite && ctest --output-on-failure
# CHECK-RE: 100% tests passed(, 0 tests failed)? out of 5
