// Driver API: a context created with cuCtxCreate is never destroyed and keeps
// a device buffer; a second context is destroyed while its buffer is still
// allocated (freed by the teardown, reported as a leak as compute-sanitizer
// does); VMM memory is reserved and mapped, and only partly released.
#include <cuda.h>

#include <cstdio>
#include <cstdlib>

#define CU_CHECK(call)                                                         \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char* s_ = nullptr;                                                \
      cuGetErrorString(r_, &s_);                                               \
      std::fprintf(stderr, "%s failed: %s\n", #call, s_ ? s_ : "?");           \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

static CUdeviceptr vmm_buffer(CUdevice dev, size_t size, CUmemGenericAllocationHandle* handle) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  size_t granularity = 2 << 20;
  size = (size + granularity - 1) / granularity * granularity;
  CUdeviceptr va = 0;
  CU_CHECK(cuMemCreate(handle, size, &prop, 0));
  CU_CHECK(cuMemAddressReserve(&va, size, 0, 0, 0));
  CU_CHECK(cuMemMap(va, size, 0, *handle, 0));
  CUmemAccessDesc access = {};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  CU_CHECK(cuMemSetAccess(va, size, &access, 1));
  return va;
}

int main() {
  CU_CHECK(cuInit(0));
  CUdevice dev;
  CU_CHECK(cuDeviceGet(&dev, 0));

  CUcontext scratch;
  CU_CHECK(cuCtxCreate(&scratch, nullptr, 0, dev));
  CUdeviceptr forgotten;
  CU_CHECK(cuMemAlloc(&forgotten, 256 << 10));
  CU_CHECK(cuCtxDestroy(scratch));  // takes `forgotten` with it

  CUcontext ctx;
  CU_CHECK(cuCtxCreate(&ctx, nullptr, 0, dev));  // never destroyed
  CUdeviceptr kept;
  CU_CHECK(cuMemAlloc(&kept, 3 << 20));

  CUmemGenericAllocationHandle released_handle, leaked_handle;
  CUdeviceptr released = vmm_buffer(dev, 2 << 20, &released_handle);
  vmm_buffer(dev, 4 << 20, &leaked_handle);  // reservation, mapping and memory all leak
  CU_CHECK(cuMemUnmap(released, 2 << 20));
  CU_CHECK(cuMemRelease(released_handle));
  CU_CHECK(cuMemAddressFree(released, 2 << 20));

  std::printf("driver API work done\n");
  return 0;
}
