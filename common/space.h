// Handle namespaces: a key is unique within one.
#pragma once
#include <cstdint>

namespace cudaleak {

// Device pointers from cuMemAlloc, cuMemAllocManaged, the stream-ordered
// allocator, graph allocation nodes and imported pool pointers share one,
// because cuMemFree_v2 and cuMemFreeAsync release any of them. Each library's
// handles are a space of their own (a cuFFT plan is a small int).
enum class Space : uint8_t {
  DevicePtr,
  HostPtr,
  Registered,
  Pool,
  Vmm,
  VaReservation,
  Mapping,
  Array,
  Mipmapped,
  Context,
  GreenContext,
  Stream,
  Event,
  Graph,
  GraphExec,
  Module,
  Library,
  Texture,
  Surface,
  IpcPtr,
  ExternalMemory,
  ExternalSemaphore,
  Cublas,
  CublasLt,
  Cudnn,
  Cufft,
  Cusparse,
  CusolverDn,
  CusolverSp,
  Curand,
  Nccl,
  DeviceHeap,  // kernels' malloc: an address space of its own, freed only by device-side free
};

}  // namespace cudaleak
