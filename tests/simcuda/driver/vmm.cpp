// Virtual memory management of the simulated driver: physical handles with a
// reference count, address reservations and mappings.
#include <cstdlib>

#include "tests/simcuda/driver/sim_cuda.h"
#include "tests/simcuda/driver/sim_state.h"

using namespace simcuda;

SIM_EXPORT CUresult cuMemCreate(CUmemGenericAllocationHandle* handle, size_t size, const CUmemAllocationProp* prop,
                                unsigned long long) {
  SIM_ENTRY("cuMemCreate");
  if (!handle || !prop || size == 0) return CUDA_ERROR_INVALID_VALUE;
  int dev = prop->location.id;
  std::lock_guard lock(sim.mutex);
  if (dev < 0 || dev >= sim.config.devices) return CUDA_ERROR_INVALID_DEVICE;
  auto& device = sim.devices[size_t(dev)];
  if (size > sim.available(dev)) return CUDA_ERROR_OUT_OF_MEMORY;
  device.used += size;
  *handle = sim.next_vmm_handle++;
  sim.vmm[*handle] = VmmHandle{size, dev, 1, *handle};
  sim.vmm_physical_handles[*handle] = 1;
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
  SIM_ENTRY("cuMemRelease");
  std::lock_guard lock(sim.mutex);
  auto it = sim.vmm.find(handle);
  if (it == sim.vmm.end()) return CUDA_ERROR_INVALID_VALUE;
  if (--it->second.refcount == 0) {
    const VmmHandle gone = it->second;
    sim.vmm.erase(it);
    if (--sim.vmm_physical_handles[gone.physical] == 0) {  // the last handle of this memory
      sim.vmm_physical_handles.erase(gone.physical);
      sim.devices[size_t(gone.device)].used -= gone.bytes;
    }
  }
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle* handle, void* addr) {
  SIM_ENTRY("cuMemRetainAllocationHandle");
  if (!handle) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(sim.mutex);
  auto mapping = sim.mappings.find(uintptr_t(addr));
  if (mapping == sim.mappings.end()) return CUDA_ERROR_INVALID_VALUE;
  auto it = sim.vmm.find(mapping->second);
  if (it == sim.vmm.end()) return CUDA_ERROR_INVALID_VALUE;
  ++it->second.refcount;
  *handle = mapping->second;
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemAddressReserve(CUdeviceptr* ptr, size_t size, size_t, CUdeviceptr, unsigned long long) {
  SIM_ENTRY("cuMemAddressReserve");
  if (!ptr || size == 0) return CUDA_ERROR_INVALID_VALUE;
  void* p = std::malloc(size);  // stands in for a reserved range: unique addresses, mappable
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  std::lock_guard lock(sim.mutex);
  sim.reservations[uintptr_t(p)] = size;
  *ptr = CUdeviceptr(p);
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemAddressFree(CUdeviceptr ptr, size_t) {
  SIM_ENTRY("cuMemAddressFree");
  std::lock_guard lock(sim.mutex);
  auto it = sim.reservations.find(uintptr_t(ptr));
  if (it == sim.reservations.end()) return CUDA_ERROR_INVALID_VALUE;
  std::free(reinterpret_cast<void*>(ptr));
  sim.reservations.erase(it);
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemMap(CUdeviceptr ptr, size_t, size_t, CUmemGenericAllocationHandle handle, unsigned long long) {
  SIM_ENTRY("cuMemMap");
  std::lock_guard lock(sim.mutex);
  auto it = sim.vmm.find(handle);
  if (it == sim.vmm.end() || sim.mappings.count(uintptr_t(ptr))) return CUDA_ERROR_INVALID_VALUE;
  ++it->second.refcount;  // a mapping keeps the physical memory alive, as in the real driver
  sim.mappings[uintptr_t(ptr)] = handle;
  return CUDA_SUCCESS;
}

SIM_EXPORT CUresult cuMemUnmap(CUdeviceptr ptr, size_t) {
  SIM_ENTRY("cuMemUnmap");
  CUmemGenericAllocationHandle handle;
  {
    std::lock_guard lock(sim.mutex);
    auto it = sim.mappings.find(uintptr_t(ptr));
    if (it == sim.mappings.end()) return CUDA_ERROR_INVALID_VALUE;
    handle = it->second;
    sim.mappings.erase(it);
  }
  return cuMemRelease(handle);
}

SIM_EXPORT CUresult cuMemSetAccess(CUdeviceptr, size_t, const CUmemAccessDesc*, size_t) {
  SIM_ENTRY("cuMemSetAccess");
  return CUDA_SUCCESS;
}
