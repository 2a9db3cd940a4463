// BUILD: %nvcc -O0 %s -o %t/prog
// RUN: %run --gen-suppressions --sarif %t/r.sarif -o %t/r.json -- %t/prog
// CHECK: allocated
// CHECK: never freed, created by cudaMalloc
// CHECK: in fill_buffers
// CHECK: leak:fill_buffers kind:device
// CHECK-NONE: leak:cudaError
// RUN: %report %t/r.json --by function
// CHECK: fill_buffers
// CHECK-NONE: cudaMalloc<float>
// RUN: %python -c "import json,sys; print([l['physicalLocation']['artifactLocation']['uri'] for r in json.load(open(sys.argv[1]))['runs'][0]['results'] for l in r['locations']])" %t/r.sarif
// CHECK: template_wrapper.cu
// CHECK-NONE: cuda_runtime.h
// Built with nvcc -O0 -g: cudaMalloc(&float_ptr, n) goes through CUDA's own
// template wrapper cudaMalloc<float> in cuda_runtime.h. The user's function
// is fill_buffers; the wrapper is the toolkit's.
#include <cstdio>

float* fill_buffers(size_t n) {
  float* p = nullptr;
  cudaMalloc(&p, n * sizeof(float));  // LINE:wrapper
  return p;
}

int main() {
  float* kept = fill_buffers(1 << 18);
  std::printf("%s\n", kept ? "allocated" : "failed");
  return 0;
}
