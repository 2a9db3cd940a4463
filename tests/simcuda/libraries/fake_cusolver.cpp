// A stand-in for libcusolver.so: a dense-solver handle owns a cuBLAS handle
// (created through cublasCreate_v2, as the real library does) and a buffer.
#include <cuda.h>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

extern "C" int cublasCreate_v2(void** handle);
extern "C" int cublasDestroy_v2(void* handle);

namespace {
struct Handle {
  void* blas = nullptr;
  CUdeviceptr buffer = 0;
};
}  // namespace

FAKE_EXPORT int cusolverDnCreate(void** out) {
  if (!out) return 3;  // CUSOLVER_STATUS_INVALID_VALUE
  auto* h = new Handle;
  if (int s = cublasCreate_v2(&h->blas); s != 0) return s;
  if (cuMemAlloc(&h->buffer, size_t(1) << 20) != CUDA_SUCCESS) return 2;  // CUSOLVER_STATUS_ALLOC_FAILED
  *out = h;
  return 0;
}

FAKE_EXPORT int cusolverDnDestroy(void* handle) {
  auto* h = static_cast<Handle*>(handle);
  if (!h) return 1;
  cublasDestroy_v2(h->blas);
  cuMemFree(h->buffer);
  delete h;
  return 0;
}
