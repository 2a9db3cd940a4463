// Functions of the real libcudart.so.13 that the simulated runtime did not
// export before it exported every one: linked against the real runtime, this
// program must load under the simulated GPU (no symbol lookup error, status
// 127), get sane answers from the modelled ones and cudaErrorNotSupported,
// with one line on stderr per function, from the others. Prints "all sane".
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

// A per-thread-default-stream entry, as a program built with
// --default-stream per-thread calls it (the header declares it only then).
extern "C" cudaError_t cudaMemset_ptds(void* dst, int value, size_t count);

namespace {
int failures = 0;
void expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "unmodelled_calls: wrong: %s\n", what);
    ++failures;
  }
}
}  // namespace

int main() {
  // A struct returned by value (through a hidden pointer): computed.
  cudaChannelFormatDesc desc = cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned);
  expect(desc.x == 8 && desc.y == 16 && desc.z == 0 && desc.w == 0 && desc.f == cudaChannelFormatKindUnsigned,
         "cudaCreateChannelDesc");

  // The default pool keeps the attributes a program sets.
  cudaMemPool_t pool = nullptr;
  expect(cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess && pool, "cudaDeviceGetDefaultMemPool");
  uint64_t threshold = UINT64_MAX, read_back = 0;
  expect(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) == cudaSuccess,
         "cudaMemPoolSetAttribute");
  expect(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &read_back) == cudaSuccess &&
             read_back == UINT64_MAX,
         "cudaMemPoolGetAttribute");

  // Strings: every code has its name.
  expect(std::strcmp(cudaGetErrorName(cudaErrorNotSupported), "cudaErrorNotSupported") == 0, "cudaGetErrorName");
  expect(std::strcmp(cudaGetErrorName(cudaErrorLaunchTimeout), "cudaErrorLaunchTimeout") == 0, "cudaGetErrorName");
  expect(std::strcmp(cudaGetErrorString(cudaErrorNotSupported), "operation not supported") == 0,
         "cudaGetErrorString");

  // The per-thread entry reaches the legacy one with its arguments intact.
  unsigned char* buffer = nullptr;
  expect(cudaMalloc(reinterpret_cast<void**>(&buffer), 64) == cudaSuccess, "cudaMalloc");
  expect(cudaMemset_ptds(buffer, 0x5a, 64) == cudaSuccess && buffer[0] == 0x5a && buffer[63] == 0x5a,
         "cudaMemset_ptds");
  expect(cudaFree(buffer) == cudaSuccess, "cudaFree");

  // Not modelled: not supported, twice, and the last error says so.
  for (int i = 0; i < 2; ++i)
    expect(cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                              cudaFlushGPUDirectRDMAWritesToOwner) == cudaErrorNotSupported,
           "cudaDeviceFlushGPUDirectRDMAWrites");
  expect(cudaGetLastError() == cudaErrorNotSupported, "cudaGetLastError");

  // A driver entry point the simulation does not model is still answered.
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
  expect(cudaGetDriverEntryPointByVersion("cuDeviceGetLuid", &fn, 10000, cudaEnableDefault, &status) ==
                 cudaSuccess &&
             status == cudaDriverEntryPointSuccess && fn,
         "cudaGetDriverEntryPointByVersion");
  if (fn) {
    char luid[8];
    unsigned mask = 0;
    for (int i = 0; i < 2; ++i)
      expect(reinterpret_cast<CUresult (*)(char*, unsigned*, CUdevice)>(fn)(luid, &mask, 0) ==
                 CUDA_ERROR_NOT_SUPPORTED,
             "cuDeviceGetLuid");
  }

  if (failures) return 1;
  std::puts("all sane");
  return 0;
}
