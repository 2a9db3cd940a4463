// A stand-in for libcublas.so.13 with the create/destroy pair only: a handle
// holds what the real one holds at creation (a workspace and smaller buffers,
// streams, events), made through the driver's public entry points as the
// real library makes them through cudart. Exercises library-handle grouping.
#include <cuda.h>

#include <vector>

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {
struct Handle {
  std::vector<CUdeviceptr> memory;
  std::vector<CUstream> streams;
  std::vector<CUevent> events;
};
}  // namespace

FAKE_EXPORT int cublasCreate_v2(void** out) {
  if (!out) return 7;  // CUBLAS_STATUS_INVALID_VALUE
  auto* h = new Handle;
  for (size_t bytes : {size_t(4) << 20, size_t(128) << 10, size_t(1) << 10}) {
    CUdeviceptr p = 0;
    if (cuMemAlloc(&p, bytes) != CUDA_SUCCESS) return 3;  // CUBLAS_STATUS_ALLOC_FAILED
    h->memory.push_back(p);
  }
  for (int i = 0; i < 2; ++i) {
    CUstream s = nullptr;
    cuStreamCreate(&s, 0);
    h->streams.push_back(s);
  }
  for (int i = 0; i < 8; ++i) {
    CUevent e = nullptr;
    cuEventCreate(&e, 0);
    h->events.push_back(e);
  }
  // Its kernels, loaded once for the process and never unloaded, as cuBLAS's
  // embedded runtime does.
  static CUlibrary kernels = nullptr;
  static const char image[] = "cuBLAS kernels stand-in";
  if (!kernels) cuLibraryLoadData(&kernels, image, nullptr, nullptr, 0, nullptr, nullptr, 0);
  *out = h;
  return 0;
}

FAKE_EXPORT int cublasDestroy_v2(void* handle) {
  auto* h = static_cast<Handle*>(handle);
  if (!h) return 1;  // CUBLAS_STATUS_NOT_INITIALIZED
  for (CUdeviceptr p : h->memory) cuMemFree(p);
  for (CUstream s : h->streams) cuStreamDestroy(s);
  for (CUevent e : h->events) cuEventDestroy(e);
  delete h;
  return 0;
}

// cuBLASLt's create hands out one reference-counted context, as the real
// library does: two creates return the same handle; it lives until two destroys.
namespace {
int g_lt_references = 0;
int g_lt_context = 0;
}  // namespace

FAKE_EXPORT int cublasLtCreate(void** out) {
  if (!out) return 7;
  ++g_lt_references;
  *out = &g_lt_context;
  return 0;
}

FAKE_EXPORT int cublasLtDestroy(void* handle) {
  if (handle != &g_lt_context || g_lt_references == 0) return 1;
  --g_lt_references;
  return 0;
}
