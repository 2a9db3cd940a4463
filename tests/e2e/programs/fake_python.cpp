// A process that looks like a Python interpreter of a version cudaleak has no
// frame layout for: Python frames must degrade to native stacks with a note.
#include <cuda_runtime_api.h>

#include <cstdio>

extern "C" __attribute__((visibility("default"))) const char* Py_GetVersion() { return "3.99.0 (test)"; }

int main() {
  void* p = nullptr;
  if (cudaMalloc(&p, 1 << 20) != cudaSuccess) return 1;
  std::puts("allocated");
  return 0;
}
