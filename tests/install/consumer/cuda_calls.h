// cudaMalloc, cudaFree and cudaEventCreate from libcudart.so.13, found at run
// time so that this project builds without the CUDA Toolkit (the tests run
// under the simulated GPU).
#pragma once
#include <dlfcn.h>

#include <cstddef>

namespace cuda {

inline void* symbol(const char* name) {
  static void* cudart = dlopen("libcudart.so.13", RTLD_NOW | RTLD_GLOBAL);
  return cudart ? dlsym(cudart, name) : nullptr;
}

inline int malloc(void** p, std::size_t bytes) {
  auto fn = reinterpret_cast<int (*)(void**, std::size_t)>(symbol("cudaMalloc"));
  return fn ? fn(p, bytes) : -1;
}

inline int free(void* p) {
  auto fn = reinterpret_cast<int (*)(void*)>(symbol("cudaFree"));
  return fn ? fn(p) : -1;
}

inline int event_create(void** event) {
  auto fn = reinterpret_cast<int (*)(void**)>(symbol("cudaEventCreate"));
  return fn ? fn(event) : -1;
}

}  // namespace cuda
