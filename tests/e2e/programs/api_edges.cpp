// Driver-API edge cases, each printing one line the test checks:
// per-thread-stream look-ups through cuGetProcAddress, NULL arguments, frees of
// unknown pointers, a primary context reset with live memory, and
// out-of-memory results passed through untouched.
#include <cuda.h>
#include <cudaTypedefs.h>

#include <cerrno>
#include <cstdio>

int main() {
  cuInit(0);
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  CUcontext primary;
  cuDevicePrimaryCtxRetain(&primary, dev);
  cuCtxSetCurrent(primary);

  // cuGetProcAddress hands out the per-thread variant when asked with the flag.
  void* alloc_ptsz = nullptr;
  CUdriverProcAddressQueryResult status;
  CUresult r = cuGetProcAddress("cuMemAllocAsync", &alloc_ptsz, 12000, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM,
                                &status);
  CUdeviceptr async_buffer = 0;
  r = reinterpret_cast<PFN_cuMemAllocAsync_v11020>(alloc_ptsz)(&async_buffer, 8192, CU_STREAM_PER_THREAD);
  std::printf("ptsz alloc: %d\n", int(r));

  // errno after a hooked call is the one the real call left.
  errno = 0;
  CUdeviceptr small = 0;
  cuMemAlloc(&small, 256);
  std::printf("errno kept: %d\n", errno == 0);
  cuMemFree(small);

  // NULL out-parameters: the real error comes back, nothing crashes.
  std::printf("null alloc: %d\n", int(cuMemAlloc(nullptr, 16)));
  std::printf("null stream: %d\n", int(cuStreamCreate(nullptr, 0)));

  // Frees of pointers cudaleak never saw become notes.
  std::printf("unknown free: %d\n", int(cuMemFree(0x1234)));

  // Out of memory: the result passes through and nothing is recorded.
  CUdeviceptr huge = 0;
  std::printf("oom: %d\n", int(cuMemAlloc(&huge, size_t(1) << 40)));

  // Memory still allocated when the primary context is reset is torn down with it.
  CUdeviceptr in_primary = 0;
  cuMemAlloc(&in_primary, 5000);
  std::printf("reset: %d\n", int(cuDevicePrimaryCtxReset(dev)));
  return 0;
}
